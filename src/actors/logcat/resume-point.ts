/**
 * Where a device's stream carries on after it stopped without being asked to (the device left, the
 * adb server restarted): just after the newest line the store holds of that device. The stream
 * runs `logcat -T '<that line's time>'`, which prints what the device's buffer still has from that
 * time on, and drops the lines at that time the store already has, so nothing is read twice and
 * nothing the device kept is missed.
 *
 * logd's start-time search (AOSP system/logging/logd LogReader.cpp, `log_find_start`) begins at
 * the first entry whose time is at or after the asked time — or at the entry just before it when no
 * entry has exactly that time — so lines before the time may come too: they are dropped as well.
 */
import type { LogStore } from './log-store.js';
import type { LogEntry } from './logcat-types.js';

/** The newest stored time of a device, printed as threadtime prints it, and the lines stored at it. */
export interface ResumePoint {
  /** `MM-DD HH:MM:SS.mmm`: logcat's `-T` time and the first 18 characters of a threadtime line. */
  since: string;
  /** The lines stored at `since`, by `entryKey`, with how often each was stored. */
  seen: Map<string, number>;
}

/** Entries looked at, newest first, at most: the device's newest line is near the end of the store. */
const MAX_SCAN = 200_000;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** An epoch-ms store time (the printed time read in the host's zone) printed back as threadtime did. */
export function threadtimeOf(ts: number): string {
  const d = new Date(ts);
  return `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** What identifies a line within its millisecond: pid, tid, level, tag and text, whitespace left out. */
export function entryKey(e: Pick<LogEntry, 'pid' | 'tid' | 'level' | 'tag' | 'message'>): string {
  return `${e.pid}${e.tid}${e.level}${e.tag}:${e.message}`.replace(/\s+/g, '');
}

/** The same key read from a raw threadtime line (`MM-DD HH:MM:SS.mmm  PID  TID L TAG     : text`). */
export function threadtimeLineKey(line: string): string {
  return line.slice(18).replace(/\s+/g, '');
}

/** The resume point of `serial`, or null when the store holds none of its timed lines. */
export function resumePointOf(store: LogStore, serial: string): ResumePoint | null {
  let newest = 0;
  const seen = new Map<string, number>();
  const stop = Math.max(0, store.size - MAX_SCAN);
  for (let i = store.size - 1; i >= stop; i--) {
    const e = store.at(i);
    if (e === undefined || e.device !== serial || e.ts <= 0) {
      continue;
    }
    if (newest === 0) {
      newest = e.ts;
    } else if (e.ts < newest) {
      break;
    }
    const key = entryKey(e);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return newest === 0 ? null : { since: threadtimeOf(newest), seen };
}

/** What to do with a line at the start of a stream: keep it, drop it, or keep it and every line after. */
export type LineDecision = 'pass' | 'drop' | 'done';

/** The separators logcat prints between buffers (`--------- beginning of main`): always kept. */
export function isSeparator(line: string): boolean {
  return line.startsWith('--------- ');
}

const TIME = /^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/;

/**
 * Drops the lines a resumed stream prints that the store already has (see the module comment).
 * logd starts at most one entry before the asked time; a second older line means the device's
 * clock is not the one the store saw (it rebooted with an earlier clock, or the year turned), so
 * from there every line is kept rather than dropping new lines for looking old.
 */
export function afterResumePoint(point: ResumePoint): (line: string) => LineDecision {
  const seen = new Map(point.seen);
  let older = 0;
  return (line) => {
    if (isSeparator(line)) {
      return 'pass';
    }
    const time = line.slice(0, 18);
    if (!TIME.test(time)) {
      return 'done';
    }
    if (time < point.since) {
      return ++older > 1 ? 'done' : 'drop';
    }
    if (time === point.since) {
      const key = threadtimeLineKey(line);
      const n = seen.get(key) ?? 0;
      if (n > 0) {
        seen.set(key, n - 1);
        return 'drop';
      }
    }
    return 'done';
  };
}

/** `logcat -T 1` prints the newest line already in the buffer first: drop that one line. */
export function afterNewestOld(): (line: string) => LineDecision {
  let dropped = false;
  return (line) => {
    if (isSeparator(line)) {
      return 'pass';
    }
    if (dropped) {
      return 'done';
    }
    dropped = true;
    return 'drop';
  };
}
