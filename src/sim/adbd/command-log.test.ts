import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CommandLog, nowMs } from './command-log.js';
import { lastRead } from '../../../tests/helpers/until.js';

let dir: string | undefined;

afterEach(async () => {
  if (dir) {
    await rm(dir, { recursive: true, force: true });
  }
});

describe('CommandLog', () => {
  it('appends one JSON line per record to what the file already holds, all written by close', async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidbus-cmdlog-'));
    const path = join(dir, 'log.jsonl');
    for (const round of [1, 2]) {
      const log = new CommandLog(path);
      const t0 = nowMs();
      log.record({
        t0,
        t1: t0 + 1.5,
        dev: 'emulator-5554',
        kind: 'shell',
        cmd: `echo ${round}`,
        code: 0,
        out: 2,
      });
      log.record({ t0, t1: t0, dev: '127.0.0.1:5555', kind: 'open', cmd: 'reboot:', code: -1, out: 0 });
      log.close();
    }
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[2]!)).toMatchObject({
      dev: 'emulator-5554',
      kind: 'shell',
      cmd: 'echo 2',
      code: 0,
      out: 2,
    });
    const first = JSON.parse(lines[0]!) as { t0: number; t1: number };
    expect(first.t1 - first.t0).toBeCloseTo(1.5);
  });

  it('writes a record within a moment without being closed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidbus-cmdlog-'));
    const path = join(dir, 'log.jsonl');
    const log = new CommandLog(path);
    log.record({ t0: 1, t1: 2, dev: 'd', kind: 'sync', cmd: 'STA2 /sdcard', code: 0, out: 72 });
    const text = await lastRead(
      () => readFile(path, 'utf8'),
      (t) => t !== '',
      5_000,
      10,
    );
    log.close();
    expect(text).toContain('"cmd":"STA2 /sdcard"');
  });
});
