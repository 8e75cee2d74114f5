/**
 * A device's log buffers (main, system, crash, events, radio), each a bounded ring like logd's.
 * Entries are kept column-wise in typed arrays so that 64 devices with full buffers stay small;
 * tags and messages are usually shared template strings.
 */

export const LOG_BUFFERS = ['main', 'radio', 'events', 'system', 'crash'] as const;
export type LogBufferName = (typeof LOG_BUFFERS)[number];

/** logd's ids: the order `-b all` prints dividers in. */
export const BUFFER_ID: Readonly<Record<LogBufferName, number>> = {
  main: 0,
  radio: 1,
  events: 2,
  system: 3,
  crash: 4,
};

/** Android priorities: V=2 … F=7. */
export const PRIORITY_CHARS = ' ?VDIWEF';
export type Priority = 'V' | 'D' | 'I' | 'W' | 'E' | 'F';

/** The numeric priority of a letter (V=2 … F=7, S=8 for silent). */
export function priorityValue(c: string): number {
  const idx = PRIORITY_CHARS.indexOf(c.toUpperCase());
  if (idx >= 2) {
    return idx;
  }
  return c.toUpperCase() === 'S' ? 8 : -1;
}

/** One log entry as readers see it. */
export interface LogEntry {
  seq: number;
  buffer: number;
  /** Milliseconds since the epoch (fractions allowed). */
  time: number;
  pid: number;
  tid: number;
  uid: number;
  priority: number;
  tag: string;
  message: string;
}

/** An entry to append; time defaults to now. */
export interface NewLogEntry {
  buffer?: LogBufferName;
  time?: number;
  pid: number;
  tid?: number;
  uid?: number;
  priority: Priority | number;
  tag: string;
  message: string;
}

const DEFAULT_CAPACITY: Readonly<Record<LogBufferName, number>> = {
  main: 4096,
  radio: 256,
  events: 512,
  system: 2048,
  crash: 512,
};

/** Capacity in bytes logcat -g reports per buffer (logd's default ring size). */
export const REPORTED_SIZE_KIB = 256;

class Ring {
  readonly seq: Float64Array;
  readonly time: Float64Array;
  readonly pid: Int32Array;
  readonly tid: Int32Array;
  readonly uid: Int32Array;
  readonly priority: Uint8Array;
  readonly tag: string[];
  readonly message: string[];
  head = 0; // index of the oldest entry
  size = 0;
  bytes = 0;

  constructor(readonly capacity: number) {
    this.seq = new Float64Array(capacity);
    this.time = new Float64Array(capacity);
    this.pid = new Int32Array(capacity);
    this.tid = new Int32Array(capacity);
    this.uid = new Int32Array(capacity);
    this.priority = new Uint8Array(capacity);
    this.tag = new Array<string>(capacity).fill('');
    this.message = new Array<string>(capacity).fill('');
  }

  push(
    seq: number,
    time: number,
    pid: number,
    tid: number,
    uid: number,
    priority: number,
    tag: string,
    message: string,
  ): void {
    let idx: number;
    if (this.size < this.capacity) {
      idx = (this.head + this.size) % this.capacity;
      this.size++;
    } else {
      idx = this.head;
      this.bytes -= (this.tag[idx] as string).length + (this.message[idx] as string).length + 28;
      this.head = (this.head + 1) % this.capacity;
    }
    this.seq[idx] = seq;
    this.time[idx] = time;
    this.pid[idx] = pid;
    this.tid[idx] = tid;
    this.uid[idx] = uid;
    this.priority[idx] = priority;
    this.tag[idx] = tag;
    this.message[idx] = message;
    this.bytes += tag.length + message.length + 28;
  }

  clear(): void {
    this.head = 0;
    this.size = 0;
    this.bytes = 0;
    this.tag.fill('');
    this.message.fill('');
  }

