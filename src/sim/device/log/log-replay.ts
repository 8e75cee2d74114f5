import { priorityValue, type LogBufferName, type NewLogEntry } from './log-store.js';

/**
 * Reading a recorded log back into a device's buffers (`sim logcat replay`). It reads every line
 * format droidbus's logcat parser reads, each as real tools print it (samples under
 * tests/fixtures/logcat, sources in its SOURCES.md):
 * * logcat's own `-v` formats (AOSP liblog `logprint.cpp`): threadtime with its adverbs (year,
 *   uid, epoch, monotonic, usec, zone), time (and the DDMS export's `MM-DD hh:mm:ss.mmm: L/Tag(pid):`),
 *   brief, tag (`L/Tag: msg`), long (`[ time pid: tid L/Tag ]` then the message, a blank line);
 * * what people paste: `L Tag: msg` (a threadtime line with time and ids cut off);
 * * Android Studio's copies: the old `[YYYY-]MM-DD hh:mm:ss.mmm pid-tid/pkg L/Tag: msg` (with or
 *   without the year, `?` for an unknown package, `﹕` after the tag in Studio 1.x) and the new
 *   column form `YYYY-MM-DD hh:mm:ss.mmm  pid-tid  Tag  pkg  L  msg`;
 * * UTF-8 with or without a BOM, UTF-16 (LE/BE, with a BOM, as PowerShell's `>` writes), CRLF.
 * A line none of these match continues the previous entry's message (a Studio copy puts each
 * stack frame on its own indented line); lines before the first entry (vendor banners) are dropped.
 */

/** An entry read back from a recorded log. */
export interface ReplayedEntry {
  /**
   * The time the line was stamped with, in ms on its own clock (a date without a year, epoch or
   * monotonic seconds: only differences count), or null for a format without one (brief, tag).
   */
  time: number | null;
  buffer: LogBufferName;
  pid: number;
  tid: number;
  priority: number;
  tag: string;
  message: string;
  /** The process name a Studio copy showed beside the entry, when it named one. */
  process: string | null;
}

