import { describe, expect, it } from 'vitest';
import { UsageError } from './command.js';
import { parseSimArgs } from './sim.js';

describe('droidbus sim arguments', () => {
  it('default to one TCP device and no emulators', () => {
    expect(parseSimArgs([]).farm).toMatchObject({ devices: 1, emulators: 0, auth: 'none' });
  });

  it('start no TCP device when only emulators are asked for', () => {
    expect(parseSimArgs(['--emulators', '2']).farm).toMatchObject({ devices: 0, emulators: 2 });
  });

  it('carry every option into the farm options', () => {
    const parsed = parseSimArgs([
      '--devices=3',
      '--adb-port',
      '15555',
      '--json',
      '--command-log',
      '/tmp/c.jsonl',
      '--dump-latency',
      '50',
      '--logcat-rate',
      '0',
      '--auth',
      'unauthorized',
      '--emulator-base-port',
      '5800',
    ]);
    expect(parsed.json).toBe(true);
    expect(parsed.farm).toEqual({
      devices: 3,
      emulators: 0,
      adbPort: 15555,
      commandLog: '/tmp/c.jsonl',
      dumpLatencyMs: 50,
      logcatRate: 0,
      auth: 'unauthorized',
      emulatorBasePort: 5800,
    });
  });

  it.each([
    [['--devcies', '2'], /devcies/],
    [['--devices', 'two'], /--devices must be a whole number/],
    [['--devices', '-1'], /--devices/],
    [['--auth', 'maybe'], /--auth must be one of none, any, unauthorized/],
    [['--adb-port', '70000'], /--adb-port/],
    [['--devices', '0'], /nothing to start/],
    [['extra'], /extra/],
  ])('reject %j as a usage error', (argv, message) => {
    expect(() => parseSimArgs(argv)).toThrow(UsageError);
    expect(() => parseSimArgs(argv)).toThrow(message);
  });

  it('accept --sample-project alone', () => {
    expect(parseSimArgs(['--sample-project', '/tmp/p'])).toMatchObject({ sampleProject: '/tmp/p' });
  });

  it('accept --test-sdk with its AVDs, base port and boot time, and refuse AVD names that are not names', () => {
    expect(
      parseSimArgs([
        '--test-sdk',
        '/tmp/sdk',
        '--avds',
        'Pixel_8_API_34,Pixel_7a_API_33',
        '--emulator-base-port',
        '6400',
        '--boot-ms',
        '500',
      ]).testSdk,
    ).toEqual({ dir: '/tmp/sdk', avds: ['Pixel_8_API_34', 'Pixel_7a_API_33'], basePort: 6400, bootMs: 500 });
    expect(parseSimArgs(['--test-sdk', '/tmp/sdk']).testSdk?.avds).toEqual(['Pixel_8_API_34']);
    expect(() => parseSimArgs(['--test-sdk', '/tmp/sdk', '--avds', '-wipe-data'])).toThrow(UsageError);
    expect(() => parseSimArgs(['--avds', 'A'])).toThrow(/--test-sdk/);
  });
});
