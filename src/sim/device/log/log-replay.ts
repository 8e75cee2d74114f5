import { priorityValue, type LogBufferName, type NewLogEntry } from './log-store.js';

/** An entry read back from a recorded log, without its original time. */
export interface ReplayedEntry {
  buffer: LogBufferName;
  pid: number;
  tid: number;
  priority: number;
  tag: string;
  message: string;
}

const THREADTIME =
  /^(?:\d{4}-)?\d{2}-\d{2}\s+\d{2}:\d{2}:\d{2}\.\d+\s+(?:\d+\s+)?(\d+)\s+(\d+)\s+([VDIWEFA])\s+(.*?)\s*:\s(.*)$/;
const THREADTIME_EMPTY =
  /^(?:\d{4}-)?\d{2}-\d{2}\s+\d{2}:\d{2}:\d{2}\.\d+\s+(?:\d+\s+)?(\d+)\s+(\d+)\s+([VDIWEFA])\s+(.*?)\s*:$/;
const TIME = /^(?:\d{4}-)?\d{2}-\d{2}\s+\d{2}:\d{2}:\d{2}\.\d+\s+([VDIWEFA])\/(.*?)\s*\(\s*(\d+)\):\s?(.*)$/;
const BRIEF = /^([VDIWEFA])\/(.*?)\s*\(\s*(\d+)\):\s?(.*)$/;
const LONG_HEADER =
  /^\[\s+(?:\d{4}-)?\d{2}-\d{2}\s+\d{2}:\d{2}:\d{2}\.\d+\s+(\d+):\s*(\d+)\s+([VDIWEFA])\/(.*?)\s*\]$/;
/** Android Studio (Dolphin and later): `2024-05-14 10:21:33.123  1234-1250  Tag  com.pkg  E  message`. */
const STUDIO =
  /^\d{4}-\d{2}-\d{2}\s+\d{2}:\d{2}:\d{2}\.\d+\s+(\d+)-(\d+)\s+(\S+)\s+(\S+)\s+([VDIWEFA])\s{1,2}(.*)$/;
/** Older Android Studio: `2019-01-02 10:11:12.345 1234-1250/com.pkg E/Tag: message`. */
const STUDIO_OLD =
  /^\d{4}-\d{2}-\d{2}\s+\d{2}:\d{2}:\d{2}\.\d+\s+(\d+)-(\d+)\/(\S*)\s+([VDIWEFA])\/(.*?):\s?(.*)$/;

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

/**
 * Reads a recorded log in any common text format (threadtime, time, brief, long, Android Studio's
 * copied formats); unrecognised lines continue the previous entry's message as their own entries.
 */
export function parseRecordedLog(text: string): ReplayedEntry[] {
  const out: ReplayedEntry[] = [];
  let buffer: LogBufferName = 'main';
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let longHeader: { pid: number; tid: number; p: string; tag: string } | null = null;
  const push = (pid: number, tid: number, p: string, tag: string, message: string): void => {
    const priority = priorityValue(p === 'A' ? 'F' : p);
    out.push({
      buffer: bufferFor(tag.trim(), message, buffer),
      pid,
      tid,
      priority,
      tag: tag.trim(),
      message,
    });
  };
  for (const line of lines) {
    const divider = /^-{9} (?:beginning of|switch to) (\w+)/.exec(line);
    if (divider !== null) {
      const b = divider[1] as string;
      buffer = (['main', 'system', 'crash', 'events', 'radio'].includes(b) ? b : 'main') as LogBufferName;
      continue;
    }
    let m: RegExpExecArray | null;
    if ((m = LONG_HEADER.exec(line)) !== null) {
      longHeader = { pid: Number(m[1]), tid: Number(m[2]), p: m[3] as string, tag: m[4] as string };
      continue;
    }
    if (longHeader !== null) {
      if (line === '') {
        longHeader = null;
        continue;
      }
      push(longHeader.pid, longHeader.tid, longHeader.p, longHeader.tag, line);
      continue;
    }
    if ((m = STUDIO.exec(line)) !== null) {
      push(Number(m[1]), Number(m[2]), m[5] as string, m[3] as string, m[6] as string);
    } else if ((m = STUDIO_OLD.exec(line)) !== null) {
      push(Number(m[1]), Number(m[2]), m[4] as string, m[5] as string, m[6] as string);
    } else if ((m = THREADTIME.exec(line)) !== null) {
      push(Number(m[1]), Number(m[2]), m[3] as string, m[4] as string, m[5] as string);
    } else if ((m = THREADTIME_EMPTY.exec(line)) !== null) {
      push(Number(m[1]), Number(m[2]), m[3] as string, m[4] as string, '');
    } else if ((m = TIME.exec(line)) !== null) {
      push(Number(m[3]), Number(m[3]), m[1] as string, m[2] as string, m[4] as string);
    } else if ((m = BRIEF.exec(line)) !== null) {
      push(Number(m[3]), Number(m[3]), m[1] as string, m[2] as string, m[4] as string);
    } else if (line.trim() !== '' && out.length > 0) {
      const prev = out[out.length - 1] as ReplayedEntry;
      out.push({ ...prev, message: line });
    }
  }
  return out;
}

/** Turns replayed entries into new log entries stamped now (1 ms apart, keeping their order). */
export function restamp(entries: readonly ReplayedEntry[], now = Date.now()): NewLogEntry[] {
  const start = now - entries.length;
  return entries.map((e, i) => ({
    buffer: e.buffer,
    time: start + i,
    pid: e.pid,
    tid: e.tid,
    priority: e.priority,
    tag: e.tag,
    message: e.message,
  }));
}
