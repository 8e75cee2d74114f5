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
