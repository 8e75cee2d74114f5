import { describe, expect, it } from 'vitest';
import { isSecretKey, redact, summarize, truncateUtf8 } from './redact.js';

// Token-shaped strings are assembled at run time so the repository holds no literal secret.
const gh = 'ghp_' + 'a1B2c3D4e5'.repeat(4);
const pat = 'github_pat_' + '11ABCDEFG0'.repeat(3);
const sk = 'sk-' + 'ant-api03-' + 'xY9z'.repeat(8);
const aws = 'AKIA' + 'IOSFODNN7EXAMPLE';
const google = 'AIza' + 'SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY';
const slack = 'xoxb-' + '123456789012-abcdefghijkl';
const jwt =
  'eyJhbGciOiJIUzI1NiJ9' + '.eyJzdWIiOiIxMjM0NTY3ODkwIn0' + '.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
const HOME = '/home/alice';
// droidbus token: dbt_ + 32 random bytes in base64url. One with fewer than two digits slips past
// the opaque-run rule, so the prefix rule must catch it.
const dbt = 'dbt_' + 'q8Xz-_Lm3Np0'.repeat(3) + 'abcdefg';
const dbtFewDigits = 'dbt_' + 'QwErTyUiOpAsDfGhJkLzXcVbNm-_QwErTyUiOpAsD7';

describe('redact', () => {
  it.each([
    ['a GitHub token', `token is ${gh} ok`, gh],
    ['a fine-grained GitHub token', `use ${pat}`, pat],
    ['an API key of the sk- family', `key ${sk}`, sk],
    ['an AWS access key id', `aws ${aws} here`, aws],
    ['a Google API key', `maps ${google}`, google],
    ['a Slack token', `slack ${slack}`, slack],
    ['a JWT', `cookie ${jwt}`, jwt],
    ['a droidbus bearer token', `connect with ${dbt} now`, dbt],
    ['a droidbus bearer token with few digits', `glued:${dbtFewDigits}`, dbtFewDigits],
  ])('removes %s wherever it appears', (_name, text, secret) => {
    const out = redact(text, HOME);
    expect(out).not.toContain(secret);
    expect(out).toContain('[redacted]');
  });

  it.each([
    ['storePassword=hunter22', 'storePassword=[redacted]'],
    ['ANDROID_KEYSTORE_PASSWORD=s3cr3t', 'ANDROID_KEYSTORE_PASSWORD=[redacted]'],
    ['"api_key": "abc123"', '"api_key": "[redacted]"'],
    ["client_secret: 'xyz'", "client_secret: '[redacted]'"],
    ['--auth-token=abc', '--auth-token=[redacted]'],
    ['sessionId=42', 'sessionId=[redacted]'],
    ['key=value', 'key=[redacted]'],
    ['Project: api_key=zzz', 'Project: api_key=[redacted]'],
    ['droidbus://x?access_token=abc123&page=2', 'droidbus://x?access_token=[redacted]&page=2'],
  ])('removes the value of a secret-looking key: %s', (text, expected) => {
    expect(redact(text, HOME)).toBe(expected);
  });

  it('keeps ordinary key: value pairs, including keys that only contain a secret word by accident', () => {
    const text = 'Mode: attached; author=Jane; keyAlias=upload; Trusted: no';
    expect(redact(text, HOME)).toBe(text);
  });

  it('removes credentials inside URLs and Authorization values', () => {
    expect(redact('fetch https://bob:pa55word@repo.example.com/x', HOME)).toBe(
      'fetch https://[redacted]@repo.example.com/x',
    );
    expect(redact('Authorization: Bearer abcdefgh12345678', HOME)).not.toContain('abcdefgh12345678');
  });

  it('removes a private key block, even one cut before its END line', () => {
    const block = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----';
    expect(redact(`x ${block} y`, HOME)).toBe('x [redacted private key] y');
    expect(redact('-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg', HOME)).toBe('[redacted private key]');
  });

  it("replaces the home directory with ~ and hides other users' home folders", () => {
    expect(redact('built /home/alice/src/app/build.gradle.kts', HOME)).toBe(
      'built ~/src/app/build.gradle.kts',
    );
    expect(redact('cd /home/alice', HOME)).toBe('cd ~');
    expect(redact('/home/alicexyz/file', HOME)).toBe('~/file');
    expect(redact('open /Users/bob/Projects/x', HOME)).toBe('open ~/Projects/x');
    expect(redact('C:\\Users\\carol\\app', HOME)).toBe('~\\app');
  });

  it('removes long opaque runs of letters and digits but keeps paths, class names and words', () => {
    const digest = 'f'.repeat(20) + '0123456789abcdef0123';
    expect(redact(`sha ${digest}`, HOME)).toBe('sha [redacted]');
    const keep =
      'at com.example.app.feature12.AccountAdapter12.bind(AccountAdapter12.kt:42) /tmp/x/app-debug.apk';
    expect(redact(keep, HOME)).toBe(keep);
  });

  it('tells secret key names from harmless ones', () => {
    for (const key of [
      'password',
      'storePassword',
      'API_KEY',
      'accessKey',
      'private-key',
      'x-auth',
      'GITHUB_TOKEN',
    ]) {
      expect(isSecretKey(key), key).toBe(true);
    }
    for (const key of ['author', 'keyAlias', 'keystore', 'package', 'Mode', 'tokens_used']) {
      expect(isSecretKey(key), key).toBe(false);
    }
  });
});

describe('summaries', () => {
  it('cut to 120 bytes on a character boundary, ending with an ellipsis', () => {
    const out = summarize('é'.repeat(200), 120, HOME);
    expect(Buffer.byteLength(out, 'utf8')).toBeLessThanOrEqual(120);
    expect(out.endsWith('…')).toBe(true);
    expect(truncateUtf8('short', 120)).toBe('short');
  });

  it('put every line on one line and redact before cutting', () => {
    expect(summarize(`line one\n\nline two ${gh}`, 120, HOME)).toBe('line one line two [redacted]');
  });

  it('never leave part of a secret that a long text cut in half', () => {
    const text = 'x '.repeat(2046) + gh;
    expect(text.length).toBeGreaterThan(4096);
    const out = summarize(text, 10_000, HOME);
    expect(out).not.toMatch(/ghp_/);
  });
});
