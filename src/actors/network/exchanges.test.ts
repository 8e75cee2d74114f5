import { describe, expect, it } from 'vitest';
import { exchangeMatcher, maskUrl, shownBody, shownHeaders, summaryOf, type Exchange } from './exchanges.js';

function exchange(over: Partial<Exchange> = {}): Exchange {
  return {
    id: 'a1',
    startedAt: Date.parse('2026-12-07T10:00:00Z'),
    method: 'POST',
    url: 'https://api.example.com/auth?api_key=k123&lang=en',
    requestHeaders: [['Content-Type', 'application/json']],
    requestBody: Buffer.from('{"user":"ada","password":"hunter2","nested":{"refresh_token":"r"}}'),
    status: 401,
    responseHeaders: [['Content-Type', 'application/json']],
    responseBody: Buffer.from('{"error":"bad"}'),
    endedAt: Date.parse('2026-12-07T10:00:00.120Z'),
    error: null,
    after: null,
    ...over,
  };
}

describe('a captured request as answers show it', () => {
  it('masks secret query parameters, headers and JSON fields, and counts them', () => {
    expect(maskUrl('https://x.test/a?api_key=k&lang=en&token=t')).toBe(
      'https://x.test/a?api_key=[redacted]&lang=en&token=[redacted]',
    );
    expect(summaryOf(exchange())).toMatchObject({
      url: 'https://api.example.com/auth?api_key=[redacted]&lang=en',
      duration_ms: 120,
    });
    expect(
      shownHeaders(
        [
          ['Authorization', 'Bearer abc'],
          ['Cookie', 'sid=1'],
          ['X-Api-Key', 'k'],
          ['Accept', 'application/json'],
        ],
        false,
      ),
    ).toEqual({
      headers: [
        ['Authorization', '[redacted]'],
        ['Cookie', '[redacted]'],
        ['X-Api-Key', '[redacted]'],
        ['Accept', 'application/json'],
      ],
      masked: 3,
    });
    const body = shownBody(exchange().requestBody, [['Content-Type', 'application/json']], 1000, false);
    expect(body.text).toContain('"password": "[redacted]"');
    expect(body.text).toContain('"refresh_token": "[redacted]"');
    expect(body.text).toContain('"user": "ada"');
    expect(body.masked).toBe(2);
    expect(shownBody(exchange().requestBody, [], 1000, true).text).toContain('hunter2');
  });

  it('cuts text at the budget, summarises binary, and masks form fields', () => {
    const long = shownBody(Buffer.from('x'.repeat(50)), [['Content-Type', 'text/plain']], 10, false);
    expect(long).toMatchObject({ text: `${'x'.repeat(10)}…`, truncated: true, bytes: 50 });
    const png = shownBody(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]),
      [['content-type', 'image/png']],
      10,
      false,
    );
    expect(png).toMatchObject({ text: null, notes: ['binary (image/png), not shown'] });
    const form = shownBody(
      Buffer.from('username=ada&password=p%40ss'),
      [['Content-Type', 'application/x-www-form-urlencoded']],
      100,
      false,
    );
    expect(form.text).toBe('username=ada&password=[redacted]');
  });

  it('filters by substring, RE2 regex, method, exact status or class, and time', () => {
    const e = exchange();
    expect(exchangeMatcher({ url: '/auth' })(e)).toBe(true);
    expect(exchangeMatcher({ url_regex: 'auth\\?api' })(e)).toBe(true);
    expect(exchangeMatcher({ method: 'get' })(e)).toBe(false);
    expect(exchangeMatcher({ status: 4 })(e)).toBe(true);
    expect(exchangeMatcher({ status: 5 })(e)).toBe(false);
    expect(exchangeMatcher({ status: 401 })(e)).toBe(true);
    expect(exchangeMatcher({ since_ms: e.startedAt + 1 })(e)).toBe(false);
    expect(() => exchangeMatcher({ url_regex: '(a' })).toThrow(
      /url_regex is not a regular expression RE2 runs/,
    );
    expect(() => exchangeMatcher({ url_regex: '(?=a)' })).toThrow(/RE2/);
  });
});
