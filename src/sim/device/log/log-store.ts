/**
 * A device's log buffers (main, system, crash, events, radio), each bounded in bytes as logd's are.
 * Entries are kept column-wise in typed arrays so that 64 devices with full buffers stay small;
 * tags and messages are usually shared template strings.
 */
import { deflateRawSync } from 'node:zlib';

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

/**
 * logd's ring sizes, modelled on AOSP `system/core/logd` (SerializedLogBuffer, Android 12+):
 * each buffer's size is set in bytes (`LOG_BUFFER_SIZE`, 256 KiB unless `ro.logd.size` /
 * `logcat -G` say otherwise; `LOG_BUFFER_MIN_SIZE` 64 KiB … `LOG_BUFFER_MAX_SIZE` 256 MiB), held
 * internally as size + size / 2 (SerializedLogBuffer::SetSize), in chunks of a quarter of that.
 * An entry takes `sizeof(SerializedLogEntry)` = 30 bytes (packed uid, pid, tid, sequence,
 * realtime, msg_len) plus its payload: priority byte, tag, NUL, message, NUL (liblog's
 * README.protocol.md). A full chunk is compressed (zstd level 1 in CompressionEngine.cpp) and then
 * counts only its compressed size; when the chunks' sizes pass the maximum, whole oldest chunks
 * are dropped (MaybePrune / Prune). Node 20 has no zstd, so deflate at level 1 stands in for it:
 * both are fast LZ77 coders, and what matters here is that a full chunk costs far less than its
 * text, so a "256 KiB" buffer holds more than 256 KiB of log.
 */
export const DEFAULT_BUFFER_SIZE = 256 * 1024;
export const MIN_BUFFER_SIZE = 64 * 1024;
export const MAX_BUFFER_SIZE = 256 * 1024 * 1024;
/** `sizeof(SerializedLogEntry)`. */
export const ENTRY_HEADER_BYTES = 30;
/** About `sizeof(SerializedLogChunk)` on a 64-bit build, added to each chunk's prune size. */
const CHUNK_OVERHEAD_BYTES = 64;

const encoder = new TextEncoder();

/** The bytes logd stores for one entry of a text buffer. */
export function entryBytes(tag: string, message: string): number {
  return ENTRY_HEADER_BYTES + 3 + utf8Length(tag) + utf8Length(message);
}

function utf8Length(s: string): number {
  // ASCII fast path: most log text is ASCII, and TextEncoder allocates.
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0x7f) {
      return encoder.encode(s).length;
    }
  }
  return s.length;
}

interface Chunk {
  entries: number;
  /** Uncompressed bytes written (SerializedLogChunk::write_offset_). */
  written: number;
  /** What the chunk counts toward the buffer's size (SerializedLogChunk::PruneSize). */
  pruneSize: number;
  open: boolean;
}

class Ring {
  seq = new Float64Array(64);
  time = new Float64Array(64);
  pid = new Int32Array(64);
  tid = new Int32Array(64);
  uid = new Int32Array(64);
  priority = new Uint8Array(64);
  tag: string[] = new Array<string>(64).fill('');
  message: string[] = new Array<string>(64).fill('');
  head = 0; // index of the oldest entry
  size = 0;
  /** Uncompressed bytes of the entries held (what `logcat -g` calls consumed). */
  bytes = 0;
  private chunks: Chunk[] = [];
  private maxSize = 0;

  constructor(public setSize: number) {
    this.resize(setSize);
  }

  get capacity(): number {
    return this.seq.length;
  }

  /** `logcat -G`: new chunks take the new size; the buffer is pruned down to it at once. */
  resize(size: number): void {
    this.setSize = size;
    this.maxSize = size + Math.floor(size / 2);
    this.prune();
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
    const len = entryBytes(tag, message);
    let chunk = this.chunks[this.chunks.length - 1];
    const chunkCapacity = Math.floor(this.maxSize / 4);
    if (chunk === undefined || !chunk.open || chunk.written + len > chunkCapacity) {
      if (chunk !== undefined && chunk.open) {
        this.finish(chunk);
      }
      chunk = { entries: 0, written: 0, pruneSize: CHUNK_OVERHEAD_BYTES + chunkCapacity, open: true };
      this.chunks.push(chunk);
    }
    if (this.size === this.capacity) {
      this.grow();
    }
    const idx = (this.head + this.size) % this.capacity;
    this.size++;
    this.seq[idx] = seq;
    this.time[idx] = time;
    this.pid[idx] = pid;
    this.tid[idx] = tid;
    this.uid[idx] = uid;
    this.priority[idx] = priority;
    this.tag[idx] = tag;
    this.message[idx] = message;
    this.bytes += len;
    chunk.entries++;
    chunk.written += len;
    this.prune();
  }

