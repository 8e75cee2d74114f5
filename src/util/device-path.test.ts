import { describe, expect, it } from 'vitest';
import { checkDevicePath, isInside } from './device-path.js';

describe('device paths', () => {
  it('accepts absolute paths and drops a trailing slash', () => {
    expect(checkDevicePath('/sdcard/Download/')).toEqual({ ok: true, path: '/sdcard/Download' });
    expect(checkDevicePath("/sdcard/it's a file.txt")).toEqual({ ok: true, path: "/sdcard/it's a file.txt" });
  });

  it('refuses relative paths, dot components, empty components and control characters', () => {
    for (const p of ['sdcard/x', '/sdcard/../data', '/sdcard/./x', '/sdcard//x', '/sdcard/a\nb', '', '..']) {
      expect(checkDevicePath(p).ok, JSON.stringify(p)).toBe(false);
    }
  });

  it('tells inside from a sibling with the same prefix', () => {
    expect(isInside('/storage/emulated/0/Download', '/storage/emulated/0/Download/a.txt')).toBe(true);
    expect(isInside('/storage/emulated/0/Download', '/storage/emulated/0/Download')).toBe(true);
    expect(isInside('/storage/emulated/0/Download', '/storage/emulated/0/Downloads/a')).toBe(false);
  });
});

describe('device paths that would not be what they say', () => {
  it('refuses a lone surrogate (it would land as U+FFFD) and accepts a whole emoji', () => {
    expect(checkDevicePath('/sdcard/a\ud800b.txt')).toMatchObject({
      ok: false,
      message: expect.stringContaining('lone surrogate'),
    });
    expect(checkDevicePath('/sdcard/a\udc00.txt').ok).toBe(false);
    expect(checkDevicePath('/sdcard/😀.txt')).toEqual({ ok: true, path: '/sdcard/😀.txt' });
  });

  it('refuses bidirectional controls, which make a listing show another name', () => {
    expect(checkDevicePath('/sdcard/invoice\u202Etxt.exe')).toMatchObject({
      ok: false,
      message: expect.stringContaining('bidirectional control'),
    });
    expect(checkDevicePath('/sdcard/a\u2066b').ok).toBe(false);
    expect(checkDevicePath('/sdcard/Привет/日本.txt').ok).toBe(true);
  });
});
