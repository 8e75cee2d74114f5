/**
 * Screenshot sizing for the `screenshot` tool. The capture (`screencap -p`) is checked to be a PNG
 * and measured from its IHDR chunk without decoding; a capture whose long edge already fits
 * `max_dimension` (or any capture with `full_size`) is returned byte for byte when a PNG is asked
 * for; a larger one is decoded, resized and encoded in the format asked for in one libvips pipeline
 * (sharp). On real phones' screens (bench/screenshot.ts, tests/fixtures/screenshots) that pipeline
 * took 32 ms (median) where area-averaging rows in JS as the PNG inflated took 49, for the same
 * words kept.
 */
import sharp, { type Sharp } from 'sharp';
import { answerFormat, LOSSY_QUALITY, type ScreenshotFormat } from './screenshot-format.js';

export type { ScreenshotFormat } from './screenshot-format.js';
import type { UiResult } from '../../../device/ui-dump/ui-types.js';
import { uiFail } from '../../../device/ui-dump/ui-types.js';

/**
 * The default long edge: 1,024 px. A 1080×2400 screen is then 461×1024, 630 image tokens (983 at
 * 1,280), and small text keeps its words (bench/screenshot.ts: the words tesseract reads at full
 * size, kept at 1,024 as at 1,280 — 93 % median over the real captures).
 */
export const DEFAULT_MAX_DIMENSION = 1024;
export const MIN_MAX_DIMENSION = 256;
export const MAX_MAX_DIMENSION = 8192;
/** Captures larger than this are refused before anything is decoded. */
export const MAX_SCREENSHOT_BYTES = 32 * 1024 * 1024;
/** 16 Mpx: the largest capture decoded. */
export const MAX_SCREENSHOT_PIXELS = 16_000_000;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** What a PNG's IHDR says. */
export interface PngInfo {
  width: number;
  height: number;
  bit_depth: number;
  color_type: number;
  interlace: number;
}

/** Reads a PNG's size from its signature and IHDR chunk; `NOT_PNG` for anything else. */
export function readPngInfo(png: Uint8Array): UiResult<PngInfo> {
  if (png.length < 33 || PNG_SIGNATURE.some((b, i) => png[i] !== b)) {
    const head = Buffer.from(png.subarray(0, 16))
      .toString('latin1')
      .replace(/[^\x20-\x7e]/g, '.');
    return uiFail(
      'NOT_PNG',
      `the capture is not a PNG (${png.length} bytes, starting ${JSON.stringify(head)})`,
    );
  }
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const length = view.getUint32(8);
  const type = String.fromCharCode(png[12] ?? 0, png[13] ?? 0, png[14] ?? 0, png[15] ?? 0);
  if (type !== 'IHDR' || length !== 13) {
    return uiFail('NOT_PNG', 'the capture has a PNG signature but no IHDR chunk first');
  }
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  if (width === 0 || height === 0) {
    return uiFail('NOT_PNG', `the PNG claims an empty size ${width}x${height}`);
  }
  return {
    ok: true,
    value: { width, height, bit_depth: png[24] ?? 0, color_type: png[25] ?? 0, interlace: png[28] ?? 0 },
  };
}

export interface ScreenshotOptions {
  /** Long edge of the returned image in pixels: default DEFAULT_MAX_DIMENSION, from 256 to 8,192. */
  max_dimension?: number;
  /** Return the capture as it is. Cannot be combined with `max_dimension`. */
  full_size?: boolean;
  /** The encoding of the answer (DEFAULT_FORMAT; PNG with full_size). */
  format?: ScreenshotFormat;
}

/** The metadata the `screenshot` tool returns beside the image (names as in the reference). */
export interface ScreenshotMeta {
  /** The capture's size: the screen in its current rotation, the space `ui_tap` uses. */
  deviceWidth: number;
  deviceHeight: number;
  imageWidth: number;
  imageHeight: number;
  /** Device pixels per image pixel (1 when not resized). */
  scale: number;
  hint: string;
}

export interface ScaledScreenshot extends ScreenshotMeta {
  image: Uint8Array;
  format: ScreenshotFormat;
  /** False when the image has the capture's size (and is the capture itself, byte for byte, as a PNG). */
  resized: boolean;
}

