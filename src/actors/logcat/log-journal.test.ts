import { spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CrashGroups } from './crash-group.js';
import { LogJournal, SEGMENT_BYTES, type JournalRecord } from './log-journal.js';
import { runId } from '../../util/run-id.js';
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
  store.attachJournal(journal, journal.load().records);
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
    restored.attachJournal(new LogJournal(dir, 1 << 30), new LogJournal(dir, 1 << 30).load().records);
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
    restored.attachJournal(next, next.load().records);
    expect(snapshot(restored)).toEqual(snapshot(store));
    expect(snapshot(restored).messages.some((m) => m.startsWith('R58M12345'))).toBe(false);
    restored.push({ ...store.at(0)!, message: 'after the restart' });
    expect(restored.at(restored.size - 1)!.seq).toBe(pushed + 1);
    await Promise.resolve();
    const again = new LogStore();
    again.attachJournal(next, new LogJournal(dir, 1 << 30).load().records);
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
    const records = new LogJournal(dir, 2 * SEGMENT_BYTES).load().records;
    // The newest line is always there; the oldest were dropped with their segments.
    expect(records.at(-1)).toMatchObject({ t: 'e', e: { message: `7999 ${big}` } });
    expect(records.length).toBeLessThan(8000);
  });

  it('keeps nothing a clear removed: the cleared lines are gone from the disk, not just hidden (issue 68)', async () => {
    const dir = tempDir();
    const { store, journal } = await journaledStore(dir);
    const onDisk = (): string =>
      readdirSync(journal.dir)
        .map((f) => readFileSync(path.join(journal.dir, f), 'utf8'))
        .join('');
    expect(onDisk()).toContain('"device":"R58M12345"');
    const kept = snapshot(store);
    store.clear('R58M12345');
    await Promise.resolve();
    expect(onDisk()).not.toContain('"device":"R58M12345"');
    const restored = new LogStore();
    restored.attachJournal(journal, new LogJournal(dir, 1 << 30).load().records);
    expect(snapshot(restored).seqs).toEqual(snapshot(store).seqs);
    expect(snapshot(restored).seqs.length).toBeLessThan(kept.seqs.length);
    // Clearing everything leaves only the restart record, which carries the seqs on.
    const last = Math.max(...kept.seqs); // the newest seq ever given, though its line was cleared
    store.clear();
    await Promise.resolve();
    expect(onDisk().trim()).toBe(JSON.stringify({ t: 'r', seq: last }));
    const empty = new LogStore();
    empty.attachJournal(journal, new LogJournal(dir, 1 << 30).load().records);
    empty.push(plainEntry({ message: 'next' }));
    expect(empty.at(0)!.seq).toBe(last + 1);
  });

  it('is removed at a clean shutdown', async () => {
    const dir = tempDir();
    const { journal } = await journaledStore(dir);
    journal.remove();
    expect(existsSync(dir)).toBe(false);
  });

  it("adopts the newest journal a dead process of its role left, removes that role's older ones, leaves others'", () => {
    const root = tempDir();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!; // a pid that has exited
    const write = (name: string, message: string): void => {
      mkdirSync(path.join(root, name), { mode: 0o700 });
      const e = plainEntry({ message, seq: 7 });
      writeFileSync(path.join(root, name, '000000.jsonl'), JSON.stringify({ t: 'e', e }) + '\n', {
        mode: 0o600,
      });
    };
    write(`mcp-${gone}-older`, 'older');
    write(`host-${gone}-a-host`, 'a host');
    write(`mcp-${gone}-newer`, 'newer');
    const journal = LogJournal.open(root, 1 << 30);
    expect(journal.adoptedFrom).toBe(`mcp-${gone}-newer`);
    expect(path.basename(journal.dir)).toBe(`mcp-${process.pid}-${runId()}`);
    const { records } = journal.load();
    expect(records).toHaveLength(1);
    expect((records[0] as Extract<JournalRecord, { t: 'e' }>).e).toMatchObject({ message: 'newer', seq: 7 });
    expect(readdirSync(root).sort()).toEqual([`host-${gone}-a-host`, path.basename(journal.dir)].sort());
    journal.remove();
  });

  it('replays only regular files of this user with one link: links, FIFOs, hard links and foreign files are refused by name', () => {
    const dir = tempDir();
    const outside = path.join(tempDir(), 'forged.jsonl');
    const forged = { t: 'e', e: plainEntry({ message: 'FATAL EXCEPTION forged', seq: 99 }) };
    writeFileSync(outside, JSON.stringify(forged) + '\n');
    const journal = new LogJournal(dir, 1 << 30);
    symlinkSync(outside, path.join(dir, '000001.jsonl'));
    linkSync(outside, path.join(dir, '000002.jsonl'));
    expect(spawnSync('mkfifo', [path.join(dir, '000003.jsonl')]).status).toBe(0);
    writeFileSync(path.join(dir, '000004.jsonl'), JSON.stringify(forged) + '\n');
    const uid = process.getuid?.();
    if (uid === 0) {
      chownSync(path.join(dir, '000004.jsonl'), 4242, 4242); // only root can give a file away
    }
    const started = performance.now();
    const { records, refused } = journal.load();
    expect(performance.now() - started).toBeLessThan(2_000); // the FIFO's open did not wait for a writer
    expect(records.filter((r) => r.t === 'e' && r.e.message.includes('forged'))).toHaveLength(
      uid === 0 ? 0 : 1,
    );
    expect(refused.find((r) => r.includes('000001'))).toMatch(/is a symbolic link/);
    expect(refused.find((r) => r.includes('000002'))).toMatch(/has 2 hard links/);
    expect(refused.find((r) => r.includes('000003'))).toMatch(/not a regular file \(a FIFO\)/);
    if (uid === 0) {
      expect(refused.find((r) => r.includes('000004'))).toMatch(/belongs to user 4242/);
    }
  });

  it('never writes through a file planted under its next segment name', () => {
    const dir = tempDir();
    const outside = path.join(tempDir(), 'victim.txt');
    writeFileSync(outside, 'untouched\n');
    symlinkSync(outside, path.join(dir, '000000.jsonl'));
    rmSync(path.join(dir, '000000.jsonl'));
    const journal = new LogJournal(dir, 1 << 30);
    symlinkSync(outside, path.join(dir, '000000.jsonl'));
    journal.append({ t: 'r', seq: 1 });
    journal.flush();
    journal.close();
    expect(readFileSync(outside, 'utf8')).toBe('untouched\n');
    expect(readdirSync(dir).sort()).toEqual(['000000.jsonl', '000001.jsonl']);
  });
});
