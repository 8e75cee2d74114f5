/**
 * Logcat timestamps to epoch milliseconds, without a Date per line: the epoch value of each
 * `MM-DD HH` hour is computed once and cached, and minutes, seconds and millis are added by hand.
 * Device times carry no zone in most formats; the host's zone is assumed (devices on a developer's
 * desk share it), which keeps `age:` filters meaningful.
 */

const DAY_MS = 86_400_000;

/** Converts printed logcat times to epoch ms; keeps a one-hour cache so the hot path is arithmetic. */
export class LogTimeClock {
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
