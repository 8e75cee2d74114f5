import { describe, expect, it } from 'vitest';
import { FailureLimiter } from './failure-limiter.js';

describe('FailureLimiter', () => {
  it('limits an address after 10 failures in a minute, until the oldest leaves the window', () => {
    let now = 0;
    const limiter = new FailureLimiter(10, 60_000, () => now);
    for (let i = 0; i < 9; i++) {
      limiter.fail('a');
      now += 1000;
    }
    expect(limiter.retryAfter('a')).toBe(0);
    limiter.fail('a');
    // The first failure was at 0: it leaves the window at 60 s; now is 9 s.
    expect(limiter.retryAfter('a')).toBe(51);
    expect(limiter.retryAfter('b')).toBe(0);
    now = 60_001;
    expect(limiter.retryAfter('a')).toBe(0);
  });

  it('records a failure under every key and answers the longest wait any key had before', () => {
    let now = 1_000_000;
    const limiter = new FailureLimiter(3, 60_000, () => now);
    expect(limiter.failAll(['address a', 'credential x'])).toBe(0);
    expect(limiter.failAll(['address a', 'credential y'])).toBe(0);
    expect(limiter.failAll(['address a', null])).toBe(0);
    // The address is at its limit; the credential y is not, another address's failures are its own.
    now += 9_000;
    expect(limiter.failAll(['address a', 'credential y'])).toBe(51);
    expect(limiter.failAll(['address b', 'credential z'])).toBe(0);
    expect(limiter.retryAfter('credential y')).toBe(0);
  });
});
