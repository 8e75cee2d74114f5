/**
 * The header scanners: one hand-written pass over a line recognises its format and slices out time,
 * ids, level, tag and message. Formats: `threadtime` (with `-v year`, `uid`, `epoch`, `monotonic`,
 * `usec`, `zone`), `time` (and the DDMS export with a colon after the time), `brief`, `tag` (and the
 * `L Tag: msg` lines people paste), `long` headers, and Android Studio's two copy forms.
 */
import type { LogEntry, LogLevel } from './logcat-types.js';
import type { LogTimeClock } from './logcat-time.js';
import { packageOfProcess } from './pid-map.js';

/** The line formats the parser recognises. */
export type LogFormat = 'threadtime' | 'time' | 'brief' | 'tag' | 'long' | 'studio' | 'studio-new';

/** The counters the scanner shares with the parser (format seen, lines cut short). */
export interface ScanStats {
  format: LogFormat | null;
  truncated: number;
}

const C_TAB = 9;
const C_SPACE = 32;
const C_DASH = 45;
const C_SLASH = 47;
const C_0 = 48;
const C_9 = 57;
const C_COLON = 58;
const C_LBRACKET = 91;
const C_RBRACKET = 93;
const C_RPAREN = 41;

/** Level letter char codes → normalized level; anything else is not a level. */
export function levelOf(c: number): LogLevel | null {
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

export function isDigit(c: number): boolean {
  return c >= C_0 && c <= C_9;
}

export function isSpace(c: number): boolean {
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

/** Studio's package column: `?`, `pid-123`, `system_process` and daemons name no application. */
function studioPackage(raw: string): string | null {
  if (raw.length === 0 || raw === '?') {
    return null;
  }
  return packageOfProcess(raw);
}

/** Reads header lines; one instance per parser (it pools tags and caches the hour of the clock). */
export class HeaderScanner {
  /** Set when the last scanned line was a `long` record header; its message lines follow. */
  longHeader: LogEntry | null = null;
  /** The buffer name stamped on entries (the parser follows the separators). */
  buffer: string | null = null;
  /** The previous entry (for `cont`). */
  prev: LogEntry | null = null;

  /** One string per distinct tag: stored entries share it instead of each keeping a copy. */
  private readonly tagPool = new Map<string, string>();

  constructor(
    private readonly clock: LogTimeClock,
    private readonly device: string | null,
    private readonly stats: ScanStats,
  ) {}

  /** Parses a header line into an entry; null when the line is none (see `longHeader`). */
  scan(line: string): LogEntry | null {
    this.longHeader = null;
    return this.header(line);
  }

  /** Starts like a timestamp (a header cut short when it does not parse). */
  looksLikeTimestamp(line: string): boolean {
    return (
      line.length >= 5 &&
      isDigit(line.charCodeAt(0)) &&
      isDigit(line.charCodeAt(1)) &&
      (line.charCodeAt(2) === C_DASH ||
        (isDigit(line.charCodeAt(2)) && isDigit(line.charCodeAt(3)) && line.charCodeAt(4) === C_DASH))
    );
  }

  /** Tries every header form; returns the entry, or null (pos = -2 for a `long` header). */
  private header(line: string): LogEntry | null {
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
    const clock = this.clock;
    if (!clock.read(line, 0)) {
      return null;
    }
    const ts = clock.ts;
    const n = line.length;
    let p = clock.end;
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
    if (!this.clock.read(line, p)) {
      return;
    }
    const ts = this.clock.ts;
    p = this.skipSpaces(line, this.clock.end);
    const colon = line.indexOf(':', p);
    if (colon < 0) {
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
      return;
    }
    const tag = this.trimmedSlice(line, q + 2, n - 1);
    this.longHeader = makeEntry(ts, pid, tid, level, tag, '', null, this.device, this.buffer, false);
    this.stats.format = 'long';
  }
}
