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
});
