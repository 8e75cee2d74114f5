import { describe, expect, it } from 'vitest';
import { BEFORE_CRASH_MS, RecentRequests } from './recent-requests.js';

function exchange(device: string, at: number, path: string, status: number | null) {
  return {
    device,
    package: null,
    entry: {
      id: `${at}`,
      at: new Date(at).toISOString(),
      method: 'GET',
      url: `https://api.example.com${path}`,
      status,
      duration_ms: 12,
      request_bytes: 0,
      response_bytes: null,
      failure: status === null ? 'upstream unreachable' : null,
      after: null,
    },
  };
}

describe('the requests shown beside a crash', () => {
  it("are the device's requests of the minute before it, the newest five, oldest first", () => {
    const r = new RecentRequests();
    const crashAt = 1_000_000;
    r.add(exchange('A', crashAt - BEFORE_CRASH_MS - 1, '/too-old', 200));
    for (let i = 0; i < 7; i++) {
      r.add(exchange('A', crashAt - 7000 + i * 1000, `/r${i}`, 200));
    }
    r.add(exchange('A', crashAt + 1, '/after', 200));
    r.add(exchange('B', crashAt - 10, '/other-device', 500));
    expect(r.before('A', crashAt)).toEqual([
      'GET api.example.com/r2 → 200, 12 ms',
      'GET api.example.com/r3 → 200, 12 ms',
      'GET api.example.com/r4 → 200, 12 ms',
      'GET api.example.com/r5 → 200, 12 ms',
      'GET api.example.com/r6 → 200, 12 ms',
    ]);
    expect(r.before('B', crashAt)).toEqual(['GET api.example.com/other-device → 500, 12 ms']);
    expect(r.before(null, crashAt)).toEqual([]);
  });
});
