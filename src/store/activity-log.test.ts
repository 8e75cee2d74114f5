import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ActivityLog,
  ROTATE_KEEP,
  ROTATE_THRESHOLD_BYTES,
  activityLogPath,
  readActivity,
  rotateActivityLog,
} from './activity-log.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'db-act-'));
  process.env['DROIDBUS_HOME'] = home;
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  delete process.env['DROIDBUS_HOME'];
});

describe('the activity log', () => {
  it('queues entries without touching the disk, then writes them in one batch', async () => {
    const log = new ActivityLog({ session: 's1', flushDelayMs: 10_000 });
    log.record({
      kind: 'tool',
      name: 'get_project_info',
      status: 'ok',
      summary: 'Project: /p',
      durationMs: 12.345,
    });
    log.record({ kind: 'prompt', name: 'x', status: 'ok', summary: 'p' });
    expect(existsSync(activityLogPath())).toBe(false);
    await log.flush();
    const entries = readActivity();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      pid: process.pid,
      session: 's1',
      kind: 'tool',
      name: 'get_project_info',
      duration_ms: 12.3,
      status: 'ok',
      summary: 'Project: /p',
    });
    expect(entries[1]?.duration_ms).toBeNull();
  });

  it('redacts and cuts summaries to 120 bytes when it writes them', async () => {
    const log = new ActivityLog({ flushDelayMs: 10_000 });
    log.record({
      kind: 'tool',
      name: 't',
      status: 'ok',
      summary: `password=hunter22 ${'word '.repeat(100)}`,
    });
    log.record({
      kind: 'resource',
      name: 'droidbus://x?access_token=abc123',
      status: 'not_found',
      summary: '',
    });
    await log.close();
    const [entry, unknown] = readActivity();
    expect(unknown?.name).toBe('droidbus://x?access_token=[redacted]');
    expect(entry?.summary).toMatch(/^password=\[redacted\] word/);
    expect(Buffer.byteLength(entry!.summary, 'utf8')).toBeLessThanOrEqual(120);
  });

  it(`rotates past ${ROTATE_THRESHOLD_BYTES} bytes, keeping the last ${ROTATE_KEEP} entries`, async () => {
    const file = activityLogPath();
    const line = (i: number) => JSON.stringify({ i, pad: 'x'.repeat(400) }) + '\n';
    writeFileSync(file, Array.from({ length: 700 }, (_, i) => line(i)).join(''));
    expect(await rotateActivityLog()).toBe(true);
    const kept = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { i: number }).i);
    expect(kept).toHaveLength(ROTATE_KEEP);
    expect(kept[0]).toBe(200);
    expect(kept.at(-1)).toBe(699);
    expect(await rotateActivityLog()).toBe(false);
  });

  it('skips lines it cannot parse when reading', async () => {
    writeFileSync(activityLogPath(), '{"kind":"tool","name":"a"}\nnot json\n{"kind":"tool","name":"b"}\n');
    expect(readActivity().map((e) => e.name)).toEqual(['a', 'b']);
  });
});