/** Checks the options the way the tool must (`invalid_argument` on failure). */
export function checkScreenshotOptions(options: ScreenshotOptions): UiResult<number | null> {
  if (options.full_size === true && options.max_dimension !== undefined) {
    return uiFail('INVALID_ARGUMENT', 'pass either max_dimension or full_size, not both');
  }
  if (options.full_size === true) {
    return { ok: true, value: null };
  }
  const max = options.max_dimension ?? DEFAULT_MAX_DIMENSION;
  if (!Number.isInteger(max) || max < MIN_MAX_DIMENSION || max > MAX_MAX_DIMENSION) {
    return uiFail(
      'INVALID_ARGUMENT',
      `max_dimension must be a whole number from ${MIN_MAX_DIMENSION} to ${MAX_MAX_DIMENSION}, got ${String(max)}`,
    );
  }
  return { ok: true, value: max };
}

function hint(scale: number): string {
  if (scale === 1) {
    return 'Image pixels are device pixels: pass image coordinates to ui_tap as they are. Prefer ui_tap_element with a tree_path from get_ui_hierarchy or find_ui_elements.';
  }
  return `Image coordinates are scaled: multiply them by ${scale} to get device coordinates for ui_tap, or use ui_tap_element with a tree_path from get_ui_hierarchy or find_ui_elements.`;
}

/** Sizes a capture for the model (see the module comment). Errors: INVALID_ARGUMENT, NOT_PNG, TOO_LARGE, IMAGE_FAILED. */
export async function scaleScreenshot(
  png: Uint8Array,
  options: ScreenshotOptions = {},
): Promise<UiResult<ScaledScreenshot>> {
  const checked = checkScreenshotOptions(options);
  if (!checked.ok) {
    return checked;
  }
  if (png.length > MAX_SCREENSHOT_BYTES) {
    return uiFail(
      'TOO_LARGE',
      `the capture is ${png.length} bytes; captures over ${MAX_SCREENSHOT_BYTES} bytes (32 MiB) are refused`,
    );
  }
  const info = readPngInfo(png);
  if (!info.ok) {
    return info;
  }
  const { width, height } = info.value;
  if (width * height > MAX_SCREENSHOT_PIXELS) {
    return uiFail('TOO_LARGE', `the capture is ${width}x${height}; captures over 16 Mpx are refused`);
  }
  const max = checked.value;
  const format = answerFormat(options);
  const long = Math.max(width, height);
  try {
    if (max === null || long <= max) {
      const image = format === 'png' ? png : await encodeImage(sharp(png), format);
      return { ok: true, value: { image, format, resized: false, ...meta(width, height, width, height, 1) } };
    }
    const ratio = long / max;
    const outW = width >= height ? max : Math.max(1, Math.round(width / ratio));
    const outH = height > width ? max : Math.max(1, Math.round(height / ratio));
    const image = await encodeImage(
      sharp(png, { limitInputPixels: MAX_SCREENSHOT_PIXELS }).resize(outW, outH, { kernel: 'lanczos3' }),
      format,
    );
    const scale = Math.round(ratio * 10_000) / 10_000;
    return { ok: true, value: { image, format, resized: true, ...meta(width, height, outW, outH, scale) } };
  } catch (e) {
    return uiFail(
      'IMAGE_FAILED',
      `the capture could not be ${format === 'png' ? 'resized' : `made a ${format}`}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

function meta(
  deviceWidth: number,
  deviceHeight: number,
  imageWidth: number,
  imageHeight: number,
  scale: number,
): ScreenshotMeta {
  return { deviceWidth, deviceHeight, imageWidth, imageHeight, scale, hint: hint(scale) };
}

/**
 * Encodes pixels once. PNG at zlib level 2: 4–8 % more bytes than level 6 in half the time (8 → 4.6
 * ms on a list screen, 26 → 12 ms on a page of small text, both 576×1280); the model is billed by
 * pixels, not bytes. JPEG keeps full-resolution chroma (4:4:4) so thin coloured text does not bleed.
 */
export async function encodeImage(image: Sharp, format: ScreenshotFormat): Promise<Uint8Array> {
  const out = await (
    format === 'png'
      ? image.png({ compressionLevel: 2 })
      : format === 'jpeg'
        ? image.jpeg({ quality: LOSSY_QUALITY, chromaSubsampling: '4:4:4' })
        : image.webp({ quality: LOSSY_QUALITY, effort: 2 })
  ).toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
