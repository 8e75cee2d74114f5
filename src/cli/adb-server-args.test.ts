import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADB_SERVERS_ENV } from '../adb/servers.js';
import { applyAdbServers } from './adb-server-args.js';
import { UsageError } from './command.js';

describe('--adb-server and settings adb_servers', () => {
  let home: string;
  const saved = { home: process.env['DROIDBUS_HOME'], servers: process.env[ADB_SERVERS_ENV] };
  beforeEach(() => {
    home = mkdtempSync(path.join(os.tmpdir(), 'droidbus-adbargs-'));
    process.env['DROIDBUS_HOME'] = home;
    delete process.env[ADB_SERVERS_ENV];
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
    for (const [key, value] of [
      ['DROIDBUS_HOME', saved.home],
      [ADB_SERVERS_ENV, saved.servers],
    ] as const) {
      if (value === undefined) {
        delete process.env[key];
      } else {
        process.env[key] = value;
      }
    }
  });

  it('hands the flags to every thread, and keeps the one local server when nothing is named', () => {
    expect(applyAdbServers(undefined, false)).toEqual([]);
    expect(process.env[ADB_SERVERS_ENV]).toBeUndefined();
    applyAdbServers(['local=tcp:5037', 'tcp:5038'], false);
    expect(process.env[ADB_SERVERS_ENV]).toBe('local=tcp:127.0.0.1:5037,adb5038=tcp:127.0.0.1:5038');
  });

  it('reads settings.json when no flag names a server, and refuses a remote one there too', () => {
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ adb_servers: ['lab=tcp:15037'] }));
    applyAdbServers(undefined, false);
    expect(process.env[ADB_SERVERS_ENV]).toBe('lab=tcp:127.0.0.1:15037');
    writeFileSync(
      path.join(home, 'settings.json'),
      JSON.stringify({ adb_servers: ['lab=tcp:10.0.0.9:5037'] }),
    );
    expect(() => applyAdbServers(undefined, false)).toThrow(UsageError);
    expect(() => applyAdbServers(undefined, false)).toThrow(/settings.json adb_servers: .*no authentication/);
    writeFileSync(
      path.join(home, 'settings.json'),
      JSON.stringify({ adb_servers: ['lab=tcp:10.0.0.9:5037'], allow_remote_adb_server: true }),
    );
    expect(applyAdbServers(undefined, false)).toEqual([expect.stringContaining('anyone on that network')]);
  });
});
