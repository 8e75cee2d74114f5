import { describe, expect, it } from 'vitest';
import { BusError } from '../../../bus/errors.js';
import { amFailure, intentArgv } from './intent-command.js';

describe('send_intent argv', () => {
  it('puts every part in its own argument, extras typed, the target last', () => {
    expect(
      intentArgv({
        mode: 'broadcast',
        action: 'com.example.ACTION_SYNC',
        category: 'android.intent.category.DEFAULT',
        package: 'com.example.app',
        extras: [
          { key: 'note', type: 'string', value: "it's; $(reboot)" },
          { key: 'count', type: 'int', value: '3' },
          { key: 'on', type: 'bool', value: 'true' },
        ],
      }),
    ).toEqual([
      'am',
      'broadcast',
      '-a',
      'com.example.ACTION_SYNC',
      '-c',
      'android.intent.category.DEFAULT',
      '--es',
      'note',
      "it's; $(reboot)",
      '--ei',
      'count',
      '3',
      '--ez',
      'on',
      'true',
      '-p',
      'com.example.app',
    ]);
  });

  it('waits for activity starts and refuses an empty intent or a blocked data URI', () => {
    expect(intentArgv({ mode: 'start', data_uri: 'https://example.com', extras: [] })).toEqual([
      'am',
      'start',
      '-W',
      '-d',
      'https://example.com',
    ]);
    expect(() => intentArgv({ mode: 'start', extras: [] })).toThrow(BusError);
    expect(() => intentArgv({ mode: 'start', data_uri: 'javascript:alert(1)', extras: [] })).toThrow(
      /refused/,
    );
  });
});

describe('am output', () => {
  // Lines as `am` prints them (ActivityManagerShellCommand), exit status 0 or not.
  it('fails on Error lines even when am exits 0', () => {
    expect(
      amFailure(
        'Starting: Intent { act=android.intent.action.VIEW dat=myapp://x flg=0x10000000 }\nError: Activity not started, unable to resolve Intent { act=android.intent.action.VIEW dat=myapp://x flg=0x10000000 }',
        0,
      ),
    ).toMatch(/^Error: Activity not started, unable to resolve/);
    expect(
      amFailure(
        'Starting: Intent { cmp=a/.B }\nError type 3\nError: Activity class {a/a.B} does not exist.',
        0,
      ),
    ).toBe('Error: Activity class {a/a.B} does not exist.');
    expect(
      amFailure('Starting service: Intent { cmp=a/.S }\nError: Not found; no service started.', 255),
    ).toBe('Error: Not found; no service started.');
  });

  it('reports an exception with its message', () => {
    expect(
      amFailure(
        'Exception occurred while executing \'broadcast\':\njava.lang.NumberFormatException: For input string: "x"\n\tat com.android.server.am.ActivityManagerShellCommand.onCommand(ActivityManagerShellCommand.java:251)',
        255,
      ),
    ).toBe('java.lang.NumberFormatException: For input string: "x"');
  });

  it('passes a delivered broadcast and a launch brought to the front', () => {
    expect(
      amFailure('Broadcasting: Intent { act=x flg=0x400000 }\nBroadcast completed: result=0', 0),
    ).toBeNull();
    expect(
      amFailure(
        'Starting: Intent { cmp=a/.B }\nWarning: Activity not started, its current task has been brought to the front\nStatus: ok\nComplete',
        0,
      ),
    ).toBeNull();
  });
});
