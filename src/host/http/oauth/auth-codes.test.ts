import { describe, expect, it } from 'vitest';
import { AuthCodeStore } from './auth-codes.js';

const grant = {
  clientId: 'c1',
  redirectUri: 'http://127.0.0.1:9/cb',
  redirectUriGiven: true,
  codeChallenge: 'x'.repeat(43),
  resource: 'http://127.0.0.1:1/mcp',
};

describe('authorization codes', () => {
  it('work once; a second use is a replay that names the grant to revoke', () => {
    const store = new AuthCodeStore();
    const code = store.issue(grant);
    expect(store.redeem(code)).toEqual({ ok: true, grant });
    store.recordGrant(code, 'g1');
    expect(store.redeem(code)).toEqual({ ok: false, reason: 'replayed', gid: 'g1', clientId: 'c1' });
    expect(store.redeem('never-issued')).toEqual({ ok: false, reason: 'unknown' });
  });

  it('expire after 60 s', () => {
    let now = 0;
    const store = new AuthCodeStore(() => now);
    const code = store.issue(grant);
    now = 60_001;
    expect(store.redeem(code).ok).toBe(false);
  });
});