  /** Logical position of the first entry with seq > after (binary search; seqs increase). */
  firstAfter(after: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.seq[(this.head + mid) % this.capacity] as number) <= after) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  entry(pos: number, buffer: number): LogEntry {
    const i = (this.head + pos) % this.capacity;
    return {
      seq: this.seq[i] as number,
      buffer,
      time: this.time[i] as number,
      pid: this.pid[i] as number,
      tid: this.tid[i] as number,
      uid: this.uid[i] as number,
      priority: this.priority[i] as number,
      tag: this.tag[i] as string,
      message: this.message[i] as string,
    };
  }

  seqAt(pos: number): number {
    return this.seq[(this.head + pos) % this.capacity] as number;
  }
}

/** The log of one device: rings per buffer, a global sequence, and wake-ups for streaming readers. */
export class LogStore {
  private readonly rings: Ring[];
  private seq = 0;
  private lastTime = 0;
  private waiters: (() => void)[] = [];

  constructor(capacity: Partial<Record<LogBufferName, number>> = {}) {
    this.rings = LOG_BUFFERS.map((b) => new Ring(capacity[b] ?? DEFAULT_CAPACITY[b]));
  }

  /** The sequence number of the newest entry (0 when empty). */
  get lastSeq(): number {
    return this.seq;
  }

  /** Appends entries; streaming readers wake once per call. */
  append(entries: readonly NewLogEntry[]): void {
    for (const e of entries) {
      this.appendOne(e);
    }
    this.wake();
  }

  /** Appends one entry and wakes readers. */
  log(entry: NewLogEntry): void {
    this.appendOne(entry);
    this.wake();
  }

  private appendOne(e: NewLogEntry): void {
    const ring = this.rings[BUFFER_ID[e.buffer ?? 'main']] as Ring;
    // Keep time monotonic per device so that merged output never goes back in time.
    let time = e.time ?? Date.now();
    if (time < this.lastTime) {
      time = this.lastTime;
    }
    this.lastTime = time;
    const priority = typeof e.priority === 'number' ? e.priority : priorityValue(e.priority);
    ring.push(++this.seq, time, e.pid, e.tid ?? e.pid, e.uid ?? 0, priority, e.tag, e.message);
  }

  /** Empties the given buffers (`logcat -c`). */
  clear(buffers: readonly number[]): void {
    for (const b of buffers) {
      this.rings[b]?.clear();
    }
  }

  /** Entries with seq > after from the given buffers, merged in order, at most `limit` (the newest ones). */
  read(buffers: readonly number[], after: number, limit = Infinity): LogEntry[] {
    const cursors = buffers.map((b) => {
      const ring = this.rings[b] as Ring;
      return { b, ring, pos: ring.firstAfter(after) };
    });
    let total = 0;
    for (const c of cursors) {
      total += c.ring.size - c.pos;
    }
    // Skip the oldest entries beyond the limit by advancing the cursor whose head is oldest.
    let skip = Math.max(0, total - limit);
    const out: LogEntry[] = [];
    for (;;) {
      let best: (typeof cursors)[number] | null = null;
      let bestSeq = Infinity;
      for (const c of cursors) {
        if (c.pos < c.ring.size) {
          const s = c.ring.seqAt(c.pos);
          if (s < bestSeq) {
            bestSeq = s;
            best = c;
          }
        }
      }
      if (best === null) {
        return out;
      }
      if (skip > 0) {
        skip--;
      } else {
        out.push(best.ring.entry(best.pos, best.b));
      }
      best.pos++;
    }
  }

  /** Used and total sizes of a buffer, for `logcat -g`. */
  usage(buffer: number): { bytes: number; entries: number } {
    const ring = this.rings[buffer] as Ring;
    return { bytes: ring.bytes, entries: ring.size };
  }

  /** Resolves at the next append or when the signal aborts. */
  waitForNew(signal: AbortSignal): Promise<void> {
    if (signal.aborted) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const woken = (): void => {
        signal.removeEventListener('abort', aborted);
        resolve();
      };
      const aborted = (): void => {
        this.waiters = this.waiters.filter((w) => w !== woken);
        resolve();
      };
      this.waiters.push(woken);
      signal.addEventListener('abort', aborted, { once: true });
    });
  }

  private wake(): void {
    if (this.waiters.length === 0) {
      return;
    }
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) {
      w();
    }
  }
}
