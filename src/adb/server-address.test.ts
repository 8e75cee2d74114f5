import { describe, expect, it } from 'vitest';
import { resolveAdbServer } from './server-address.js';

describe('finding the adb server', () => {
  it('uses localhost:5037 when nothing is set', () => {
    expect(resolveAdbServer({})).toEqual({ kind: 'tcp', host: '127.0.0.1', port: 5037, source: 'default' });
  });

  it('takes ANDROID_ADB_SERVER_PORT and ANDROID_ADB_SERVER_ADDRESS', () => {
    expect(
      resolveAdbServer({ ANDROID_ADB_SERVER_PORT: '15037', ANDROID_ADB_SERVER_ADDRESS: '10.0.0.2' }),
    ).toMatchObject({
      host: '10.0.0.2',
      port: 15037,
      source: 'ANDROID_ADB_SERVER_PORT',
    });
  });

  it('prefers ADB_SERVER_SOCKET in its tcp and localfilesystem forms', () => {
    expect(resolveAdbServer({ ADB_SERVER_SOCKET: 'tcp:5038', ANDROID_ADB_SERVER_PORT: '1' })).toMatchObject({
      port: 5038,
    });
    expect(resolveAdbServer({ ADB_SERVER_SOCKET: 'tcp:farm.local:5039' })).toMatchObject({
      host: 'farm.local',
      port: 5039,
    });
    expect(resolveAdbServer({ ADB_SERVER_SOCKET: 'tcp:[::1]:5040' })).toMatchObject({
      host: '::1',
      port: 5040,
    });
    expect(resolveAdbServer({ ADB_SERVER_SOCKET: 'localfilesystem:/tmp/adb.sock' })).toEqual({
      kind: 'unix',
      path: '/tmp/adb.sock',
      source: 'ADB_SERVER_SOCKET',
    });
  });

  it('rejects a port that is not a port', () => {
    expect(() => resolveAdbServer({ ANDROID_ADB_SERVER_PORT: '70000' })).toThrow(/not a valid port/);
    expect(() => resolveAdbServer({ ADB_SERVER_SOCKET: 'vsock:1' })).toThrow(/unsupported form/);
  });
});
