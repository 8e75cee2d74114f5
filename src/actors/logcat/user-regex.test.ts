import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { requiredLiteral, userRegex, UserRegexError } from './user-regex.js';

describe('user regular expressions', () => {
  it('runs the pattern that pins a backtracking engine in linear time', () => {
    const evil = userRegex('^(a|a)*$');
    const started = performance.now();
    expect(evil('a'.repeat(39) + '!')).toBe(false);
    expect(evil('a'.repeat(100_000) + '!')).toBe(false);
    // A backtracking engine needs about 2^39 steps for the first line alone.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(evil('a'.repeat(40))).toBe(true);
  });

  it('searches anywhere in the text, as Java and Studio find() do', () => {
    const t = userRegex('time(out|d out)');
    expect(t('request timed out after 5 s')).toBe(true);
    expect(t('socket timeout')).toBe(true);
    expect(t('time is up')).toBe(false);
    expect(userRegex('^Open.*er$')('OpenGLRenderer')).toBe(true);
    expect(userRegex('(?i)FATAL')('fatal exception')).toBe(true);
    expect(userRegex('\\d{3,}ms')('took 1234ms')).toBe(true);
  });

  it('refuses what RE2 cannot run, saying what it is', () => {
    expect(() => userRegex('(?<=id=)\\d+')).toThrow(/lookahead and lookbehind are not supported.*RE2/);
    expect(() => userRegex('(a)\\1')).toThrow(/backreferences/);
    expect(() => userRegex('a++')).toThrow(/possessive/);
    expect(() => userRegex('(unclosed')).toThrow(UserRegexError);
    expect(() => userRegex('(unclosed')).toThrow(/missing closing \)/);
  });

  it('finds the literal every match contains, and none when there is no such literal', () => {
    expect(requiredLiteral('time(out|d out)')).toBe('time');
    expect(requiredLiteral('status=5\\d\\d')).toBe('status=5');
    expect(requiredLiteral('^Open.*er$')).toBe('Open');
    expect(requiredLiteral('items/1\\d{3}$')).toBe('items/1');
    expect(requiredLiteral('x{2,}yz')).toBe('yz');
    expect(requiredLiteral('ab?c')).toBe(null);
    expect(requiredLiteral('abc?de')).toBe('ab');
    expect(requiredLiteral('a\\.b\\.c')).toBe('a.b.c');
    expect(requiredLiteral('foo|bar')).toBe(null);
    expect(requiredLiteral('(?i)timeout')).toBe(null);
    expect(requiredLiteral('[abc]def')).toBe('def');
    expect(requiredLiteral('\\d+')).toBe(null);
    // Escapes whose operands stand for other characters are never read as literal text.
    expect(requiredLiteral('\\x41BC')).toBe('BC');
    expect(requiredLiteral('\\x{263a}ok')).toBe('ok');
    expect(requiredLiteral('\\pLxy')).toBe('xy');
    expect(requiredLiteral('\\p{Greek}ab')).toBe('ab');
    expect(requiredLiteral('\\101zz')).toBe('zz');
    expect(requiredLiteral('\\Qa.b\\Ecd')).toBe('cd');
  });

  it('never lets the literal prefilter drop a line RE2 alone would match', () => {
    const patterns = [
      'ab(c|d)e',
      'a\\.b+c',
      'x{2}yz',
      '[ab]cd?e',
      'ab*cd',
      '^abc',
      'b(a)?cd$',
      'a.c\\d',
      '\\x61bc',
      '\\pLcd',
    ];
    let seed = 7;
    const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const alphabet = 'abcdexyz.1';
    for (const p of patterns) {
      const ours = userRegex(p);
      const re2 = RE2JS.compile(p);
      for (let k = 0; k < 2_000; k++) {
        const text = Array.from({ length: 1 + rnd(12) }, () => alphabet[rnd(alphabet.length)]).join('');
        expect(ours(text), `${p} on ${text}`).toBe(re2.matcher(text).find());
      }
    }
  });
});
