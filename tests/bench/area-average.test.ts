/**
 * The JS area-averager bench/screenshot.ts measures beside libvips (the screenshot path before
 * issue 58): it still has to compute what it claims, or the comparison means nothing.
 */
import { describe, expect, it } from 'vitest';
import { areaAverage } from '../../bench/lib/area-average.js';

/** The reference definition: each output pixel is the coverage-weighted mean of its input area. */
function naiveAreaAverage(
  src: Uint8Array,
  w: number,
  h: number,
  ch: number,
  ow: number,
  oh: number,
): number[] {
  const out: number[] = [];
  const sx = w / ow;
  const sy = h / oh;
  for (let oy = 0; oy < oh; oy++) {
    for (let ox = 0; ox < ow; ox++) {
      for (let c = 0; c < ch; c++) {
        let acc = 0;
        let wsum = 0;
        for (let y = 0; y < h; y++) {
          const wy = Math.min(y + 1, (oy + 1) * sy) - Math.max(y, oy * sy);
          if (wy <= 0) {
            continue;
          }
          for (let x = 0; x < w; x++) {
            const wx = Math.min(x + 1, (ox + 1) * sx) - Math.max(x, ox * sx);
            if (wx > 0) {
              acc += (src[(y * w + x) * ch + c] ?? 0) * wx * wy;
              wsum += wx * wy;
            }
          }
        }
        out.push(acc / wsum);
      }
    }
  }
  return out;
}

describe('areaAverage', () => {
  it('equals the coverage-weighted mean for fractional and integer factors', () => {
    const src = Uint8Array.from({ length: 37 * 23 * 3 }, (_, i) => (i * 7919) % 256);
    for (const [ow, oh] of [
      [10, 7],
      [37, 23],
      [1, 1],
      [18, 11],
      [36, 22],
    ] as Array<[number, number]>) {
      const fast = Array.from(areaAverage(src, 37, 23, 3, ow, oh));
      const slow = naiveAreaAverage(src, 37, 23, 3, ow, oh);
      fast.forEach((v, i) => expect(Math.abs(v - (slow[i] ?? 0))).toBeLessThanOrEqual(0.5001));
    }
  });

  it('equals it on screen-like RGBA too: flat runs, repeated rows, rows at any byte offset', () => {
    // Blocks of one colour, rows repeated in bands, a few noisy rows: every shortcut and the sums.
    const w = 45;
    const h = 31;
    const src = new Uint8Array(w * h * 4 + 1);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const band = Math.floor(y / 4);
        const noisy = y % 7 === 3;
        for (let c = 0; c < 4; c++) {
          src[1 + (y * w + x) * 4 + c] = noisy
            ? (x * 31 + y * 17 + c * 59) % 256
            : c === 3
              ? 255
              : (Math.floor(x / 5) * 40 + band * 25 + c * 70) % 256;
        }
      }
    }
    const aligned = src.slice(1);
    const unaligned = src.subarray(1); // byteOffset 1: the 32-bit reading cannot apply
    for (const [ow, oh] of [
      [24, 16],
      [18, 12],
      [45, 31],
      [11, 9],
    ] as Array<[number, number]>) {
      const slow = naiveAreaAverage(aligned, w, h, 4, ow, oh);
      for (const input of [aligned, unaligned]) {
        const fast = Array.from(areaAverage(input, w, h, 4, ow, oh));
        fast.forEach((v, i) => expect(Math.abs(v - (slow[i] ?? 0))).toBeLessThanOrEqual(0.5001));
      }
    }
  });

  it('refuses to enlarge', () => {
    expect(() => areaAverage(new Uint8Array(4), 2, 2, 1, 3, 2)).toThrow(RangeError);
  });
});
