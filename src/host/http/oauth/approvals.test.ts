import { describe, expect, it } from 'vitest';
import { ApprovalQueue } from './approvals.js';

describe('number-match approvals', () => {
  const request = {
    clientId: 'c1',
    clientName: 'Agent',
    redirectUri: 'https://app.example/cb',
    redirectUriGiven: true,
    state: undefined,
    codeChallenge: 'x'.repeat(43),
    resource: 'r',
  };

  it('give each waiting request its own 2-digit code, decided once', () => {
    const queue = new ApprovalQueue();
    const codes = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const a = queue.create(request);
      expect(a.code).toMatch(/^[1-9]\d$/);
      codes.add(a.code);
    }
    expect(codes.size).toBe(20);
    expect(() => queue.create(request)).toThrow(/already waiting/);
    const [first] = codes;
    expect(queue.decide(first!, true)?.status).toBe('approved');
    expect(queue.decide(first!, true)).toBeNull();
    expect(queue.list()).toHaveLength(19);
  });

  it('forget a request after 5 minutes', () => {
    let now = 0;
    const queue = new ApprovalQueue(() => now);
    const a = queue.create(request);
    now = 5 * 60_000 + 1;
    expect(queue.get(a.id)).toBeUndefined();
    expect(queue.decide(a.code, true)).toBeNull();
  });
});
