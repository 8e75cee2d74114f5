import { describe, expect, it } from 'vitest';
import { LOGIN_LINK_TTL_MS, PAGE_SESSION_TTL_MS, PageAuth, readCookie, sessionCookie } from './page-auth.js';

describe('page logins', () => {
  it('trades a login link for a session exactly once', () => {
    const auth = new PageAuth();
    const { token } = auth.newLink();
    const sid = auth.redeem(token);
    expect(sid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(auth.check(sid!)).toBe(true);
    expect(auth.redeem(token)).toBeNull();
    expect(auth.check('not-a-session')).toBe(false);
    expect(auth.check(undefined)).toBe(false);
  });

  it('refuses a link past its hour and a session past its day', () => {
    let now = 1_000_000;
    const auth = new PageAuth(() => now);
    const late = auth.newLink().token;
    const kept = auth.newLink().token;
    now += LOGIN_LINK_TTL_MS + 1;
    expect(auth.redeem(late)).toBeNull();
    expect(auth.redeem(kept)).toBeNull();
    const sid = auth.redeem(auth.newLink().token)!;
    now += PAGE_SESSION_TTL_MS - 1;
    expect(auth.check(sid)).toBe(true);
    now += 2;
    expect(auth.check(sid)).toBe(false);
  });

  it('ends a session on log out', () => {
    const auth = new PageAuth();
    const sid = auth.redeem(auth.newLink().token)!;
    auth.end(sid);
    expect(auth.check(sid)).toBe(false);
  });

  it('keeps at most 8 links waiting, dropping the oldest', () => {
    const auth = new PageAuth();
    const tokens = Array.from({ length: 9 }, () => auth.newLink().token);
    expect(auth.redeem(tokens[0]!)).toBeNull();
    expect(auth.redeem(tokens[8]!)).not.toBeNull();
  });
});

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Strict, under /ui, and Secure only over TLS', () => {
    expect(sessionCookie('droidbus_page_8766', 'abc', false)).toBe(
      'droidbus_page_8766=abc; Path=/ui; Max-Age=86400; HttpOnly; SameSite=Strict',
    );
    expect(sessionCookie('n', 'abc', true)).toMatch(/; Secure$/);
  });

  it('is read from a Cookie header among others', () => {
    expect(readCookie('a=1; droidbus_page_1=xyz; b=2', 'droidbus_page_1')).toBe('xyz');
    expect(readCookie('droidbus_page_10=xyz', 'droidbus_page_1')).toBeUndefined();
    expect(readCookie(undefined, 'x')).toBeUndefined();
  });
});
