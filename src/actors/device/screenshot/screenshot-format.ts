/**
 * The screenshot's encodings, apart from the code that encodes (which loads sharp, in the image
 * pool's thread only): the device actor reads the default here.
 */
export type ScreenshotFormat = 'png' | 'jpeg' | 'webp';

/**
 * The default encoding: JPEG. On real phones' screens at 1,024 px it is a quarter of PNG's bytes and
 * keeps as many of the words as PNG does (bench/screenshot.ts); `full_size` stays a PNG, the
 * capture byte for byte.
 */
export const DEFAULT_FORMAT: ScreenshotFormat = 'jpeg';

/** The encoding of an answer: the one asked for, else a PNG for `full_size` (the capture as it is), else the default. */
export function answerFormat(options: { format?: ScreenshotFormat; full_size?: boolean }): ScreenshotFormat {
  return options.format ?? (options.full_size === true ? 'png' : DEFAULT_FORMAT);
}

/** Quality of the lossy encodings (bench/screenshot.ts measures what it does to small text). */
export const LOSSY_QUALITY = 80;
