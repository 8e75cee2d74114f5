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
import { TextDecoder } from 'node:util';
import type { LogEntry } from './logcat-types.js';
import { LogTimeClock } from './logcat-time.js';
import { HeaderScanner, isSpace, makeEntry, type LogFormat } from './logcat-header.js';

export type { LogFormat } from './logcat-header.js';
export { makeEntry } from './logcat-header.js';

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
const C_DASH = 45;
const C_BOM = 0xfeff;

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
  private readonly scanner: HeaderScanner;
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

  constructor(options: ParserOptions = {}) {
    this.device = options.device ?? null;
    const clockOptions: { year?: number; now?: () => number } = {};
    if (options.year !== undefined) {
      clockOptions.year = options.year;
    }
    if (options.now !== undefined) {
      clockOptions.now = options.now;
    }
    this.scanner = new HeaderScanner(new LogTimeClock(clockOptions), this.device, this.stats);
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
    const entry = this.scanner.scan(line);
    if (entry !== null) {
      this.contIndent = -1;
      this.longHeader = null;
      this.emit(entry, out);
      return;
    }
    if (this.scanner.longHeader !== null) {
      this.longHeader = this.scanner.longHeader;
      this.longFirst = true;
      return; // its message lines follow
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
    if (this.scanner.looksLikeTimestamp(line)) {
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
    this.scanner.prev = entry;
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
      this.scanner.buffer = this.buffer;
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
