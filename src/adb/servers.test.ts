import { describe, expect, it } from 'vitest';
import {
  AdbServers,
  AdbServerSpecError,
  adbServersFromEnv,
  checkAdbServerSpecs,
  parseAdbServerSpec,
  refuseRemoteServers,
  serializeAdbServers,
} from './servers.js';

describe('adb servers', () => {
  it('reads [NAME=]ADDR in the forms ADB_SERVER_SOCKET takes, naming unnamed ones by address', () => {
    expect(parseAdbServerSpec('lab=tcp:15037')).toMatchObject({
      label: 'lab',
      address: { kind: 'tcp', host: '127.0.0.1', port: 15037 },
    });
    expect(parseAdbServerSpec('tcp:5038').label).toBe('adb5038');
    expect(parseAdbServerSpec('tcp:10.0.0.5:5037').label).toBe('a10_0_0_5-5037');
    expect(parseAdbServerSpec('farm=localfilesystem:/tmp/adb.sock').address).toMatchObject({
      kind: 'unix',
      path: '/tmp/adb.sock',
    });
    expect(() => parseAdbServerSpec('lab=5037')).toThrow(/not an adb server address/);
    expect(() => parseAdbServerSpec('9lab=tcp:5037')).toThrow(/cannot name an adb server/);
    expect(() => checkAdbServerSpecs([parseAdbServerSpec('a=tcp:1'), parseAdbServerSpec('a=tcp:2')])).toThrow(
      /two adb servers are named 'a'/,
    );
    expect(() => checkAdbServerSpecs([parseAdbServerSpec('a=tcp:1'), parseAdbServerSpec('b=tcp:1')])).toThrow(
      /named twice/,
    );
    // One server however its address is written: every device would show twice.
    for (const [x, y] of [
      ['tcp:5201', 'tcp:localhost:5201'],
      ['tcp:127.0.0.1:5201', 'tcp:LOCALHOST:5201'],
      ['localfilesystem:/tmp/adb.sock', 'localfilesystem:/tmp/../tmp/adb.sock'],
    ] as const) {
      expect(
        () => checkAdbServerSpecs([parseAdbServerSpec(x), parseAdbServerSpec(`other=${y}`)]),
        `${x} ${y}`,
      ).toThrow(/named twice/);
    }
    expect(() =>
      checkAdbServerSpecs([parseAdbServerSpec('tcp:5201'), parseAdbServerSpec('tcp:10.0.0.2:5201')]),
    ).not.toThrow();
  });

  it('refuses a server on another machine unless allowed, and warns when it is', () => {
    const remote = [parseAdbServerSpec('lab=tcp:192.168.1.20:5037'), parseAdbServerSpec('tunnel=tcp:15037')];
    expect(() => refuseRemoteServers(remote, false)).toThrow(AdbServerSpecError);
    expect(() => refuseRemoteServers(remote, false)).toThrow(
      /no authentication.*ssh -N -L 15037:localhost:5037/s,
    );
    expect(refuseRemoteServers(remote, true)).toEqual([
      expect.stringMatching(/lab .*anyone on that network/),
    ]);
    expect(refuseRemoteServers([parseAdbServerSpec('tcp:[::1]:5037')], false)).toEqual([]);
  });

  it('names devices by serial with one server and LABEL/serial with several, and routes ids back', () => {
    const one = new AdbServers(adbServersFromEnv({}));
    expect(one.multi).toBe(false);
    expect(one.idOf('local', 'emulator-5554')).toBe('emulator-5554');
    expect(one.route('emulator-5554')).toMatchObject({ serial: 'emulator-5554', server: { label: 'local' } });

    const env = {
      DROIDBUS_ADB_SERVERS: serializeAdbServers([
        parseAdbServerSpec('a=tcp:5037'),
        parseAdbServerSpec('b=tcp:15037'),
      ]),
    };
    const two = new AdbServers(adbServersFromEnv(env));
    expect(two.list.map((s) => s.label)).toEqual(['a', 'b']);
    expect(two.idOf('b', 'emulator-5554')).toBe('b/emulator-5554');
    expect(two.route('b/emulator-5554')).toMatchObject({ serial: 'emulator-5554', server: { label: 'b' } });
    expect(two.route('emulator-5554')).toBeNull();
    expect(two.route('c/emulator-5554')).toBeNull();
    // The lock key names the server by address: the same device under another label shares its lock.
    expect(two.lockKeyOf('b/emulator-5554')).toBe('127.0.0.1:15037/emulator-5554');
    expect(one.lockKeyOf('emulator-5554')).toBe('127.0.0.1:5037/emulator-5554');
  });
});
