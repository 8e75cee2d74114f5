/**
 * The bounded log store: a ring buffer capped by entry count and by an estimate of the bytes the
 * entries hold (oldest out first, counted in `dropped`), with counters kept incrementally so stats
 * cost nothing to read, and the crashes read from the log (bounded too).
 */
import type { Crash, LogEntry, LogLevel } from './logcat-types.js';
import type { JournalRecord } from './log-journal.js';

/** Where the store writes what it takes in (a LogJournal). */
export interface JournalSink {
  append(r: JournalRecord): void;
  /** Starts again with `records`, seqs going on after `seq` (after a clear). */
  restart(seq: number, records: Iterable<JournalRecord>): void;
}
import { LEVEL_RANK, LEVELS } from './logcat-types.js';

/** Bounds of a store. */
export interface LogStoreOptions {
  /** Most entries kept (default 200,000). */
  maxEntries?: number;
  /** Most estimated bytes kept (default 64 MiB). */
  maxBytes?: number;
  /** Most crashes kept (default 1,000). */
  maxCrashes?: number;
}

/** A name with its count. */
export interface Counted {
  name: string;
  count: number;
}

/** What `get_logcat_stats` reports. */
export interface LogStats {
  entries: number;
  bytes: number;
  max_entries: number;
  max_bytes: number;
  /** Entries evicted to stay within the bounds. */
  dropped: number;
  /** Entries ever stored (including dropped and cleared ones). */
  received: number;
  by_level: Record<LogLevel, number>;
  by_package: Counted[];
  by_tag: Counted[];
  by_device: Counted[];
  crashes: { total: number; java: number; native: number; anr: number; js: number };
  /** Entries stored per second over the last ten seconds (host clock). */
  lines_per_second: number;
  oldest_ts: number;
  newest_ts: number;
  oldest_seq: number;
  newest_seq: number;
}

/** Rough retained size of an entry: its strings as UTF-16 plus the object and its slots. */
export function entryBytes(e: LogEntry): number {
  return 2 * (e.message.length + e.tag.length) + (e.json !== null ? 2 * e.message.length : 0) + 160;
}

const RATE_SLOTS = 16;
const RATE_WINDOW_S = 10;

function bump(map: Map<string, number>, key: string, by: number): void {
  const v = (map.get(key) ?? 0) + by;
  if (v <= 0) {
    map.delete(key);
  } else {
    map.set(key, v);
  }
}

function top(map: Map<string, number>, n: number): Counted[] {
  const all: Counted[] = [];
  for (const [name, count] of map) {
    all.push({ name, count });
  }
  all.sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1));
  return all.slice(0, n);
}

/** The ring buffer of entries and the crash list, for all devices of one actor. */
export class LogStore {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly maxCrashes: number;
  private buf: (LogEntry | undefined)[];
  private head = 0;
  private len = 0;
  private bytesHeld = 0;
  private nextSeq = 1;
  private droppedCount = 0;
  private receivedCount = 0;
  private readonly levelCounts = new Float64Array(8);
  private readonly tags = new Map<string, number>();
  private readonly packages = new Map<string, number>();
  private readonly devices = new Map<string, number>();
  private readonly rateCount = new Float64Array(RATE_SLOTS);
  private readonly rateSecond = new Float64Array(RATE_SLOTS);
  private crashList: Crash[] = [];
  /** Where what the store takes in is also written, to outlive the worker (log-journal.ts). */
  private journal: JournalSink | null = null;

  constructor(options: LogStoreOptions = {}) {
    this.maxEntries = Math.max(1, options.maxEntries ?? 200_000);
    this.maxBytes = Math.max(1024, options.maxBytes ?? 64 * 1024 * 1024);
    this.maxCrashes = Math.max(1, options.maxCrashes ?? 1000);
    this.buf = new Array<LogEntry | undefined>(this.maxEntries);
  }

  /** Entries held. */
  get size(): number {
    return this.len;
  }