  /** A full chunk is compressed; from then on it counts its compressed size. */
  private finish(chunk: Chunk): void {
    chunk.open = false;
    const first = this.size - chunk.entries;
    const raw = Buffer.allocUnsafe(chunk.written);
    let at = 0;
    for (let pos = first; pos < this.size; pos++) {
      const i = (this.head + pos) % this.capacity;
      raw.writeUInt32LE(this.uid[i] as number, at);
      raw.writeUInt32LE(this.pid[i] as number, at + 4);
      raw.writeUInt32LE(this.tid[i] as number, at + 8);
      const seq = this.seq[i] as number;
      raw.writeUInt32LE(seq >>> 0, at + 12);
      raw.writeUInt32LE(Math.floor(seq / 2 ** 32), at + 16);
      const time = this.time[i] as number;
      raw.writeUInt32LE(Math.floor(time / 1000), at + 20);
      raw.writeUInt32LE(Math.floor((time % 1000) * 1e6), at + 24);
      const payload = entryBytes(this.tag[i] as string, this.message[i] as string) - ENTRY_HEADER_BYTES;
      raw.writeUInt16LE(payload, at + 28);
      raw[at + 30] = this.priority[i] as number;
      let p = at + 31;
      p += raw.write(this.tag[i] as string, p, 'utf8');
      raw[p++] = 0;
      p += raw.write(this.message[i] as string, p, 'utf8');
      raw[p++] = 0;
      at = p;
    }
    chunk.pruneSize = CHUNK_OVERHEAD_BYTES + deflateRawSync(raw.subarray(0, at), { level: 1 }).length;
  }

  /** The bytes the chunks count against the buffer's size (compressed where finished). */
  consumed(): number {
    return this.size === 0 ? 0 : this.chunks.reduce((n, c) => n + c.pruneSize, 0);
  }

  /** Drops whole oldest chunks while the buffer is over its size; the chunk being written stays. */
  private prune(): void {
    let total = 0;
    for (const c of this.chunks) {
      total += c.pruneSize;
    }
    while (total > this.maxSize && this.chunks.length > 1) {
      const oldest = this.chunks.shift() as Chunk;
      total -= oldest.pruneSize;
      this.dropOldest(oldest.entries);
    }
  }

  private dropOldest(n: number): void {
    for (let k = 0; k < n; k++) {
      const i = this.head;
      this.bytes -= entryBytes(this.tag[i] as string, this.message[i] as string);
      this.tag[i] = '';
      this.message[i] = '';
      this.head = (this.head + 1) % this.capacity;
      this.size--;
    }
    if (this.size === 0) {
      this.head = 0;
    }
  }

  private grow(): void {
    const cap = this.capacity * 2;
    const order = (src: ArrayLike<number>, dst: { [i: number]: number }): void => {
      for (let k = 0; k < this.size; k++) {
        dst[k] = src[(this.head + k) % this.capacity] as number;
      }
    };
    const seq = new Float64Array(cap);
    const time = new Float64Array(cap);
    const pid = new Int32Array(cap);
    const tid = new Int32Array(cap);
    const uid = new Int32Array(cap);
    const priority = new Uint8Array(cap);
    const tag = new Array<string>(cap).fill('');
    const message = new Array<string>(cap).fill('');
    order(this.seq, seq);
    order(this.time, time);
    order(this.pid, pid);
    order(this.tid, tid);
    order(this.uid, uid);
    order(this.priority, priority);
    for (let k = 0; k < this.size; k++) {
      const i = (this.head + k) % this.capacity;
      tag[k] = this.tag[i] as string;
      message[k] = this.message[i] as string;
    }
    Object.assign(this, { seq, time, pid, tid, uid, priority, tag, message, head: 0 });
  }

  clear(): void {
    this.head = 0;
    this.size = 0;
    this.bytes = 0;
    this.chunks = [];
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

  /** `sizes`: each buffer's size in bytes (logd's default, 256 KiB, for the others). */
  constructor(sizes: Partial<Record<LogBufferName, number>> = {}) {
    this.rings = LOG_BUFFERS.map((b) => new Ring(sizes[b] ?? DEFAULT_BUFFER_SIZE));
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

  /** A buffer's set size and the bytes its entries take, for `logcat -g`. */
  usage(buffer: number): { size: number; consumed: number; bytes: number; entries: number } {
    const ring = this.rings[buffer] as Ring;
    return { size: ring.setSize, consumed: ring.consumed(), bytes: ring.bytes, entries: ring.size };
  }

  /** Sets a buffer's size in bytes (`logcat -G`); false when logd would refuse it. */
  setSize(buffer: number, size: number): boolean {
    if (!Number.isInteger(size) || size < MIN_BUFFER_SIZE || size > MAX_BUFFER_SIZE) {
      return false;
    }
    (this.rings[buffer] as Ring).resize(size);
    return true;
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
