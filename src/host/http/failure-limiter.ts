import { createHash } from 'node:crypto';

/** Failed authentications allowed per client address in one window. */
export const AUTH_FAILURES_PER_WINDOW = 10;
/** The window, milliseconds. */
export const AUTH_FAILURE_WINDOW_MS = 60_000;
/** Addresses tracked at most (the oldest are forgotten first), so a scan cannot grow memory. */
const MAX_ADDRESSES = 10_000;

/**
 * Counts failed authentications per key (a client address, a presented credential's digest, an
 * OAuth client id) over a sliding window. Only failures consult it: past the limit a failing
 * attempt is answered 429 with Retry-After instead of 401/400, so guessing is slowed per address and
 * per credential, while a valid credential is never refused — ten wrong tokens a minute from
 * someone else on 127.0.0.1 (or behind the same tunnel) keep no one out.
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

  /**
   * Records a failure under each key (nulls skipped) and returns the longest wait any of them had
   * before it: 0 when none was limited yet.
   */
  failAll(keys: readonly (string | null)[]): number {
    const present = keys.filter((k): k is string => k !== null);
    const wait = Math.max(0, ...present.map((k) => this.retryAfter(k)));
    present.forEach((k) => this.fail(k));
    return wait;
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

/** A short digest of a presented credential: the limiter keys by it and never holds the secret. */
export function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 32);
}
