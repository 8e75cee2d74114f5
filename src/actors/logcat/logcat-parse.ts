/**
 * Logcat text to entries, fast. One hand-written scanner reads every format people capture or paste:
 * `threadtime` (with `-v year`, `uid`, `epoch`, `monotonic`, `usec`, `zone`), `time`, `brief`, `tag`,
 * `long`, and Android Studio's copies (the old `pid-tid/pkg L/Tag:` form and the Logcat window's column
 * form). The format is detected per input from its lines; a locked format is tried first, so the
 * common path is one scan of the line and two slices.
 *
 * Streaming: `push` takes chunks (bytes or text) split anywhere, holds back a partial last line, and
 * appends complete entries to the caller's array. CRLF, a UTF-8 BOM, separators
 * (`--------- beginning of crash`), indented continuation lines of pasted multi-line messages,
 * truncated lines and binary garbage are all handled; garbage is skipped and counted.
 */
import type { LogEntry, LogLevel } from './logcat-types.js';
import { LogTimeClock } from './logcat-time.js';
import { packageOfProcess } from './pid-map.js';
import { TextDecoder } from 'node:util';

/** The line formats the parser recognises. */
export type LogFormat = 'threadtime' | 'time' | 'brief' | 'tag' | 'long' | 'studio' | 'studio-new';

/** Counters of what the parser saw. */
export interface ParserStats {
  /** Physical lines read (excluding the held-back partial line). */
  lines: number;
  entries: number;
  /** Entries made from continuation lines (indented pasted lines, `long` message lines). */
  continuations: number;
  /** Lines skipped as binary or otherwise non-text. */
  garbage: number;
  /** Text lines that were neither a header nor a continuation (banners before the first entry). */
  unparsed: number;
  /** Lines that started like a header but were cut short, and over-long lines that were cut. */
  truncated: number;
  /** `--------- beginning of …` / `switch to …` separators. */
  separators: number;
  bytes: number;
  /** The format of the most recent header line, null before the first. */
  format: LogFormat | null;
}

/** Options for a parser instance (one per input stream). */
export interface ParserOptions {
  /** Device serial stamped on each entry. */
  device?: string | null;
  /** Year for formats that print none (default: inferred from the host clock). */
  year?: number;
  /** Clock for the year inference. */
  now?: () => number;
  /** Longest line kept; longer ones are cut and counted as truncated (default 64 KiB). */
  maxLineLength?: number;
}

const C_TAB = 9;
const C_SPACE = 32;
const C_DASH = 45;
const C_DOT = 46;
const C_SLASH = 47;
const C_0 = 48;
const C_9 = 57;
const C_COLON = 58;
const C_LBRACKET = 91;
const C_RBRACKET = 93;
const C_RPAREN = 41;
const C_BOM = 0xfeff;

/** Level letter char codes → normalized level; anything else is not a level. */
function levelOf(c: number): LogLevel | null {
  switch (c) {
    case 86:
      return 'V';
    case 68:
      return 'D';
    case 73:
      return 'I';
    case 87:
      return 'W';
    case 69:
      return 'E';
    case 70:
    case 65:
      return 'F';
    default:
      return null;
  }
}

function isDigit(c: number): boolean {
  return c >= C_0 && c <= C_9;
}

function isSpace(c: number): boolean {
  return c === C_SPACE || c === C_TAB;
}

/** Builds an entry with every field present, in one order, so all entries share one hidden class. */
export function makeEntry(
  ts: number,
  pid: number,
  tid: number,
  level: LogLevel,
  tag: string,
  message: string,
  pkg: string | null,
  device: string | null,
  buffer: string | null,
  cont: boolean,
): LogEntry {
  return {
    seq: 0,
    ts,
    pid,
    tid,
    level,
    tag,
    message,
    package: pkg,
    category: null,
    crash: null,
    crash_group: null,
    json: null,
    launch: null,
    device,
    buffer,
    cont,
  };
}

/** Looks like a binary or mangled line: NUL, U+FFFD, or control characters other than tab/ESC. */
export function isGarbageLine(line: string): boolean {
  const n = line.length;
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const c = line.charCodeAt(i);
    if (c === 0 || c === 0xfffd || (c < 32 && c !== C_TAB && c !== 27) || c === 127) {
      bad++;
    }
  }
  return bad > 0;
}

