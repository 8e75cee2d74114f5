/**
 * The logcat store's journal: what the store took in (entries with their seqs, finished crashes,
 * clears), appended to segment files in the data folder, so a logcat worker that is replaced (a
 * crash, the watchdog, a fault drill) starts with the store its predecessor had and a client's
 * seqs still mean the same lines. Records queued during a task are written at its end (a
 * microtask), before any other request is handled, so nothing a client could read is missing.
 *
 * One folder per process run (`<data dir>/logcat-journal/<pid>-<run id>`): the run id is set once
 * on the main thread (`DROIDBUS_RUN_ID`) and inherited by every worker it starts, so a new worker
 * of the same run finds its predecessor's journal; folders of processes that are gone are removed.
 * Segments rotate at SEGMENT_BYTES and the oldest go once the rest hold more than the store can.
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { runId } from '../../util/run-id.js';
import { isProcessAlive } from '../../util/process-info.js';
import type { Crash, LogEntry } from './logcat-types.js';

/** A segment's size before the journal starts the next. */
export const SEGMENT_BYTES = 8 * 1024 * 1024;
/**
 * What the segments may hold in all: a record's JSON is about twice the store's estimate of the
 * entry (field names, nulls), so three times the store's 64 MiB keeps every line it holds.
 */
export const JOURNAL_CAP_BYTES = 3 * 64 * 1024 * 1024;

export type JournalRecord =
  { t: 'e'; e: LogEntry } | { t: 'c'; c: Crash } | { t: 'x'; device: string | null };

export class LogJournal {
  private pending: JournalRecord[] = [];
  private fd: number | null = null;
  private segment = 0;
  private written = 0;
  private flushQueued = false;

  /** `capBytes`: what the segments may hold in all (twice the store's bytes is plenty). */
  constructor(
    readonly dir: string,
    private readonly capBytes: number,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const segments = this.segments();
    this.segment = segments.length > 0 ? segments[segments.length - 1]! + 1 : 0;
  }

  /** Opens this run's journal under `root`, removing the folders of processes that are gone. */
  static open(root: string, capBytes: number): LogJournal {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(root)) {
      const pid = Number(/^(\d+)-/.exec(name)?.[1]);
      if (Number.isInteger(pid) && pid !== process.pid && !isProcessAlive(pid)) {
        rmSync(path.join(root, name), { recursive: true, force: true });
      }
    }
    return new LogJournal(path.join(root, `${process.pid}-${runId()}`), capBytes);
  }

  private segments(): number[] {
    return readdirSync(this.dir)
      .map((n) => /^(\d{6})\.jsonl$/.exec(n)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }

  private file(n: number): string {
    return path.join(this.dir, `${String(n).padStart(6, '0')}.jsonl`);
  }

  /** Every record the journal holds, oldest first (a torn last line is skipped). */
  load(): JournalRecord[] {
    const out: JournalRecord[] = [];
    for (const n of this.segments()) {
      for (const line of readFileSync(this.file(n), 'utf8').split('\n')) {
        if (line === '') {
          continue;
        }
        try {
          out.push(JSON.parse(line) as JournalRecord);
        } catch {
          // A line cut by the kill that ended the last writer.
        }
      }
    }
    return out;
  }

  append(record: JournalRecord): void {
    this.pending.push(record);
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** Writes what is queued (serialised now: a crash's group is set on its lines in the same task). */
  flush(): void {
    this.flushQueued = false;
    if (this.pending.length === 0) {
      return;
    }
    const text = this.pending.map((r) => JSON.stringify(r)).join('\n') + '\n';
    this.pending = [];
    if (this.fd === null || this.written >= SEGMENT_BYTES) {
      this.rotate();
    }
    this.written += writeSync(this.fd!, text);
  }

  private rotate(): void {
    if (this.fd !== null) {
      closeSync(this.fd);
    }
    this.fd = openSync(this.file(this.segment++), 'a', 0o600);
    this.written = 0;
    // The oldest segments go while the others hold what the store can.
    const segments = this.segments();
    let total = segments.reduce((n, s) => n + statSync(this.file(s)).size, 0);
    for (const s of segments.slice(0, -1)) {
      if (total <= this.capBytes) {
        break;
      }
      total -= statSync(this.file(s)).size;
      rmSync(this.file(s), { force: true });
    }
  }

  close(): void {
    this.flush();
    if (this.fd !== null) {
      closeSync(this.fd);
      this.fd = null;
    }
  }
}
