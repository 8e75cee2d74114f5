import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { crc32 } from '../../src/util/apk-zip.js';
import { describe, expect, it } from 'vitest';
import { forEachPngRow, PngStreamError, streamableChannels } from '../../bench/lib/png-stream.js';
import { readPngInfo, scaleScreenshot } from '../../src/actors/device/screenshot/screenshot-scale.js';

/** sharp writes and reads gray as RGB unless told the colour space. */
const gray = (channels: number) => channels <= 2;

/** Gray pixels as libvips hands them out: R = G = B = the gray, alpha kept. */
function asRgb(px: Buffer, channels: number): Buffer {
  if (!gray(channels)) {
    return px;
  }
  const out: number[] = [];
  for (let i = 0; i < px.length; i += channels) {
    out.push(px[i]!, px[i]!, px[i]!, ...(channels === 2 ? [px[i + 1]!] : []));
  }
  return Buffer.from(out);
}

/** Noisy pixels with edges and gradients, so an encoder's adaptive filtering uses every filter type. */
function pixels(width: number, height: number, channels: number): Buffer {
  const px = Buffer.alloc(width * height * channels);
  let s = 12345;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) {
        s = (s * 1103515245 + 12345) >>> 0;
        const edge = (Math.floor(x / 9) + Math.floor(y / 4)) % 2 === 0 ? 200 : 30;
        px[(y * width + x) * channels + c] = y % 7 === 0 ? s >>> 24 : (edge + x * (c + 1) + y) & 0xff;
      }
    }
  }
  return px;
}

function header(png: Uint8Array) {
  const info = readPngInfo(png);
  if (!info.ok) {
    throw new Error(info.error.message);
  }
  return info.value;
}

async function decodeRows(png: Uint8Array): Promise<Buffer> {
  const h = header(png);
  const channels = streamableChannels(h);
  if (channels === null) {
    throw new Error('not streamable');
  }
  const rows: Buffer[] = [];
  await forEachPngRow(png, h, channels, (row) => rows.push(Buffer.from(row)));
  expect(rows).toHaveLength(h.height);
  return Buffer.concat(rows);
}

describe('forEachPngRow', () => {
  it('reads every 8-bit colour type and every filter exactly as libvips does', async () => {
    for (const channels of [1, 2, 3, 4] as const) {
      const raw = pixels(61, 37, channels);
      for (const adaptiveFiltering of [false, true]) {
        const input = sharp(raw, { raw: { width: 61, height: 37, channels } });
        const png = await (gray(channels) ? input.toColourspace('b-w') : input)
          .png({ adaptiveFiltering, compressionLevel: 9 })
          .toBuffer();
        expect(streamableChannels(header(png))).toBe(channels);
        // PNG is lossless: the rows are the pixels written, and what libvips reads.
        const rows = await decodeRows(png);
        expect(Buffer.compare(rows, raw), `${channels} channels, adaptive ${adaptiveFiltering}`).toBe(0);
        const { data } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
        expect(Buffer.compare(asRgb(rows, channels), data)).toBe(0);
      }
    }
  });

  it('leaves palettes, 16 bits and interlacing to sharp', async () => {
    const raw = pixels(40, 30, 3);
    const input = { raw: { width: 40, height: 30, channels: 3 as const } };
    const palette = await sharp(raw, input).png({ palette: true }).toBuffer();
    const deep = await sharp(raw, input).toColourspace('rgb16').png().toBuffer();
    const interlaced = await sharp(raw, input).png({ progressive: true }).toBuffer();
    expect(streamableChannels(header(palette))).toBeNull();
    expect(header(deep).bit_depth).toBe(16);
    expect(streamableChannels(header(deep))).toBeNull();
    expect(header(interlaced).interlace).toBe(1);
    expect(streamableChannels(header(interlaced))).toBeNull();
    // scaleScreenshot reads them all (libvips decodes every PNG).
    for (const png of [palette, deep, interlaced]) {
      const r = await scaleScreenshot(png, { max_dimension: 256, format: 'png' });
      expect(r.ok && [r.value.imageWidth, r.value.imageHeight, r.value.resized]).toEqual([40, 30, false]);
    }
    const big = await sharp(pixels(600, 300, 3), { raw: { width: 600, height: 300, channels: 3 } })
      .png({ progressive: true })
      .toBuffer();
    const r = await scaleScreenshot(big, { max_dimension: 256, format: 'png' });
    expect(r.ok && [r.value.imageWidth, r.value.imageHeight, r.value.resized]).toEqual([256, 128, true]);
  });

  it('names what is wrong with a truncated, corrupt or badly filtered PNG', async () => {
    const png = await sharp(pixels(50, 40, 4), { raw: { width: 50, height: 40, channels: 4 } })
      .png()
      .toBuffer();
    const h = header(png);
    const read = (bytes: Uint8Array) => forEachPngRow(bytes, h, 4, () => undefined);
    await expect(read(png.subarray(0, png.length - 20))).rejects.toThrow(/truncated/);
    const idat = png.indexOf('IDAT');
    const corrupt = Buffer.from(png);
    corrupt.fill(0xff, idat + 4, idat + 40);
    await expect(read(corrupt)).rejects.toThrow(PngStreamError);
    // A scanline claiming filter type 9 (there are five, 0 to 4).
    const stride = 50 * 4;
    const filtered = Buffer.alloc(40 * (stride + 1));
    filtered[3 * (stride + 1)] = 9;
    const idatData = deflateSync(filtered);
    const chunkOf = (type: string, data: Uint8Array): Buffer => {
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const out = Buffer.alloc(body.length + 8);
      out.writeUInt32BE(data.length, 0);
      body.copy(out, 4);
      out.writeUInt32BE(crc32(body), body.length + 4);
      return out;
    };
    const bad = Buffer.concat([
      png.subarray(0, 33),
      chunkOf('IDAT', idatData),
      chunkOf('IEND', new Uint8Array(0)),
    ]);
    await expect(read(bad)).rejects.toThrow(/filter type 9/);
    // The same rows, one short.
    const short = Buffer.concat([
      png.subarray(0, 33),
      chunkOf('IDAT', deflateSync(Buffer.alloc(39 * (stride + 1)))),
      chunkOf('IEND', new Uint8Array(0)),
    ]);
    await expect(read(short)).rejects.toThrow(/after 39 of its 40 rows/);
  });
});
