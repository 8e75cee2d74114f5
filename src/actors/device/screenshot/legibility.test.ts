/**
 * The default screenshot keeps small text readable on real phones' screens (issue 58): for each raw
 * PNG capture with text (tests/fixtures/screenshots, SOURCES.md there), served as `screencap -p`
 * writes it, the words tesseract reads at full size are read again in the default answer (1,024 px,
 * JPEG) brought back to the capture's size — at least 80 % of them, and no fewer than a lossless PNG
 * of the same size keeps, less a margin for the OCR's own noise: the encoder smears nothing a PNG keeps.
 */
import { readdirSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { legibility, ocrWords } from '../../../../tests/helpers/legibility.js';
import { scaleScreenshot } from './screenshot-scale.js';

const DIR = new URL('../../../../tests/fixtures/screenshots/', import.meta.url);
// Captures a phone wrote (PNG): the JPEG-published ones carry artefacts no screencap makes.
const CAPTURES = readdirSync(DIR).filter((f) => f.endsWith('.png'));

describe('the default screenshot on real screens', () => {
  it('has real captures to judge', () => {
    expect(CAPTURES.length).toBeGreaterThanOrEqual(6);
  });

  it.each(CAPTURES)('%s: keeps the words of the capture', { timeout: 120_000 }, async (file) => {
    // As screencap -p writes it: RGBA, 8 bits.
    const capture = new Uint8Array(
      await sharp(readFileSync(new URL(file, DIR)))
        .ensureAlpha()
        .png()
        .toBuffer(),
    );
    const { width, height } = await sharp(capture).metadata();
    const reference = await ocrWords(capture);
    const shot = await scaleScreenshot(capture);
    const lossless = await scaleScreenshot(capture, { format: 'png' });
    if (!shot.ok || !lossless.ok) {
      throw new Error('the capture could not be scaled');
    }
    expect(shot.value).toMatchObject({ format: 'jpeg', resized: true });
    expect(Math.max(shot.value.imageWidth, shot.value.imageHeight)).toBe(1024);
    const kept = await legibility(reference, shot.value.image, width, height);
    if (kept === null) {
      return; // too few words at full size to judge (a compass dial, a landscape of large figures)
    }
    const keptLossless = (await legibility(reference, lossless.value.image, width, height))!;
    expect(kept, `${file}: ${reference.size} words at full size`).toBeGreaterThanOrEqual(0.8);
    expect(kept).toBeGreaterThanOrEqual(keptLossless - 0.1);
  });
});