/** Studio's package column: `?`, `pid-123`, `system_process` and daemons name no application. */
function studioPackage(raw: string): string | null {
  if (raw.length === 0 || raw === '?') {
    return null;
  }
  return packageOfProcess(raw);
}

const SEPARATOR_PREFIX = '--------- ';
const STUDIO_PROCESS = /^-{5,} (PROCESS (?:STARTED|ENDED) \((\d+)\) for package (\S+)) -{5,}$/;

/** Streaming logcat parser; one instance per input (device stream or pasted file). */
export class LogcatParser {
  readonly stats: ParserStats = {
    lines: 0,
    entries: 0,
    continuations: 0,
    garbage: 0,
    unparsed: 0,
    truncated: 0,
    separators: 0,
    bytes: 0,
    format: null,
  };

  private readonly device: string | null;
  private readonly clock: LogTimeClock;
  private readonly maxLine: number;
  private decoder: TextDecoder | null = null;
  private rest = '';
  private buffer: string | null = null;
  private prev: LogEntry | null = null;
  /** Indentation stripped from the current entry's continuation lines (set by its first one). */
  private contIndent = -1;
  /** `long` format: the header of the record whose message lines are being read. */
  private longHeader: LogEntry | null = null;
  private longFirst = false;

  // Scratch outputs of the scanners (avoids allocating result objects per line).
  private ts = 0;
  private pos = 0;
  /** One string per distinct tag: stored entries share it instead of each keeping a copy. */
  private readonly tagPool = new Map<string, string>();

  constructor(options: ParserOptions = {}) {
    this.device = options.device ?? null;
    const clockOptions: { year?: number; now?: () => number } = {};
    if (options.year !== undefined) {
      clockOptions.year = options.year;
    }
    if (options.now !== undefined) {
      clockOptions.now = options.now;
    }
    this.clock = new LogTimeClock(clockOptions);
    this.maxLine = options.maxLineLength ?? 65_536;
  }

