import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseUiDump } from '../../../device/ui-dump/ui-parse.js';
import { interactiveRows } from '../ui/ui-query.js';
import { ANNOTATION_COLORS, annotateScreenshot } from './screenshot-annotate.js';
import { MAX_SCREENSHOT_BYTES, readPngInfo, scaleScreenshot } from './screenshot-scale.js';

/** A PNG with hard-edged stripes (like text), so resampling differences show. */
async function stripes(width: number, height: number, channels: 3 | 4 = 4): Promise<Buffer> {
  const px = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const on = (Math.floor(x / 7) + Math.floor(y / 5)) % 2 === 1;
      const o = (y * width + x) * channels;
      px[o] = on ? 230 : 20;
      px[o + 1] = on ? 200 : 40;
      px[o + 2] = (x * 255) / width;
      if (channels === 4) {
        px[o + 3] = 255;
      }
    }
  }
  return sharp(px, { raw: { width, height, channels } }).png().toBuffer();
}

describe('readPngInfo', () => {
  it('reads the size from the IHDR chunk and refuses anything that is not a PNG', async () => {
    const png = await stripes(30, 20);
    expect(readPngInfo(png)).toEqual({
      ok: true,
      value: { width: 30, height: 20, bit_depth: 8, color_type: 6, interlace: 0 },
    });
    const jpeg = await sharp(png).jpeg().toBuffer();
    expect(readPngInfo(jpeg)).toMatchObject({ ok: false, error: { code: 'NOT_PNG' } });
    expect(readPngInfo(Buffer.from('error: device offline\n'))).toMatchObject({
      ok: false,
      error: { code: 'NOT_PNG', message: expect.stringContaining('error: device o') },
    });
    expect(readPngInfo(new Uint8Array())).toMatchObject({ ok: false, error: { code: 'NOT_PNG' } });
  });
});

describe('scaleScreenshot', () => {
  it('returns a capture that already fits byte for byte as a PNG, with scale 1', async () => {
    const png = await stripes(720, 1024);
    const r = await scaleScreenshot(png, { format: 'png' });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.image === png).toBe(true);
      expect(r.value).toMatchObject({
        resized: false,
        deviceWidth: 720,
        deviceHeight: 1024,
        imageWidth: 720,
        imageHeight: 1024,
        scale: 1,
      });
    }
  });

  it('encodes a capture that fits as a JPEG by default, at its own size', async () => {
    const png = await stripes(720, 1024);
    const r = await scaleScreenshot(png);
    if (!r.ok) {
      throw new Error(r.error.message);
    }
    expect(r.value).toMatchObject({ format: 'jpeg', resized: false, imageWidth: 720, scale: 1 });
    expect(await sharp(r.value.image).metadata()).toMatchObject({ format: 'jpeg', width: 720, height: 1024 });
  });

  it('returns a large capture byte for byte with full_size', async () => {
    const png = await stripes(1080, 2400);
    const r = await scaleScreenshot(png, { full_size: true });
    expect(r.ok && r.value.image === png && r.value.scale === 1).toBe(true);
  });

  it('scales a 1080x2400 capture to 461x1024 with scale 2.3438 and a hint, keeping its colours', async () => {
    const png = await stripes(1080, 2400);
    const r = await scaleScreenshot(png, { format: 'png' });
    expect(r.ok).toBe(true);
    if (!r.ok) {
      return;
    }
    expect(r.value).toMatchObject({
      resized: true,
      deviceWidth: 1080,
      deviceHeight: 2400,
      imageWidth: 461,
      imageHeight: 1024,
      scale: 2.3438,
    });
    expect(r.value.hint).toContain('multiply them by 2.3438');
    expect(r.value.hint).toContain('ui_tap_element');
    expect(readPngInfo(r.value.image)).toMatchObject({ ok: true, value: { width: 461, height: 1024 } });
    // Resampling keeps each channel's mean (a swapped channel or a dropped row would not).
    const means = async (image: Uint8Array) => (await sharp(image).stats()).channels.map((c) => c.mean);
    const before = await means(png);
    const after = await means(r.value.image);
    after.slice(0, 3).forEach((m, i) => expect(Math.abs(m - before[i]!)).toBeLessThan(2));
  });

  it('scales a landscape capture by its long edge', async () => {
    const r = await scaleScreenshot(await stripes(2400, 1080, 3), { max_dimension: 800 });
    expect(r.ok && [r.value.imageWidth, r.value.imageHeight, r.value.scale]).toEqual([800, 360, 3]);
  });

  it('refuses both options together, an out-of-range max_dimension, non-PNG and oversized captures', async () => {
    const png = await stripes(30, 20);
    expect(await scaleScreenshot(png, { full_size: true, max_dimension: 512 })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    });
    expect(await scaleScreenshot(png, { max_dimension: 255 })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    });
    expect(await scaleScreenshot(png, { max_dimension: 8193 })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    });
    expect(await scaleScreenshot(png, { max_dimension: 300.5 })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    });
    expect(await scaleScreenshot(await sharp(png).jpeg().toBuffer())).toMatchObject({
      ok: false,
      error: { code: 'NOT_PNG' },
    });
    const huge = new Uint8Array(MAX_SCREENSHOT_BYTES + 1);
    huge.set(png);
    expect(await scaleScreenshot(huge)).toMatchObject({ ok: false, error: { code: 'TOO_LARGE' } });
    // A header claiming 5000x5000 (25 Mpx) is refused before any decoding.
    const claim = Buffer.from(png);
    claim.writeUInt32BE(5000, 16);
    claim.writeUInt32BE(5000, 20);
    expect(await scaleScreenshot(claim)).toMatchObject({
      ok: false,
      error: { code: 'TOO_LARGE', message: expect.stringContaining('5000x5000') },
    });
  });

  it('reports a PNG that cannot be decoded as a tool error, not a crash', async () => {
    const png = await stripes(2000, 1000);
    const broken = Buffer.from(png.subarray(0, 200));
    expect(await scaleScreenshot(broken)).toMatchObject({ ok: false, error: { code: 'IMAGE_FAILED' } });
  });
});

