import { describe, expect, it } from 'vitest';
import { bearerFromHeader, bearerMatches, generateBearerToken } from './bearer-token.js';

describe('the bearer token', () => {
  it('is dbt_ and 32 random bytes in base64url, new every time', () => {
    const a = generateBearerToken();
    expect(a).toMatch(/^dbt_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice(4), 'base64url')).toHaveLength(32);
    expect(generateBearerToken()).not.toBe(a);
  });

  it('matches only the configured value, never an empty one', () => {
    const t = generateBearerToken();
    expect(bearerMatches(t, t)).toBe(true);
    expect(bearerMatches(t.slice(0, -1), t)).toBe(false);
    expect(bearerMatches(`${t}x`, t)).toBe(false);
    expect(bearerMatches('', '')).toBe(false);
    expect(bearerMatches('anything', '')).toBe(false);
    expect(bearerMatches('anything', null)).toBe(false);
  });

  it('reads the token of a Bearer header only', () => {
    expect(bearerFromHeader('Bearer abc')).toBe('abc');
    expect(bearerFromHeader('bearer  abc ')).toBe('abc');
    expect(bearerFromHeader('Basic abc')).toBeNull();
    expect(bearerFromHeader('Bearer ')).toBeNull();
    expect(bearerFromHeader('Bearer a b')).toBeNull();
    expect(bearerFromHeader(undefined)).toBeNull();
  });
});
