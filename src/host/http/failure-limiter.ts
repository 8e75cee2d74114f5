/** Failed authentications allowed per client address in one window. */
export const AUTH_FAILURES_PER_WINDOW = 10;
/** The window, milliseconds. */
export const AUTH_FAILURE_WINDOW_MS = 60_000;
/** Addresses tracked at most (the oldest are forgotten first), so a scan cannot grow memory. */
const MAX_ADDRESSES = 10_000;

/**
 * Counts failed authentications per client address over a sliding window. Past the limit the
 * address is refused (429 with Retry-After) until its oldest failure leaves the window — valid
 * credentials included, so a guesser learns nothing from the answers while it is limited.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit = AUTH_FAILURES_PER_WINDOW,
    private readonly windowMs = AUTH_FAILURE_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until the address may try again, or 0 when it is not limited. */
  retryAfter(address: string): number {
    const times = this.recent(address);
    if (times.length < this.limit) {
      return 0;
    }
    const oldest = times[times.length - this.limit]!;
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000));
  }

  /** Records one failure of the address. */
  fail(address: string): void {
    const times = this.recent(address);
    times.push(this.now());
    if (times.length > this.limit) {
      times.splice(0, times.length - this.limit);
    }
    // Re-insert so the map's order is least recently failed first.
    this.failures.delete(address);
    this.failures.set(address, times);
    if (this.failures.size > MAX_ADDRESSES) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) {
        this.failures.delete(oldest);
      }
    }
  }

  private recent(address: string): number[] {
    const times = this.failures.get(address);
    if (!times) {
      return [];
    }
    const cutoff = this.now() - this.windowMs;
    while (times.length > 0 && times[0]! <= cutoff) {
      times.shift();
    }
    if (times.length === 0) {
      this.failures.delete(address);
    }
    return times;
  }
}