  get bytes(): number {
    return this.bytesHeld;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  /** The entry at `i`, 0 being the oldest held. */
  at(i: number): LogEntry | undefined {
    if (i < 0 || i >= this.len) {
      return undefined;
    }
    let k = this.head + i;
    if (k >= this.maxEntries) {
      k -= this.maxEntries;
    }
    return this.buf[k];
  }

  /**
   * Writes what the store takes in to `journal` from now on, after replaying what it holds: the
   * entries keep their seqs (a client's since_seq and before_seq still mean the same lines).
   */
  attachJournal(journal: JournalSink, records: readonly JournalRecord[]): void {
    let restartedAfter = 0;
    for (const r of records) {
      if (r.t === 'e') {
        this.nextSeq = Math.max(this.nextSeq, r.e.seq);
        this.push(r.e, r.e.ts > 0 ? r.e.ts : Date.now());
      } else if (r.t === 'c') {
        this.addCrash(r.c);
      } else {
        // A clear: the lines kept follow with their own seqs, new ones go on after `seq`.
        this.empty();
        restartedAfter = r.seq;
      }
    }
    this.nextSeq = Math.max(this.nextSeq, restartedAfter + 1);
    this.journal = journal;
  }

  /** What the store holds as journal records: its entries oldest first, then its crashes. */
  private *records(): Generator<JournalRecord> {
    for (let i = 0; i < this.len; i++) {
      const e = this.at(i);
      if (e !== undefined) {
        yield { t: 'e', e };
      }
    }
    for (const c of this.crashList) {
      yield { t: 'c', c };
    }
  }

  /** Stores an entry (assigning its seq), evicting the oldest as needed. */
  push(e: LogEntry, now: number = Date.now()): void {
    this.journal?.append({ t: 'e', e });
    const size = entryBytes(e);
    while (this.len > 0 && (this.len >= this.maxEntries || this.bytesHeld + size > this.maxBytes)) {
      this.evictOldest();
      this.droppedCount++;
    }
    e.seq = this.nextSeq++;
    let k = this.head + this.len;
    if (k >= this.maxEntries) {
      k -= this.maxEntries;
    }
    this.buf[k] = e;
    this.len++;
    this.bytesHeld += size;
    this.receivedCount++;
    this.count(e, 1);
    const sec = Math.floor(now / 1000);
    const slot = sec % RATE_SLOTS;
    if (this.rateSecond[slot] !== sec) {
      this.rateSecond[slot] = sec;
      this.rateCount[slot] = 0;
    }
    this.rateCount[slot] = (this.rateCount[slot] ?? 0) + 1;
  }

  private count(e: LogEntry, by: number): void {
    const r = LEVEL_RANK[e.level];
    this.levelCounts[r] = (this.levelCounts[r] ?? 0) + by;
    bump(this.tags, e.tag, by);
    if (e.package !== null) {
      bump(this.packages, e.package, by);
    }
    if (e.device !== null) {
      bump(this.devices, e.device, by);
    }
  }

  private evictOldest(): void {
    const e = this.buf[this.head];
    this.buf[this.head] = undefined;
    this.head++;
    if (this.head >= this.maxEntries) {
      this.head = 0;
    }
    this.len--;
    if (e !== undefined) {
      this.bytesHeld -= entryBytes(e);
      this.count(e, -1);
    }
  }

  /** Records a finished crash (newest last), dropping the oldest past the bound. */
  addCrash(crash: Crash): void {
    this.journal?.append({ t: 'c', c: crash });
    this.crashList.push(crash);
    if (this.crashList.length > this.maxCrashes * 2) {
      this.crashList = this.crashList.slice(-this.maxCrashes);
    }
  }

  /** Crashes, newest first, filtered. */
  crashes(filter: { package?: string; device?: string; group_id?: string; count?: number } = {}): Crash[] {
    const out: Crash[] = [];
    const limit = Math.min(filter.count ?? this.maxCrashes, this.maxCrashes);
    const floor = Math.max(0, this.crashList.length - this.maxCrashes);
    for (let i = this.crashList.length - 1; i >= floor && out.length < limit; i--) {
      const c = this.crashList[i];
      if (c === undefined) {
        continue;
      }
      if (filter.package !== undefined && c.package !== filter.package) {
        continue;
      }
      if (filter.device !== undefined && c.device !== filter.device) {
        continue;
      }
      if (filter.group_id !== undefined && c.group_id !== filter.group_id) {
        continue;
      }
      out.push(c);
    }
    return out;
  }

  /**
   * Empties the store (all devices, or one device's entries and crashes). Seqs keep increasing. The
   * journal starts again with what is left: what was cleared is gone from the disk too.
   */
  clear(device?: string): void {
    this.empty(device);
    this.journal?.restart(this.nextSeq - 1, this.records());
  }

  private empty(device?: string): void {
    if (device === undefined) {
      this.buf = new Array<LogEntry | undefined>(this.maxEntries);
      this.head = 0;
      this.len = 0;
      this.bytesHeld = 0;
      this.levelCounts.fill(0);
      this.tags.clear();
      this.packages.clear();
      this.devices.clear();
      this.crashList = [];
      return;
    }
    const keptCrashes = this.crashList.filter((c) => c.device !== device);
    const kept: LogEntry[] = [];
    for (let i = 0; i < this.len; i++) {
      const e = this.at(i);
      if (e !== undefined && e.device !== device) {
        kept.push(e);
      }
    }
    this.empty();
    for (const e of kept) {
      let k = this.head + this.len;
      if (k >= this.maxEntries) {
        k -= this.maxEntries;
      }
      this.buf[k] = e;
      this.len++;
      this.bytesHeld += entryBytes(e);
      this.count(e, 1);
    }
    this.crashList = keptCrashes;
  }

  /** Counters for `get_logcat_stats`; `topN` bounds the per-tag/package/device lists. */
  stats(now: number = Date.now(), topN = 10): LogStats {
    const byLevel = {} as Record<LogLevel, number>;
    for (const l of LEVELS) {
      byLevel[l] = this.levelCounts[LEVEL_RANK[l]] ?? 0;
    }
    const nowSec = Math.floor(now / 1000);
    let recent = 0;
    for (let s = 0; s < RATE_SLOTS; s++) {
      const sec = this.rateSecond[s] ?? -1;
      if (sec > nowSec - RATE_WINDOW_S && sec <= nowSec) {
        recent += this.rateCount[s] ?? 0;
      }
    }
    const crashes = { total: 0, java: 0, native: 0, anr: 0, js: 0 };
    const floor = Math.max(0, this.crashList.length - this.maxCrashes);
    for (let i = floor; i < this.crashList.length; i++) {
      const c = this.crashList[i];
      if (c !== undefined) {
        crashes.total++;
        crashes[c.kind]++;
      }
    }
    const oldest = this.at(0);
    const newest = this.at(this.len - 1);
    return {
      entries: this.len,
      bytes: this.bytesHeld,
      max_entries: this.maxEntries,
      max_bytes: this.maxBytes,
      dropped: this.droppedCount,
      received: this.receivedCount,
      by_level: byLevel,
      by_package: top(this.packages, topN),
      by_tag: top(this.tags, topN),
      by_device: top(this.devices, topN),
      crashes,
      lines_per_second: recent / RATE_WINDOW_S,
      oldest_ts: oldest?.ts ?? 0,
      newest_ts: newest?.ts ?? 0,
      oldest_seq: oldest?.seq ?? 0,
      newest_seq: newest?.seq ?? 0,
    };
  }
}
