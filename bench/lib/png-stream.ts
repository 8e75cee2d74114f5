/**
 * PNG rows as they inflate, without libvips. A screenshot is scaled while it is decoded (see
 * AreaAverager), so its pixels are never all in memory: decoded by sharp, each capture was ~10 MB
 * of pixels in libvips' and glibc's per-thread memory, and a process that took screenshots in a
 * loop held 100–200 MB more than one that did not. Android's `screencap -p` writes
 * 8-bit non-interlaced RGBA; gray, gray+alpha and RGB at 8 bits are read too, and anything else
 * (palettes, 16 bits, interlacing) is left to sharp by the caller.
 */
import { createInflate } from 'node:zlib';

/** Bytes per pixel of the 8-bit colour types read here: gray, RGB, gray+alpha, RGBA. */
const CHANNELS_OF_COLOR_TYPE: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/** A PNG that cannot be read (truncated, corrupt, a filter that does not exist). */
export class PngStreamError extends Error {}

export interface PngHeader {
  width: number;
  height: number;
  bit_depth: number;
  color_type: number;
  interlace: number;
}

/** Channels when `forEachPngRow` reads this PNG, else null (the caller decodes it another way). */
export function streamableChannels(header: PngHeader): number | null {
  if (header.bit_depth !== 8 || header.interlace !== 0) {
    return null;
  }
  return CHANNELS_OF_COLOR_TYPE[header.color_type] ?? null;
}

/** The IDAT payloads, in order, up to IEND. The signature and IHDR were checked by the caller. */
function imageData(png: Uint8Array): Uint8Array[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const parts: Uint8Array[] = [];
  let at = 8;
  for (;;) {
    if (at + 12 > png.length) {
      throw new PngStreamError(`the PNG is truncated: it ends at byte ${png.length} without an IEND chunk`);
    }
    const length = view.getUint32(at);
    const type = String.fromCharCode(png[at + 4]!, png[at + 5]!, png[at + 6]!, png[at + 7]!);
    const end = at + 12 + length;
    if (end > png.length) {
      throw new PngStreamError(`the PNG is truncated: its ${type} chunk at byte ${at} runs past the end`);
    }
    if (type === 'IDAT') {
      parts.push(png.subarray(at + 8, at + 8 + length));
    } else if (type === 'IEND') {
      return parts;
    }
    at = end;
  }
}

/**
 * Undoes one scanline's filter into `cur`, given the previous row. `line` is the scanline: its
 * filter type, then the filtered bytes. The first pixel has no left neighbour, so each loop does it
 * apart rather than test for it on every byte.
 */
function unfilter(line: Uint8Array, prev: Uint8Array, cur: Uint8Array, bpp: number): void {
  const n = cur.length;
  const x = line.subarray(1);
  // Stores into a Uint8Array wrap modulo 256, which is the arithmetic the filters are defined in.
  switch (line[0]) {
    case 0:
      cur.set(x);
      return;
    case 1:
      cur.set(x.subarray(0, bpp));
      for (let i = bpp; i < n; i++) {
        cur[i] = x[i]! + cur[i - bpp]!;
      }
      return;
    case 2:
      for (let i = 0; i < n; i++) {
        cur[i] = x[i]! + prev[i]!;
      }
      return;
    case 3:
      for (let i = 0; i < bpp; i++) {
        cur[i] = x[i]! + (prev[i]! >> 1);
      }
      for (let i = bpp; i < n; i++) {
        cur[i] = x[i]! + ((cur[i - bpp]! + prev[i]!) >> 1);
      }
      return;
    case 4:
      // Paeth, with no left and upper-left neighbours for the first pixel: the upper one.
      for (let i = 0; i < bpp; i++) {
        cur[i] = x[i]! + prev[i]!;
      }
      for (let i = bpp; i < n; i++) {
        const a = cur[i - bpp]!;
        const b = prev[i]!;
        const c = prev[i - bpp]!;
        let pa = b - c;
        let pb = a - c;
        let pc = pa + pb;
        pa = pa < 0 ? -pa : pa;
        pb = pb < 0 ? -pb : pb;
        pc = pc < 0 ? -pc : pc;
        cur[i] = x[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      return;
    default:
      throw new PngStreamError(`the PNG has a scanline with filter type ${line[0]}, which does not exist`);
  }
}

/**
 * Calls `onRow` with each row of pixels (`width × channels` bytes, reused between calls), top to
 * bottom, as the image data inflates. `channels` is `streamableChannels(header)`.
 */
export async function forEachPngRow(
  png: Uint8Array,
  header: PngHeader,
  channels: number,
  onRow: (row: Uint8Array) => void,
): Promise<void> {
  const stride = header.width * channels;
  const line = new Uint8Array(stride + 1);
  let prev = new Uint8Array(stride);
  let cur = new Uint8Array(stride);
  let filled = 0;
  let rows = 0;
  const take = (chunk: Uint8Array): void => {
    for (let i = 0; i < chunk.length;) {
      const n = Math.min(stride + 1 - filled, chunk.length - i);
      line.set(chunk.subarray(i, i + n), filled);
      filled += n;
      i += n;
      if (filled === stride + 1) {
        if (rows === header.height) {
          throw new PngStreamError(`the PNG has more image data than its ${header.height} rows`);
        }
        unfilter(line, prev, cur, channels);
        onRow(cur);
        [prev, cur] = [cur, prev];
        filled = 0;
        rows++;
      }
    }
  };
  const parts = imageData(png);
  const inflate = createInflate({ chunkSize: 256 * 1024 });
  const drained = (async () => {
    for await (const chunk of inflate) {
      take(chunk as Buffer);
    }
  })();
  for (const part of parts) {
    inflate.write(part);
  }
  inflate.end();
  try {
    await drained;
  } catch (e) {
    if (e instanceof PngStreamError) {
      throw e;
    }
    throw new PngStreamError(
      `the PNG's image data does not inflate: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (rows !== header.height || filled !== 0) {
    throw new PngStreamError(`the PNG's image data ends after ${rows} of its ${header.height} rows`);
  }
}