describe('annotateScreenshot', () => {
  it('draws a numbered box for each row where the element is, with a legend of tree paths', async () => {
    const parsed = parseUiDump(
      readFileSync(new URL('../../../../tests/fixtures/ui/launcher-pixel.xml', import.meta.url)),
    );
    if (!parsed.ok) {
      throw new Error(parsed.error.message);
    }
    const rows = interactiveRows(parsed.value).rows;
    const white = await sharp({ create: { width: 1080, height: 1794, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const scaled = await scaleScreenshot(white, { max_dimension: 1280, format: 'png' });
    if (!scaled.ok) {
      throw new Error(scaled.error.message);
    }
    const { image, scale, imageWidth, imageHeight } = scaled.value;
    expect([imageWidth, imageHeight]).toEqual([771, 1280]);
    const r = await annotateScreenshot(image, rows, scale);
    if (!r.ok) {
      throw new Error(r.error.message);
    }
    expect(r.value.legend).toEqual(rows.map((x) => ({ n: x.n, tree_path: x.tree_path, label: x.label })));
    expect(r.value.legend.find((e) => e.n === 5)).toEqual({
      n: 5,
      tree_path: '0.0.0.0.0.4.0.1',
      label: 'Chrome',
    });
    const { data, info } = await sharp(r.value.png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([771, 1280]);
    const pixel = (x: number, y: number): number[] => {
      const o = (y * info.width + x) * info.channels;
      return [data[o] ?? -1, data[o + 1] ?? -1, data[o + 2] ?? -1];
    };
    const hex = (c: string): number[] => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
    // The left edge of box 5 (Chrome), half way down, is drawn in box 5's colour.
    const chrome = rows[4];
    if (chrome === undefined) {
      throw new Error('no row 5');
    }
    const x = Math.round(chrome.bounds.left / scale) + 1;
    const y = Math.round(chrome.center.y / scale);
    const want = hex(ANNOTATION_COLORS[4] ?? '');
    pixel(x, y).forEach((v, i) => expect(Math.abs(v - (want[i] ?? 0))).toBeLessThan(40));
    // Inside the box, away from its edges and tag, the image is untouched.
    expect(pixel(Math.round(chrome.center.x / scale), Math.round(chrome.bounds.bottom / scale) - 10)).toEqual(
      [255, 255, 255],
    );
  });

  it('refuses a non-PNG and a bad scale', async () => {
    expect(await annotateScreenshot(Buffer.from('nope'), [], 1)).toMatchObject({
      ok: false,
      error: { code: 'NOT_PNG' },
    });
    const png = await stripes(10, 10);
    expect(await annotateScreenshot(png, [], 0)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    });
  });
});
