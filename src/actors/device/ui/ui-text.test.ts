import { describe, expect, it } from 'vitest';
import { clip, looseText, oneLine } from './ui-text.js';

describe('screen texts', () => {
  it('escape line breaks, tabs and other control characters on one line, and keep the rest', () => {
    expect(oneLine('Total:\n2 items\r\tnow')).toBe('Total:\\n2 items\\r\\tnow');
    expect(oneLine('a\u0007b\u2028c\u0085d')).toBe('a\\u0007b\\u2028c\\u0085d');
    expect(oneLine('2\u00a0500 ₽ 😀')).toBe('2\u00a0500 ₽ 😀');
  });

  it('compare loosely: whitespace runs, no-break spaces and the escapes as one space', () => {
    expect(looseText(' 2\u00a0500\u202f₽ ')).toBe('2 500 ₽');
    expect(looseText('Total:\\n2\titems')).toBe(looseText('Total:\n2 items'));
  });

  it('cut with an ellipsis, never inside a surrogate pair', () => {
    expect(clip('abcdef', 4)).toBe('abc…');
    expect(clip('abc', 4)).toBe('abc');
    expect(clip('ab😀cd', 4)).toBe('ab…');
  });
});