  /** Parses a chunk; complete entries are appended to `out`. A partial last line is held back. */
  push(chunk: string | Uint8Array, out: LogEntry[]): void {
    let text: string;
    if (typeof chunk === 'string') {
      text = chunk;
      this.stats.bytes += chunk.length;
    } else {
      this.decoder ??= new TextDecoder('utf-8');
      text = this.decoder.decode(chunk, { stream: true });
      this.stats.bytes += chunk.byteLength;
    }
    if (this.rest.length > 0) {
      text = this.rest + text;
      this.rest = '';
    }
    let start = 0;
    const n = text.length;
    while (start < n) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) {
        break;
      }
      let end = nl;
      if (end > start && text.charCodeAt(end - 1) === 13) {
        end--;
      }
      this.line(end - start > this.maxLine ? this.cut(text, start) : text.slice(start, end), out);
      start = nl + 1;
    }
    if (start < n) {
      this.rest = start === 0 ? text : text.slice(start);
      if (this.rest.length > this.maxLine) {
        // A line that never ends: keep its head, drop the rest of it as it arrives.
        this.line(this.cut(this.rest, 0), out);
        this.rest = '';
      }
    }
  }

  /** Flushes the held-back partial line (end of input). */
  end(out: LogEntry[]): void {
    if (this.decoder !== null) {
      const tail = this.decoder.decode();
      if (tail.length > 0) {
        this.rest += tail;
      }
    }
    if (this.rest.length > 0) {
      let line = this.rest;
      this.rest = '';
      if (line.charCodeAt(line.length - 1) === 13) {
        line = line.slice(0, -1);
      }
      this.line(line, out);
    }
    this.longHeader = null;
  }

  private cut(text: string, start: number): string {
    this.stats.truncated++;
    return text.slice(start, start + this.maxLine);
  }

  /** Parses one physical line (no line terminator). */
  private line(raw: string, out: LogEntry[]): void {
    this.stats.lines++;
    let line = raw;
    if (line.length > 0 && line.charCodeAt(0) === C_BOM) {
      line = line.slice(1);
    }
    if (line.length === 0) {
      if (this.longHeader !== null) {
        // A blank line ends a `long` record's message, unless more message lines follow it.
        this.longFirst = false;
      }
      return;
    }
    const entry = this.header(line);
    if (entry !== null) {
      this.contIndent = -1;
      this.longHeader = null;
      this.emit(entry, out);
      return;
    }
    if (this.pos === -2) {
      return; // a `long` header: its message lines follow
    }
    if (line.charCodeAt(0) === C_DASH && line.startsWith('-----')) {
      if (this.separator(line, out)) {
        return;
      }
    }
    if (isGarbageLine(line)) {
      this.stats.garbage++;
      return;
    }
    if (this.longHeader !== null) {
      const h = this.longHeader;
      const e = makeEntry(
        h.ts,
        h.pid,
        h.tid,
        h.level,
        h.tag,
        line,
        null,
        this.device,
        this.buffer,
        !this.longFirst,
      );
      this.longFirst = false;
      if (e.cont) {
        this.stats.continuations++;
      }
      this.emit(e, out);
      return;
    }
    if (this.looksLikeTimestamp(line)) {
      this.stats.truncated++;
      return;
    }
    const prev = this.prev;
    const fmt = this.stats.format;
    if (prev !== null && (isSpace(line.charCodeAt(0)) || fmt === 'studio' || fmt === 'studio-new')) {
      this.stats.continuations++;
      this.emit(
        makeEntry(
          prev.ts,
          prev.pid,
          prev.tid,
          prev.level,
          prev.tag,
          this.unindent(line),
          prev.package,
          this.device,
          this.buffer,
          true,
        ),
        out,
      );
      return;
    }
    this.stats.unparsed++;
  }

  private emit(entry: LogEntry, out: LogEntry[]): void {
    this.stats.entries++;
    this.prev = entry;
    out.push(entry);
  }

  /** Strips the indentation the first continuation line of a pasted entry had, keeping the rest. */
  private unindent(line: string): string {
    let i = 0;
    const n = line.length;
    while (i < n && isSpace(line.charCodeAt(i))) {
      i++;
    }
    if (this.contIndent < 0) {
      this.contIndent = i;
    }
    return line.slice(Math.min(i, this.contIndent));
  }

  private separator(line: string, out: LogEntry[]): boolean {
    if (
      line.startsWith(SEPARATOR_PREFIX) &&
      (line.startsWith('beginning of ', 10) || line.startsWith('switch to ', 10))
    ) {
      this.stats.separators++;
      const name = line
        .slice(line.indexOf(' of ') >= 0 ? line.indexOf(' of ') + 4 : line.indexOf(' to ') + 4)
        .trim();
      this.buffer = name.startsWith('/dev/log/') ? name.slice(9) : name;
      this.longHeader = null;
      return true;
    }
    const m = STUDIO_PROCESS.exec(line);
    if (m !== null) {
      this.stats.separators++;
      const pid = Number(m[2]);
      this.emit(
        makeEntry(
          this.prev?.ts ?? 0,
          pid,
          pid,
          'I',
          '',
          m[1] ?? '',
          m[3] ?? null,
          this.device,
          this.buffer,
          false,
        ),
        out,
      );
      return true;
    }
    return false;
  }

  private looksLikeTimestamp(line: string): boolean {
    return (
      line.length >= 5 &&
      isDigit(line.charCodeAt(0)) &&
      isDigit(line.charCodeAt(1)) &&
      (line.charCodeAt(2) === C_DASH ||
        (isDigit(line.charCodeAt(2)) && isDigit(line.charCodeAt(3)) && line.charCodeAt(4) === C_DASH))
    );
  }

  /**
   * Reads a timestamp at `i`: `MM-DD HH:MM:SS.mmm[uuu[nnn]]`, the same with `YYYY-`, or an
   * `epoch`/`monotonic` seconds value; an optional `+zzzz` zone follows. Sets `ts` and `pos`
   * (the index after it); returns false when there is none.
   */
  private timestamp(line: string, i: number): boolean {
    const n = line.length;
    let year = 0;
    let p = i;
    if (n - p >= 10 && line.charCodeAt(p + 4) === C_DASH && isDigit(line.charCodeAt(p + 3))) {
      year =
        (line.charCodeAt(p) - C_0) * 1000 +
        (line.charCodeAt(p + 1) - C_0) * 100 +
        (line.charCodeAt(p + 2) - C_0) * 10 +
        (line.charCodeAt(p + 3) - C_0);
      if (year < 1970 || year > 2999) {
        return false;
      }
      p += 5;
    }
    if (n - p < 18) {
      return this.secondsTimestamp(line, i);
    }
    if (
      line.charCodeAt(p + 2) !== C_DASH ||
      line.charCodeAt(p + 5) !== C_SPACE ||
      line.charCodeAt(p + 8) !== C_COLON ||
      line.charCodeAt(p + 11) !== C_COLON ||
      line.charCodeAt(p + 14) !== C_DOT
    ) {
      return year === 0 ? this.secondsTimestamp(line, i) : false;
    }
    // Digits by hand: no closure here, the hot path runs once per line.
    const month = (line.charCodeAt(p) - C_0) * 10 + line.charCodeAt(p + 1) - C_0;
    const day = (line.charCodeAt(p + 3) - C_0) * 10 + line.charCodeAt(p + 4) - C_0;
    const hour = (line.charCodeAt(p + 6) - C_0) * 10 + line.charCodeAt(p + 7) - C_0;
    const minute = (line.charCodeAt(p + 9) - C_0) * 10 + line.charCodeAt(p + 10) - C_0;
    const second = (line.charCodeAt(p + 12) - C_0) * 10 + line.charCodeAt(p + 13) - C_0;
    const ms =
      (line.charCodeAt(p + 15) - C_0) * 100 +
      (line.charCodeAt(p + 16) - C_0) * 10 +
      line.charCodeAt(p + 17) -
      C_0;
    if (!(
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= 31 &&
      hour <= 23 &&
      minute <= 59 &&
      second <= 60 &&
      ms >= 0 &&
      ms <= 999
    )) {
      return false;
    }
    p += 18;
    while (p < n && isDigit(line.charCodeAt(p))) {
      p++; // usec / nsec digits
    }
    if (p < n && line.charCodeAt(p) !== C_SPACE && line.charCodeAt(p) !== C_COLON) {
      return false;
    }
    this.ts = this.clock.toEpoch(year, month, day, hour, minute, second, ms);
    this.pos = this.zone(line, p);
    return true;
  }

  /** `epoch` (seconds since 1970) or `monotonic` (seconds since boot, which has no wall time). */
  private secondsTimestamp(line: string, i: number): boolean {
    const n = line.length;
    let p = i;
    while (p < n && line.charCodeAt(p) === C_SPACE) {
      p++;
    }
    const s0 = p;
    while (p < n && isDigit(line.charCodeAt(p))) {
      p++;
    }
    if (p === s0 || p >= n || line.charCodeAt(p) !== C_DOT) {
      return false;
    }
    const secs = Number(line.slice(s0, p));
    p++;
    const f0 = p;
    while (p < n && isDigit(line.charCodeAt(p))) {
      p++;
    }
    if (p - f0 < 3 || p >= n || line.charCodeAt(p) !== C_SPACE) {
      return false;
    }
    const ms = Number(line.slice(f0, f0 + 3));
    // Values below ~2001 are monotonic clocks: no wall time to report.
    this.ts = secs > 1_000_000_000 ? secs * 1000 + ms : 0;
    this.pos = this.zone(line, p);
    return true;
  }

  private zone(line: string, p: number): number {
    // `-v zone`: ` +0000` / ` -0700` after the time.
    if (p + 6 <= line.length && line.charCodeAt(p) === C_SPACE) {
      const s = line.charCodeAt(p + 1);
      if ((s === 43 || s === C_DASH) && isDigit(line.charCodeAt(p + 2)) && isDigit(line.charCodeAt(p + 5))) {
        return p + 6;
      }
    }
    return p;
  }

  /** Tries every header form; returns the entry, or null (pos = -2 for a `long` header). */
  private header(line: string): LogEntry | null {
    this.pos = 0;
    const c0 = line.charCodeAt(0);
    if (isDigit(c0) || c0 === C_SPACE) {
      return this.timed(line);
    }
    if (c0 === C_LBRACKET) {
      this.longRecord(line);
      return null;
    }
    const level = levelOf(c0);
    if (level !== null && line.length > 2) {
      const c1 = line.charCodeAt(1);
      if (c1 === C_SLASH) {
        return this.briefOrTag(line, 2, level, 0, false);
      }
      if (c1 === C_SPACE && (this.stats.format === null || this.stats.format === 'tag')) {
        // `E ActivityManager: …`: threadtime with its time and ids cut off, as people paste it.
        const colon = line.indexOf(': ', 2);
        if (colon > 2) {
          this.stats.format = 'tag';
          return makeEntry(
            0,
            -1,
            -1,
            level,
            this.trimmedSlice(line, 2, colon),
            line.slice(colon + 2),
            null,
            this.device,
            this.buffer,
            false,
          );
        }
      }
    }
    return null;
  }

  /** Lines that start with a time: threadtime (and variants), time, and both Studio copies. */
  private timed(line: string): LogEntry | null {
    if (!this.timestamp(line, 0)) {
      return null;
    }
    const ts = this.ts;
    const n = line.length;
    let p = this.pos;
    if (p < n && line.charCodeAt(p) === C_COLON) {
      p++; // `MM-DD HH:MM:SS.mmm: L/Tag(pid): msg` (DDMS/Eclipse export)
    }
    while (p < n && line.charCodeAt(p) === C_SPACE) {
      p++;
    }
    if (p >= n) {
      return null;
    }
    const c = line.charCodeAt(p);
    const level = levelOf(c);
    if (level !== null && p + 1 < n && line.charCodeAt(p + 1) === C_SLASH) {
      return this.briefOrTag(line, p + 2, level, ts, true);
    }
    // Up to three id tokens: [uid] pid tid, or Studio's pid-tid.
    const t0 = p;
    let dash = -1;
    while (p < n) {
      const ch = line.charCodeAt(p);
      if (isSpace(ch)) {
        break;
      }
      if (ch === C_DASH && dash < 0) {
        dash = p;
      }
      p++;
    }
    const t0End = p;
    if (dash > t0 && isDigit(c)) {
      return this.studio(line, t0, dash, t0End, ts);
    }
    while (p < n && line.charCodeAt(p) === C_SPACE) {
      p++;
    }
    const t1 = p;
    while (p < n && isDigit(line.charCodeAt(p))) {
      p++;
    }
    const t1End = p;
    if (t1End === t1) {
      return null;
    }
    while (p < n && line.charCodeAt(p) === C_SPACE) {
      p++;
    }
    let pidStart = t0;
    let pidEnd = t0End;
    let tidStart = t1;
    let tidEnd = t1End;
    if (p < n && isDigit(line.charCodeAt(p))) {
      // `-v uid`: uid pid tid.
      pidStart = t1;
      pidEnd = t1End;
      tidStart = p;
      while (p < n && isDigit(line.charCodeAt(p))) {
        p++;
      }
      tidEnd = p;
      while (p < n && line.charCodeAt(p) === C_SPACE) {
        p++;
      }
    } else if (line.charCodeAt(t0End - 1) === C_COLON) {
      return null; // a uid token with nothing after it
    }
    if (p + 1 >= n) {
      return null;
    }
    const lv = levelOf(line.charCodeAt(p));
    if (lv === null || line.charCodeAt(p + 1) !== C_SPACE) {
      return null;
    }
    const pid = this.int(line, pidStart, pidEnd);
    const tid = this.int(line, tidStart, tidEnd);
    if (pid < 0 || tid < 0) {
      return null;
    }
    const tagStart = p + 2;
    const colon = line.indexOf(': ', tagStart);
    let tag: string;
    let message: string;
    if (colon >= 0) {
      tag = this.tag(line, tagStart, colon);
      message = line.slice(colon + 2);
    } else if (line.charCodeAt(n - 1) === C_COLON) {
      tag = this.tag(line, tagStart, n - 1);
      message = '';
    } else {
      this.stats.truncated++;
      tag = this.trimmedSlice(line, tagStart, n);
      message = '';
    }
    this.stats.format = 'threadtime';
    const prev = this.prev;
    const cont =
      prev !== null &&
      prev.ts === ts &&
      prev.pid === pid &&
      prev.tid === tid &&
      prev.level === lv &&
      prev.tag === tag;
    return makeEntry(ts, pid, tid, lv, tag, message, null, this.device, this.buffer, cont);
  }

  /** The pooled copy of a tag (the pool stops growing at 8,192 distinct tags). */
  private tag(line: string, a: number, b: number): string {
    const t = this.trimmedSlice(line, a, b);
    const pooled = this.tagPool.get(t);
    if (pooled !== undefined) {
      return pooled;
    }
    if (this.tagPool.size < 8192) {
      this.tagPool.set(t, t);
    }
    return t;
  }

  /** Non-negative decimal in [a, b), or -1. */
  private int(line: string, a: number, b: number): number {
    if (a >= b || b - a > 10) {
      return -1;
    }
    let v = 0;
    for (let i = a; i < b; i++) {
      const d = line.charCodeAt(i) - C_0;
      if (d < 0 || d > 9) {
        return -1;
      }
      v = v * 10 + d;
    }
    return v;
  }

  /** Slice with trailing spaces dropped. */
  private trimmedSlice(line: string, a: number, b: number): string {
    let e = b;
    while (e > a && isSpace(line.charCodeAt(e - 1))) {
      e--;
    }
    let s = a;
    while (s < e && isSpace(line.charCodeAt(s))) {
      s++;
    }
    return s === e ? '' : line.slice(s, e);
  }

  /**
   * `L/Tag(pid): msg` (brief, time) or `L/Tag: msg` (tag). `p` is just after `L/`. Tags may be padded
   * before the parenthesis (`D/Atlas   (27821):`) and pids padded inside it (`(  380)`).
   */
  private briefOrTag(line: string, p: number, level: LogLevel, ts: number, timed: boolean): LogEntry | null {
    const colon = line.indexOf(': ', p);
    const end = colon >= 0 ? colon : line.charCodeAt(line.length - 1) === C_COLON ? line.length - 1 : -1;
    if (end < 0) {
      return null;
    }
    let pid = -1;
    let tagEnd = end;
    if (line.charCodeAt(end - 1) === C_RPAREN) {
      const lp = line.lastIndexOf('(', end - 1);
      if (lp > p) {
        const v = this.int(line, this.skipSpaces(line, lp + 1), end - 1);
        if (v >= 0) {
          pid = v;
          tagEnd = lp;
        }
      }
    }
    const tag = this.tag(line, p, tagEnd);
    const message = colon >= 0 ? line.slice(colon + 2) : '';
    this.stats.format = timed ? 'time' : pid >= 0 ? 'brief' : 'tag';
    const prev = this.prev;
    const cont =
      prev !== null &&
      prev.ts === ts &&
      prev.pid === pid &&
      prev.level === level &&
      prev.tag === tag &&
      (timed ? ts !== 0 : false);
    return makeEntry(ts, pid, -1, level, tag, message, null, this.device, this.buffer, cont);
  }

  private skipSpaces(line: string, p: number): number {
    while (p < line.length && line.charCodeAt(p) === C_SPACE) {
      p++;
    }
    return p;
  }

  /**
   * Android Studio copies. Old: `2020-12-17 17:54:28.340 17883-17883/com.pkg A/libc: msg` (package `?`
   * when unknown). New Logcat window: `2024-03-15 12:00:00.123  1234-1234  Tag  com.pkg  E  msg`, tag
   * and package in padded columns; the level is the lone letter between two-space gaps.
   */
  private studio(line: string, t0: number, dash: number, t0End: number, ts: number): LogEntry | null {
    const pid = this.int(line, t0, dash);
    const slash = line.indexOf('/', dash);
    const tidEnd = slash > dash && slash < t0End ? slash : t0End;
    const tid = this.int(line, dash + 1, tidEnd);
    if (pid < 0 || tid < 0) {
      return null;
    }
    const n = line.length;
    if (tidEnd === slash) {
      // Old form: package up to the space, then `L/Tag: msg`.
      const pkg = studioPackage(line.slice(slash + 1, t0End));
      const p = t0End + 1;
      const level = levelOf(line.charCodeAt(p));
      if (level === null || line.charCodeAt(p + 1) !== C_SLASH) {
        return null;
      }
      // Studio 1.x wrote U+FE55 (small colon) after the tag.
      let colon = line.indexOf(': ', p + 2);
      const small = line.indexOf('\ufe55 ', p + 2);
      if (small >= 0 && (colon < 0 || small < colon)) {
        colon = small;
      }
      const end = colon >= 0 ? colon : line.charCodeAt(n - 1) === C_COLON ? n - 1 : n;
      this.stats.format = 'studio';
      return makeEntry(
        ts,
        pid,
        tid,
        level,
        this.tag(line, p + 2, end),
        colon >= 0 ? line.slice(colon + 2) : '',
        pkg,
        this.device,
        this.buffer,
        false,
      );
    }
    // New form: find ` L  ` (or ` L` at the end) after the tag and package columns.
    let m = t0End;
    let level: LogLevel | null = null;
    for (; m + 1 < n; m++) {
      if (line.charCodeAt(m) === C_SPACE && line.charCodeAt(m - 1) === C_SPACE) {
        const lv = levelOf(line.charCodeAt(m + 1));
        if (
          lv !== null &&
          (m + 2 === n ||
            (line.charCodeAt(m + 2) === C_SPACE && (m + 3 === n || line.charCodeAt(m + 3) === C_SPACE)))
        ) {
          level = lv;
          break;
        }
      }
    }
    if (level === null) {
      return null;
    }
    const cols = this.trimmedSlice(line, t0End, m);
    const gap = cols.lastIndexOf(' ');
    let tag = cols;
    let pkg: string | null = null;
    if (gap > 0) {
      tag = this.tag(cols, 0, gap);
      pkg = studioPackage(cols.slice(gap + 1));
    }
    this.stats.format = 'studio-new';
    return makeEntry(
      ts,
      pid,
      tid,
      level,
      tag,
      m + 4 <= n ? line.slice(m + 4) : '',
      pkg,
      this.device,
      this.buffer,
      false,
    );
  }

  /** `[ MM-DD HH:MM:SS.mmm  pid: tid L/Tag ]`: the record's message lines follow. */
  private longRecord(line: string): void {
    const n = line.length;
    if (line.charCodeAt(n - 1) !== C_RBRACKET) {
      return;
    }
    let p = this.skipSpaces(line, 1);
    if (!this.timestamp(line, p)) {
      this.pos = 0;
      return;
    }
    const ts = this.ts;
    p = this.skipSpaces(line, this.pos);
    const colon = line.indexOf(':', p);
    if (colon < 0) {
      this.pos = 0;
      return;
    }
    const pid = this.int(line, p, colon);
    p = this.skipSpaces(line, colon + 1);
    let q = p;
    while (q < n && !isSpace(line.charCodeAt(q))) {
      q++;
    }
    const tidText = line.slice(p, q);
    const tid = tidText.startsWith('0x') ? parseInt(tidText.slice(2), 16) : this.int(line, p, q);
    q = this.skipSpaces(line, q);
    const level = levelOf(line.charCodeAt(q));
    if (pid < 0 || !(tid >= 0) || level === null || line.charCodeAt(q + 1) !== C_SLASH) {
      this.pos = 0;
      return;
    }
    const tag = this.trimmedSlice(line, q + 2, n - 1);
    this.longHeader = makeEntry(ts, pid, tid, level, tag, '', null, this.device, this.buffer, false);
    this.longFirst = true;
    this.stats.format = 'long';
    this.pos = -2;
  }
}

/** Parses a whole text or buffer at once (tests, pasted files). */
export function parseLogcat(
  input: string | Uint8Array,
  options: ParserOptions = {},
): { entries: LogEntry[]; stats: ParserStats } {
  const parser = new LogcatParser(options);
  const entries: LogEntry[] = [];
  parser.push(input, entries);
  parser.end(entries);
  return { entries, stats: parser.stats };
}
