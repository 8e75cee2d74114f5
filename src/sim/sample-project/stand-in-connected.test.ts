import { describe, expect, it } from 'vitest';
import { finishedTests } from './stand-in-connected.js';

/**
 * A real AndroidJUnitRunner transcript of one passing test (`am instrument -w -r`), from a Capacitor
 * app's CI run 34218705281 as a public test suite quotes it.
 */
const PASSED = [
  'INSTRUMENTATION_STATUS: class=com.getcapacitor.myapp.ExampleInstrumentedTest',
  'INSTRUMENTATION_STATUS: current=1',
  'INSTRUMENTATION_STATUS: id=AndroidJUnitRunner',
  'INSTRUMENTATION_STATUS: numtests=1',
  'INSTRUMENTATION_STATUS: stream=',
  'com.getcapacitor.myapp.ExampleInstrumentedTest:',
  'INSTRUMENTATION_STATUS: test=useAppContext',
  'INSTRUMENTATION_STATUS_CODE: 1',
  'INSTRUMENTATION_STATUS: class=com.getcapacitor.myapp.ExampleInstrumentedTest',
  'INSTRUMENTATION_STATUS: current=1',
  'INSTRUMENTATION_STATUS: id=AndroidJUnitRunner',
  'INSTRUMENTATION_STATUS: numtests=1',
  'INSTRUMENTATION_STATUS: stream=.',
  'INSTRUMENTATION_STATUS: test=useAppContext',
  'INSTRUMENTATION_STATUS_CODE: 0',
  'INSTRUMENTATION_RESULT: stream=',
  '',
  'Time: 0.072',
  '',
  'OK (1 test)',
  '',
  '',
  'INSTRUMENTATION_CODE: -1',
].join('\n');

describe("the stand-in's reading of am instrument -r", () => {
  it('finds the one finished test of a real transcript, passed', () => {
    expect(finishedTests(PASSED)).toEqual([
      { className: 'com.getcapacitor.myapp.ExampleInstrumentedTest', method: 'useAppContext', stack: null },
    ]);
  });

  it('keeps a failed test with its whole multi-line stack, CRLF or not', () => {
    const failed = PASSED.replace(
      'INSTRUMENTATION_STATUS: stream=.',
      [
        'INSTRUMENTATION_STATUS: stack=java.lang.AssertionError: no',
        '\tat org.junit.Assert.fail(Assert.java:87)',
        'INSTRUMENTATION_STATUS: stream=',
        'Error in useAppContext(com.getcapacitor.myapp.ExampleInstrumentedTest):',
        'java.lang.AssertionError: no',
      ].join('\n'),
    ).replace('INSTRUMENTATION_STATUS_CODE: 0', 'INSTRUMENTATION_STATUS_CODE: -2');
    for (const out of [failed, failed.replaceAll('\n', '\r\n')]) {
      expect(finishedTests(out)).toEqual([
        {
          className: 'com.getcapacitor.myapp.ExampleInstrumentedTest',
          method: 'useAppContext',
          stack: 'java.lang.AssertionError: no\n\tat org.junit.Assert.fail(Assert.java:87)',
        },
      ]);
    }
  });
});