const TIME = String.raw`(?:\d{4}-)?\d{1,2}-\d{1,2}\s+\d{1,2}:\d{2}:\d{2}\.\d+`;
/** threadtime's time column in any of its adverbs' forms: date-time, epoch or monotonic seconds. */
const ANY_TIME = String.raw`(?:${TIME}|\d+\.\d+)(?:\s+[+-]\d{4}|\s+[A-Z]{2,5})?`;
const THREADTIME = new RegExp(
  String.raw`^\s*${ANY_TIME}\s+(?:\S+\s+)??(\d+)\s+(\d+)\s+([VDIWEFA])\s+(.*?)\s*:(?:\s(.*))?$`,
);
const TIMEFMT = new RegExp(String.raw`^${TIME}:?\s+([VDIWEFA])\/(.*?)\s*\(\s*(?:\S+:\s*)?(\d+)\):\s?(.*)$`);
const BRIEF = /^([VDIWEFA])\/(.*?)\s*\(\s*(?:\S+:\s*)?(\d+)\):\s?(.*)$/;
/** `-v tag` (`L/Tag: msg`) and the pasted `L Tag: msg`. */
const TAG = /^([VDIWEFA])[/ ]([^\s:(][^:(]*?)\s*:\s(.*)$/;
const LONG_HEADER = new RegExp(
  String.raw`^\[\s*${ANY_TIME}\s+(?:\S+:\s*)??(\d+):\s*(\d+)\s+([VDIWEFA])\/(.*?)\s*\]$`,
);
const STUDIO_OLD = new RegExp(
  String.raw`^${TIME}\s+(?<pid>\d+)-(?<tid>\d+)\/(?<proc>\S*)\s+(?<level>[VDIWEFA])\/(?<tag>.*?)(?::|\s*\uFE55)\s?(?<msg>.*)$`,
);
const STUDIO_NEW = new RegExp(
  String.raw`^${TIME}\s+(?<pid>\d+)-(?<tid>\d+)\s+(?<tag>\S+)\s+(?<proc>\S+)\s+(?<level>[VDIWEFA])\s{1,2}(?<msg>.*)$`,
);
/** Lines Android Studio adds that no device printed. */
const STUDIO_NOTE = /^-{4,} PROCESS (?:STARTED|ENDED) \(/;
/**
 * A buffer divider: `beginning of main` since Android 5, and before logd the log device's path
 * (`beginning of /dev/log/main`, which the old logcat.cpp maybePrintStart printed from dev->device).
 */
/** The time a line (or a long-format header) starts with: a date, or epoch or monotonic seconds. */
const LEADING_TIME =
  /^\s*\[?\s*(?:(?:(\d{4})-)?(\d{1,2})-(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\.(\d+)|(\d+)\.(\d+)\s)/;

function leadingTime(line: string): number | null {
  const m = LEADING_TIME.exec(line);
  if (m === null) {
    return null;
  }
  const frac = (digits: string | undefined): number => Number((digits ?? '0').padEnd(3, '0').slice(0, 3));
  if (m[2] !== undefined) {
    const [, year, month, day, h, min, sec, ms] = m;
    return (
      Date.UTC(Number(year ?? 2000), Number(month) - 1, Number(day), Number(h), Number(min), Number(sec)) +
      frac(ms)
    );
  }
  return Number(m[8]) * 1000 + frac(m[9]);
}

const DIVIDER = /^-{9} (?:beginning of|switch to) (?:\/dev\/log\/)?(\w+)/;

function bufferFor(tag: string, message: string, current: LogBufferName): LogBufferName {
  if (tag === 'AndroidRuntime' || tag === 'DEBUG') {
    return message.startsWith('FATAL EXCEPTION') || current === 'crash' || tag === 'DEBUG'
      ? 'crash'
      : current;
  }
  if (tag === 'ActivityManager' || tag === 'ActivityTaskManager') {
    return 'system';
  }
  return current;
}

/** Decodes a recorded file: UTF-16 (by its BOM, or by its NULs) or UTF-8, a BOM dropped. */
export function decodeRecordedText(bytes: Uint8Array): string {
  const b0 = bytes[0];
  const b1 = bytes[1];
  if (b0 === 0xff && b1 === 0xfe) {
    return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  }
  if (b0 === 0xfe && b1 === 0xff) {
    return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  }
  if (bytes.length >= 4 && b1 === 0 && bytes[3] === 0 && b0 !== 0) {
    return new TextDecoder('utf-16le').decode(bytes);
  }
  if (bytes.length >= 4 && b0 === 0 && bytes[2] === 0 && b1 !== 0) {
    return new TextDecoder('utf-16be').decode(bytes);
  }
  return new TextDecoder().decode(bytes).replace(/^\uFEFF/, '');
}

/** A Studio package column worth a process: a package or process name, not `?` or `pid-123`. */
function processName(column: string): string | null {
  return column === '' || column === '?' || /^pid-\d+$/.test(column) ? null : column;
}

/** Reads a recorded log in any format above into entries, in order. */
export function parseRecordedLog(text: string): ReplayedEntry[] {
  const out: ReplayedEntry[] = [];
  let buffer: LogBufferName = 'main';
  let longHeader: { pid: number; tid: number; p: string; tag: string; time: number | null } | null = null;
  let lineTime: number | null = null;
  const push = (
    pid: number,
    tid: number,
    p: string,
    tag: string,
    message: string,
    process: string | null = null,
  ): void => {
    const t = tag.trim();
    out.push({
      time: lineTime,
      buffer: bufferFor(t, message, buffer),
      pid,
      tid,
      priority: priorityValue(p === 'A' ? 'F' : p),
      tag: t,
      message,
      process,
    });
  };
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    lineTime = leadingTime(line);
    const divider = DIVIDER.exec(line);
    if (divider !== null) {
      const b = divider[1] as string;
      buffer = (['main', 'system', 'crash', 'events', 'radio'].includes(b) ? b : 'main') as LogBufferName;
      longHeader = null;
      continue;
    }
    let m: RegExpExecArray | null;
    if ((m = LONG_HEADER.exec(line)) !== null) {
      longHeader = {
        pid: Number(m[1]),
        tid: Number(m[2]),
        p: m[3] as string,
        tag: m[4] as string,
        time: lineTime,
      };
      continue;
    }
    if (longHeader !== null) {
      if (line === '') {
        longHeader = null;
        continue;
      }
      lineTime = longHeader.time;
      push(longHeader.pid, longHeader.tid, longHeader.p, longHeader.tag, line);
      continue;
    }
    if (STUDIO_NOTE.test(line)) {
      continue;
    }
    const studio = (STUDIO_NEW.exec(line) ?? STUDIO_OLD.exec(line))?.groups;
    if (studio !== undefined) {
      push(
        Number(studio['pid']),
        Number(studio['tid']),
        studio['level'] as string,
        studio['tag'] as string,
        studio['msg'] as string,
        processName(studio['proc'] as string),
      );
    } else if ((m = THREADTIME.exec(line)) !== null) {
      push(Number(m[1]), Number(m[2]), m[3] as string, m[4] as string, m[5] ?? '');
    } else if ((m = TIMEFMT.exec(line)) !== null) {
      push(Number(m[3]), Number(m[3]), m[1] as string, m[2] as string, m[4] as string);
    } else if ((m = BRIEF.exec(line)) !== null) {
      push(Number(m[3]), Number(m[3]), m[1] as string, m[2] as string, m[4] as string);
    } else if ((m = TAG.exec(line)) !== null) {
      const prev = out[out.length - 1];
      push(prev?.pid ?? 0, prev?.tid ?? 0, m[1] as string, m[2] as string, m[3] as string);
    } else if (line.trim() !== '' && out.length > 0) {
      const prev = out[out.length - 1] as ReplayedEntry;
      out.push({ ...prev, message: continuation(line) });
    }
  }
  return out;
}

/**
 * A pasted continuation line as the device logged it: Studio indents each line of a multi-line
 * message to its message column; a stack frame was logged as `\tat …` (Throwable.printStackTrace).
 */
function continuation(line: string): string {
  const text = line.trimStart();
  return /^(?:at |\.\.\. \d+ more)/.test(text) && text !== line ? `\t${text}` : text;
}

/**
 * Turns replayed entries into new log entries ending now, as the source spaced and grouped them:
 * stamped lines keep their distance from the last one (so the lines of one multi-line log call —
 * an ANR's `ANR in`, `PID:`, `Reason:` — keep their shared time, which is how a reader joins them);
 * an unstamped line takes its stamped neighbour's time, and in a file with no times at all, lines
 * of the same pid, tid, level and tag in a row share one (the lines one call printed), each new
 * run 1 ms after the last.
 */
export function restamp(entries: readonly ReplayedEntry[], now = Date.now()): NewLogEntry[] {
  const times: number[] = [];
  let last: number | null = entries.find((e) => e.time !== null)?.time ?? null;
  if (last !== null) {
    for (const e of entries) {
      last = e.time ?? last;
      times.push(last as number);
    }
  } else {
    let t = 0;
    entries.forEach((e, i) => {
      const prev = entries[i - 1];
      const sameCall =
        prev !== undefined &&
        prev.pid === e.pid &&
        prev.tid === e.tid &&
        prev.priority === e.priority &&
        prev.tag === e.tag;
      t = i === 0 || sameCall ? t : t + 1;
      times.push(t);
    });
  }
  const end = times.reduce((a, b) => Math.max(a, b), 0);
  return entries.map((e, i) => ({
    buffer: e.buffer,
    time: now - (end - (times[i] as number)),
    pid: e.pid,
    tid: e.tid,
    priority: e.priority,
    tag: e.tag,
    message: e.message,
  }));
}
