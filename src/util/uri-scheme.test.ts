import { describe, expect, it } from 'vitest';
import { BLOCKED_URI_SCHEMES, checkOpenableUri } from './uri-scheme.js';

describe('checkOpenableUri', () => {
  it('accepts app and web links and names their scheme', () => {
    expect(checkOpenableUri('https://example.com/item/1?x=a%20b')).toEqual({ ok: true, scheme: 'https' });
    expect(checkOpenableUri('myapp://open/settings')).toEqual({ ok: true, scheme: 'myapp' });
    expect(checkOpenableUri('geo:37.42,-122.08')).toEqual({ ok: true, scheme: 'geo' });
  });

  it('refuses every scheme that opens no app, whatever its case', () => {
    for (const scheme of BLOCKED_URI_SCHEMES) {
      for (const written of [scheme, scheme.toUpperCase()]) {
        const r = checkOpenableUri(`${written}:whatever`);
        expect(r.ok, written).toBe(false);
      }
    }
    expect(BLOCKED_URI_SCHEMES).toEqual([
      'javascript',
      'vbscript',
      'data',
      'file',
      'content',
      'intent',
      'about',
      'blob',
    ]);
  });

  it('refuses whitespace and control characters that hide a scheme, and URIs without one', () => {
    for (const uri of [
      'java\tscript:alert(1)',
      ' javascript:x',
      'java\nscript:x',
      'https://a b',
      '\u200bjavascript:x',
      '/sdcard/x',
      '',
      'x'.repeat(2049),
    ]) {
      expect(checkOpenableUri(uri).ok, JSON.stringify(uri.slice(0, 20))).toBe(false);
    }
  });
});
