import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CrashGroups } from './crash-group.js';
import { LogJournal, SEGMENT_BYTES } from './log-journal.js';
import { LogStore } from './log-store.js';
import { LogcatPipeline } from './logcat-pipeline.js';
import { fixture, fixtureBytes, plainEntry } from './test-fixtures.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'droidbus-journal-'));
  dirs.push(d);
  return d;
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A store journaled to `dir`, fed two devices' real logs (a crash among them). */
async function journaledStore(dir: string): Promise<{ store: LogStore; journal: LogJournal }> {
  const journal = new LogJournal(dir, 1 << 30);
  const store = new LogStore();
  store.attachJournal(journal, journal.load());
  const groups = new CrashGroups();
  const a = new LogcatPipeline({ device: 'emulator-5554', store, groups, parser: { year: 2024 } });
  const b = new LogcatPipeline({ device: 'R58M12345', store, groups, parser: { year: 2024 } });
  a.push(fixture('threadtime-api25.txt'));
  b.push(fixtureBytes('threadtime-kivy-crash.txt'));
  a.end();
  b.end();
  await Promise.resolve(); // the journal writes at the end of the task
  return { store, journal };
}

function snapshot(store: LogStore): { seqs: number[]; messages: string[]; crashes: string[] } {
  const entries = Array.from({ length: store.size }, (_, i) => store.at(i)!);
  return {
    seqs: entries.map((e) => e.seq),
    messages: entries.map((e) => `${e.device} ${e.tag} ${e.message}`),
    crashes: store.crashes().map((c) => `${c.group_id} ${c.seq}`),
  };
}

describe('the logcat journal', () => {
  it('gives a new store the lines, seqs and crashes of the one it replaces', async () => {
    const dir = tempDir();
    const { store } = await journaledStore(dir);
    expect(store.size).toBeGreaterThan(50);
    expect(store.crashes().length).toBeGreaterThan(0);
    const restored = new LogStore();
    restored.attachJournal(new LogJournal(dir, 1 << 30), new LogJournal(dir, 1 << 30).load());
    expect(snapshot(restored)).toEqual(snapshot(store));
  });

  it('replays clears, and the restored store carries on journaling with the next seq', async () => {
    const dir = tempDir();
    const { store, journal } = await journaledStore(dir);
    // Seqs keep rising across a clear: the next line is the one after every line ever stored.
    const pushed = store.at(store.size - 1)!.seq;
    store.clear('R58M12345');
    await Promise.resolve();
    journal.close();
    const next = new LogJournal(dir, 1 << 30);
    const restored = new LogStore();
    restored.attachJournal(next, next.load());
    expect(snapshot(restored)).toEqual(snapshot(store));
    expect(snapshot(restored).messages.some((m) => m.startsWith('R58M12345'))).toBe(false);
    restored.push({ ...store.at(0)!, message: 'after the restart' });
    expect(restored.at(restored.size - 1)!.seq).toBe(pushed + 1);
    await Promise.resolve();
    const again = new LogStore();
    again.attachJournal(next, new LogJournal(dir, 1 << 30).load());
    expect(again.at(again.size - 1)!.message).toBe('after the restart');
  });

  it('rotates segments and drops the oldest past its cap, skipping a torn last line', async () => {
    const dir = tempDir();
    const journal = new LogJournal(dir, 2 * SEGMENT_BYTES);
    const store = new LogStore({ maxBytes: 4 * SEGMENT_BYTES });
    store.attachJournal(journal, []);
    const big = 'x'.repeat(4000);
    for (let i = 0; i < 8000; i++) {
      store.push(plainEntry({ message: `${i} ${big}` }));
      if (i % 500 === 0) {
        await Promise.resolve();
      }
    }
    await Promise.resolve();
    const files = readdirSync(journal.dir);
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(files.length).toBeLessThanOrEqual(4);
    const records = new LogJournal(dir, 2 * SEGMENT_BYTES).load();
    // The newest line is always there; the oldest were dropped with their segments.
    expect(records.at(-1)).toMatchObject({ t: 'e', e: { message: `7999 ${big}` } });
    expect(records.length).toBeLessThan(8000);
  });
});
