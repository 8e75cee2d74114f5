/**
 * The logcat store's journal: what the store took in (entries with their seqs, finished crashes),
 * appended to segment files in the data folder, so a logcat worker that is replaced (a crash, the
 * watchdog, a fault drill) — or a whole process killed (`kill -9` of the host) — gives the next one
 * the store it had, and a client's seqs still mean the same lines. Records queued during a task are
 * written at its end (a microtask), before any other request is handled, so nothing a client could
 * read is missing.
 *
 * One folder per process run (`<data dir>/logcat-journal/<role>-<pid>-<run id>`): the run id is set
 * once on the main thread (`DROIDBUS_RUN_ID`) and inherited by every worker it starts, so a new
 * worker of the same run finds its predecessor's journal. A new run adopts the newest journal a dead
 * process of its role left (renamed to its own: two starting at once cannot both take it) and removes
 * the others of its role. The journal keeps only what the store holds: `clear_logcat` restarts it
 * with what is left (a `r` record, then the kept lines; older segments deleted), a clean shutdown
 * removes it, and segments past JOURNAL_CAP_BYTES go oldest first.
 *
 * It is private: folders 0700, segments 0600 created exclusively without following links, and a
 * replay reads only regular files of this user with one link (readRegularFile), refusing anything
 * else by name.
 */
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { runId, runRole } from '../../util/run-id.js';
import { isProcessAlive } from '../../util/process-info.js';
import { readRegularFile, RegularFileError } from '../../util/regular-file.js';
import type { Crash, LogEntry } from './logcat-types.js';

/** A segment's size before the journal starts the next. */
export const SEGMENT_BYTES = 8 * 1024 * 1024;
/**
 * What the segments may hold in all: a record's JSON is about twice the store's estimate of the
 * entry (field names, nulls), so three times the store's 64 MiB keeps every line it holds.
 */
export const JOURNAL_CAP_BYTES = 3 * 64 * 1024 * 1024;

/**
 * An entry, a finished crash, or a restart: everything before it is gone (a clear), and seqs go on
 * after `seq`.
 */
export type JournalRecord = { t: 'e'; e: LogEntry } | { t: 'c'; c: Crash } | { t: 'r'; seq: number };

/** What a replay read, and the files it would not read (each with why). */
export interface JournalLoad {
  records: JournalRecord[];
  refused: string[];
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const SEGMENT = /^(\d{6})\.jsonl$/;

/** A folder this user owns that is not a link, made 0700 when missing; throws saying what it is instead. */
function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory()) {
    throw new Error(`${dir} is not a folder (a link or a file): the logcat journal will not use it`);
  }
  if (uid !== undefined && st.uid !== uid) {
    throw new Error(`${dir} belongs to user ${st.uid}, not to this user: the logcat journal will not use it`);
  }
}

export class LogJournal {
  private pending: JournalRecord[] = [];
  private fd: number | null = null;
  private segment = 0;
  private written = 0;
  private flushQueued = false;
  private closed = false;

  /** `capBytes`: what the segments may hold in all. */
  constructor(
    readonly dir: string,
    private readonly capBytes: number,
  ) {
    privateDir(dir);
    const segments = this.segments();
    this.segment = segments.length > 0 ? segments[segments.length - 1]! + 1 : 0;
  }

  /**
   * Opens this run's journal under `root`: its own folder when a worker of this run made one, else
   * the newest journal a dead process of the same role left, adopted; other dead ones of the role go.
   */
  static open(root: string, capBytes: number): LogJournal {
    privateDir(root);
    const role = runRole();
    const mine = `${role}-${process.pid}-${runId()}`;
    const own = path.join(root, mine);
    let adopted: string | null = null;
    if (!existsDir(own)) {
      const dead: { name: string; mtime: number }[] = [];
      for (const name of readdirSync(root)) {
        const m = /^([a-z]+)-(\d+)-[\w-]+$/.exec(name) ?? /^()(\d+)-[\w-]+$/.exec(name);
        const pid = Number(m?.[2]);
        if (m === null || (m[1] !== '' && m[1] !== role) || pid === process.pid || isProcessAlive(pid)) {
          continue;
        }
        const full = path.join(root, name);
        const st = lstatSync(full, { throwIfNoEntry: false });
        if (st === undefined) {
          continue;
        }
        if (!st.isDirectory() || m[1] === '') {
          rmSync(full, { recursive: true, force: true }); // a planted link or file, or an old layout's
          continue;
        }
        dead.push({ name, mtime: newestMtime(full) });
      }
      dead.sort((a, b) => b.mtime - a.mtime);
      for (const [i, { name }] of dead.entries()) {
        const full = path.join(root, name);
        if (i === 0) {
          try {
            renameSync(full, own);
            adopted = name;
            continue;
          } catch {
            // Another process of this role took it first.
          }
        }
        rmSync(full, { recursive: true, force: true });
      }
    }
    const journal = new LogJournal(own, capBytes);
    journal.adoptedFrom = adopted;
    return journal;
  }

