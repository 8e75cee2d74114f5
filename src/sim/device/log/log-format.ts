/**
 * Evidence: system/logging/liblog/logprint.cpp android_log_formatLogLine (each `-v` format and
 * modifier).
 */
import { PRIORITY_CHARS, type LogEntry } from './log-store.js';

/** logcat's output formats (`-v`). */
export type LogFormat = 'brief' | 'process' | 'tag' | 'thread' | 'raw' | 'time' | 'threadtime' | 'long';

export const LOG_FORMATS: ReadonlySet<string> = new Set([
  'brief',
  'process',
  'tag',
  'thread',
  'raw',
  'time',
  'threadtime',
  'long',
]);

/** `-v` modifiers that change the time stamp. */
export interface FormatModifiers {
  year: boolean;
  epoch: boolean;
  usec: boolean;
  utc: boolean;
  uid: boolean;
}

function pad2(n: number): string {
  return n < 10 ? '0' + String(n) : String(n);
}

function padStart(s: string, n: number): string {
  return s.length >= n ? s : ' '.repeat(n - s.length) + s;
}

function padEnd(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

/**
 * Formats entries like liblog's `android_log_formatLogLine`. The date part is cached per second,
 * which keeps formatting cheap at thousands of lines per second.
 */
export class LogFormatter {
  private cachedSecond = -1;
  private cachedPrefix = '';

  constructor(
    readonly format: LogFormat,
    readonly mods: FormatModifiers = { year: false, epoch: false, usec: false, utc: false, uid: false },
  ) {}

  private stamp(time: number): string {
    const ms = Math.floor(time);
    if (this.mods.epoch) {
      const sec = Math.floor(ms / 1000);
      const frac = this.mods.usec
        ? String(Math.floor((time - sec * 1000) * 1000)).padStart(6, '0')
        : String(ms % 1000).padStart(3, '0');
      return `${padStart(String(sec), 5)}.${frac}`;
    }
    const second = Math.floor(ms / 1000);
    if (second !== this.cachedSecond) {
      const d = new Date(second * 1000);
      const utc = this.mods.utc;
      const year = utc ? d.getUTCFullYear() : d.getFullYear();
      const month = (utc ? d.getUTCMonth() : d.getMonth()) + 1;
      const day = utc ? d.getUTCDate() : d.getDate();
      const h = utc ? d.getUTCHours() : d.getHours();
      const m = utc ? d.getUTCMinutes() : d.getMinutes();
      const s = utc ? d.getUTCSeconds() : d.getSeconds();
      this.cachedPrefix = `${this.mods.year ? `${year}-` : ''}${pad2(month)}-${pad2(day)} ${pad2(h)}:${pad2(m)}:${pad2(s)}.`;
      this.cachedSecond = second;
    }
    const frac = this.mods.usec
      ? String(Math.floor((time - second * 1000) * 1000)).padStart(6, '0')
      : String(ms % 1000).padStart(3, '0');
    return this.cachedPrefix + frac;
  }

  /** The text of one entry, each line of a multi-line message with its own prefix, newline-terminated. */
  line(e: LogEntry): string {
    const p = PRIORITY_CHARS.charAt(e.priority) || '?';
    const msg = e.message;
    const pidField = this.mods.uid
      ? `${padStart(String(e.uid), 5)} ${padStart(String(e.pid), 5)}`
      : padStart(String(e.pid), 5);
    let prefix: string;
    let suffix = '';
    switch (this.format) {
      case 'threadtime':
        prefix = `${this.stamp(e.time)} ${pidField} ${padStart(String(e.tid), 5)} ${p} ${padEnd(e.tag, 8)}: `;
        break;
      case 'brief':
        prefix = `${p}/${padEnd(e.tag, 8)}(${pidField}): `;
        break;
      case 'time':
        prefix = `${this.stamp(e.time)} ${p}/${padEnd(e.tag, 8)}(${pidField}): `;
        break;
      case 'process':
        prefix = `${p}(${pidField}) `;
        suffix = `  (${e.tag})`;
        break;
      case 'tag':
        prefix = `${p}/${padEnd(e.tag, 8)}: `;
        break;
      case 'thread':
        prefix = `${p}(${pidField}:${padStart(String(e.tid), 5)}) `;
        break;
      case 'raw':
        prefix = '';
        break;
      case 'long':
        return `[ ${this.stamp(e.time)} ${pidField}:${padStart(String(e.tid), 5)} ${p}/${padEnd(e.tag, 8)} ]\n${msg}\n\n`;
    }
    if (!msg.includes('\n')) {
      return prefix + msg + suffix + '\n';
    }
    return msg
      .split('\n')
      .map((l) => prefix + l + suffix + '\n')
      .join('');
  }
}
