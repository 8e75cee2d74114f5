import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  listSessionRecords,
  removeSessionRecord,
  sessionRecordsDir,
  writeSessionRecord,
} from './session-records.js';
import type { SessionRecord } from './session-records.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'db-rec-'));
  process.env['DROIDBUS_HOME'] = home;
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  delete process.env['DROIDBUS_HOME'];
});

function record(pid: number, binary: string): SessionRecord {
  return {
    pid,
    session_id: `s-${pid}`,
    started_at: new Date().toISOString(),
    project: null,
    reason: 'no droidbus host is running',
    binary,
    node: process.execPath,
    version: '0.1.0',
  };
}

describe('standalone session records', () => {
  it("lists a live process's record and removes it on request", () => {
    // This test process runs vitest's worker script; that is its "binary".
    writeSessionRecord(record(process.pid, process.argv[1]!));
    expect(listSessionRecords().map((r) => r.pid)).toEqual([process.pid]);
    removeSessionRecord(process.pid);
    expect(listSessionRecords()).toEqual([]);
  });

  it('removes the record of a process that is gone when it is read', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    const pid = child.pid!;
    await new Promise((resolve) => child.on('exit', resolve));
    writeSessionRecord(record(pid, '/opt/droidbus/dist/cli.js'));
    expect(listSessionRecords()).toEqual([]);
    expect(existsSync(path.join(sessionRecordsDir(), `${pid}.json`))).toBe(false);
  });

  it('removes the record of a pid that now runs another program', () => {
    writeSessionRecord(record(process.pid, '/somewhere/else/dist/cli.js'));
    expect(listSessionRecords()).toEqual([]);
  });

  it('removes records it cannot read', () => {
    writeFileSync(path.join(sessionRecordsDir(), '123.json'), '{"pid": "nope"');
    expect(listSessionRecords()).toEqual([]);
    expect(existsSync(path.join(sessionRecordsDir(), '123.json'))).toBe(false);
  });
});