  /** The folder of the dead run whose journal this one carries on, if it adopted one. */
  adoptedFrom: string | null = null;

  private segments(): number[] {
    return readdirSync(this.dir)
      .map((n) => SEGMENT.exec(n)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }

  private file(n: number): string {
    return path.join(this.dir, `${String(n).padStart(6, '0')}.jsonl`);
  }

  /** Bytes the segments hold on disk now. */
  bytes(): number {
    let total = 0;
    for (const s of this.segments()) {
      total += lstatSync(this.file(s), { throwIfNoEntry: false })?.size ?? 0;
    }
    return total;
  }

  get cap(): number {
    return this.capBytes;
  }

  /**
   * Every record the journal holds, oldest first, from the last restart on (a torn last line is
   * skipped); a segment that is not a regular file of this user with one link is not read, and is
   * named in `refused` with why.
   */
  load(): JournalLoad {
    const out: JournalRecord[] = [];
    const refused: string[] = [];
    for (const n of this.segments()) {
      let text: string;
      try {
        text = readRegularFile(this.file(n), this.capBytes, { ownedByMe: true }).toString('utf8');
      } catch (err) {
        if (!(err instanceof RegularFileError)) {
          throw err;
        }
        refused.push(err.message);
        continue;
      }
      for (const line of text.split('\n')) {
        if (line === '') {
          continue;
        }
        let r: JournalRecord;
        try {
          r = JSON.parse(line) as JournalRecord;
        } catch {
          continue; // A line cut by the kill that ended the last writer.
        }
        if (r.t === 'r') {
          out.length = 0;
        }
        out.push(r);
      }
    }
    return { records: out, refused };
  }

  append(record: JournalRecord): void {
    if (this.closed) {
      return;
    }
    this.pending.push(record);
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** Writes what is queued (serialised now: a crash's group is set on its lines in the same task). */
  flush(): void {
    this.flushQueued = false;
    if (this.pending.length === 0 || this.closed) {
      return;
    }
    const text = this.pending.map((r) => JSON.stringify(r)).join('\n') + '\n';
    this.pending = [];
    if (this.fd === null || this.written >= SEGMENT_BYTES) {
      this.rotate();
    }
    this.written += writeSync(this.fd!, text);
  }

  /**
   * Starts the journal again with `records` (what the store still holds after a clear), seqs going on
   * after `seq`: written to a new segment that begins with a restart record, then every older
   * segment is deleted — a kill in between replays only from the restart.
   */
  restart(seq: number, records: Iterable<JournalRecord>): void {
    if (this.closed) {
      return;
    }
    this.pending = [];
    const older = this.segments();
    this.rotate(false);
    this.written += writeSync(this.fd!, JSON.stringify({ t: 'r', seq } satisfies JournalRecord) + '\n');
    let batch: string[] = [];
    for (const r of records) {
      batch.push(JSON.stringify(r));
      if (batch.length >= 1_000) {
        this.written += writeSync(this.fd!, batch.join('\n') + '\n');
        batch = [];
      }
    }
    if (batch.length > 0) {
      this.written += writeSync(this.fd!, batch.join('\n') + '\n');
    }
    for (const s of older) {
      rmSync(this.file(s), { force: true });
    }
  }

  private rotate(trim = true): void {
    if (this.fd !== null) {
      closeSync(this.fd);
      this.fd = null;
    }
    // Exclusive and not through a link: a file planted under the next name is skipped, not written into.
    for (;;) {
      try {
        this.fd = openSync(
          this.file(this.segment++),
          constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL | NOFOLLOW,
          0o600,
        );
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw err;
        }
      }
    }
    this.written = 0;
    if (!trim) {
      return;
    }
    // The oldest segments go while the others hold more than the cap.
    const segments = this.segments();
    const size = (s: number): number => lstatSync(this.file(s), { throwIfNoEntry: false })?.size ?? 0;
    let total = segments.reduce((n, s) => n + size(s), 0);
    for (const s of segments.slice(0, -1)) {
      if (total <= this.capBytes) {
        break;
      }
      total -= size(s);
      rmSync(this.file(s), { force: true });
    }
  }

  /** Writes what is queued and closes the segment (a worker replaced keeps the files). */
  close(): void {
    this.flush();
    if (this.fd !== null) {
      closeSync(this.fd);
      this.fd = null;
    }
  }

  /** A clean shutdown: the store goes with the process, and so does its journal. */
  remove(): void {
    this.pending = [];
    this.close();
    this.closed = true;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function existsDir(dir: string): boolean {
  return lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** The newest modification time of a journal folder's segments (the folder's own when it has none). */
function newestMtime(dir: string): number {
  let newest = statSync(dir).mtimeMs;
  for (const name of readdirSync(dir)) {
    const st = lstatSync(path.join(dir, name), { throwIfNoEntry: false });
    if (st !== undefined && st.mtimeMs > newest) {
      newest = st.mtimeMs;
    }
  }
  return newest;
}
