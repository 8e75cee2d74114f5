/**
 * Printed logcat times to epoch milliseconds, without a Date per line: the epoch value of each
 * `MM-DD HH` hour is computed once and cached, and minutes, seconds and millis are added by hand.
 * Device times carry no zone in most formats; the host's zone is assumed (devices on a developer's
 * desk share it), which keeps `age:` filters meaningful.
 */

const DAY_MS = 86_400_000;
const C_SPACE = 32;
const C_DASH = 45;
const C_DOT = 46;
const C_0 = 48;
const C_COLON = 58;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Converts printed logcat times to epoch ms; keeps a one-hour cache so the hot path is arithmetic. */
export class LogTimeClock {
  /** Result of the last `read`: epoch ms (0 when the time has no wall clock). */
  ts = 0;
  /** Result of the last `read`: the index just after the time. */
  end = 0;
  private cacheKey = -1;
  private cacheBase = 0;
  private readonly fixedYear: number | null;
  private readonly now: () => number;

  constructor(options: { year?: number; now?: () => number } = {}) {
    this.fixedYear = options.year ?? null;
    this.now = options.now ?? Date.now;
  }

  /**
   * Epoch ms for a local date-time. `year` 0 means the log printed none: the current year is used,
   * or the previous one when that would put the line more than two days in the future (a log from
   * late December read in January).
   */
  toEpoch(
    year: number,
    month: number,
    day: number,
    hour: number,
    minute: number,
    second: number,
    ms: number,
  ): number {
    // One key per hour of one day; year 0 shares keys across years, which the inference resolves.
    const key = ((year * 13 + month) * 32 + day) * 24 + hour;
    if (key !== this.cacheKey) {
      this.cacheBase = this.hourBase(year, month, day, hour);
      this.cacheKey = key;
    }
    return this.cacheBase + minute * 60_000 + second * 1000 + ms;
  }

  /**
   * Reads a timestamp at `i`: `MM-DD HH:MM:SS.mmm[uuu[nnn]]`, the same with `YYYY-`, or an
   * `epoch`/`monotonic` seconds value; an optional `+zzzz` zone follows. Sets `ts` and `end`
   * (the index after it); returns false when there is none.
   */
  read(line: string, i: number): boolean {
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
    this.ts = this.toEpoch(year, month, day, hour, minute, second, ms);
    this.end = this.zone(line, p);
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
    this.end = this.zone(line, p);
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

  private hourBase(year: number, month: number, day: number, hour: number): number {
    if (year > 0) {
      return new Date(year, month - 1, day, hour).getTime();
    }
    const now = this.now();
    const y = this.fixedYear ?? new Date(now).getFullYear();
    const t = new Date(y, month - 1, day, hour).getTime();
    if (this.fixedYear === null && t > now + 2 * DAY_MS) {
      return new Date(y - 1, month - 1, day, hour).getTime();
    }
    return t;
  }
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Formats epoch ms as logcat's `YYYY-MM-DD HH:MM:SS.mmm` in the host zone; '' for 0 (unknown). */
export function formatLogTime(ts: number): string {
  if (ts <= 0) {
    return '';
  }
  const d = new Date(ts);
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1, 2)}-${pad(d.getDate(), 2)} ` +
    `${pad(d.getHours(), 2)}:${pad(d.getMinutes(), 2)}:${pad(d.getSeconds(), 2)}.${pad(d.getMilliseconds(), 3)}`
  );
}
