/**
 * Is small text still readable after a screenshot was scaled and encoded? Tesseract (Debian's
 * tesseract-ocr) reads the words of the capture at full size, then the words of the image the
 * model would get, brought back to the capture's size (upscaling adds no detail; it only gives the
 * OCR the pixel size it was trained for). The share of the capture's words found again is the
 * image's legibility: what scaling and the encoder smeared out is gone from both the OCR and, at
 * that size, from what a model can read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { runProcess } from '../../src/util/exec.js';

/** The words (4+ letters or digits, lower-cased) tesseract reads in an image. */
export async function ocrWords(image: Uint8Array): Promise<Set<string>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'droidbus-ocr-'));
  try {
    const file = path.join(dir, 'in.png');
    writeFileSync(file, await sharp(image).png({ compressionLevel: 1 }).toBuffer());
    const r = await runProcess('tesseract', [file, 'stdout', '--psm', '3'], { timeoutMs: 60_000 });
    if (r.code !== 0) {
      throw new Error(`tesseract failed (${String(r.code)}): ${r.stderr.slice(0, 300)}`);
    }
    return new Set([...r.stdout.toLowerCase().matchAll(/[a-z0-9]{4,}/g)].map((m) => m[0]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The image brought back to `width` × `height` (Lanczos), as the OCR reads it. */
export async function atCaptureSize(image: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  return new Uint8Array(await sharp(image).resize(width, height, { kernel: 'lanczos3' }).png().toBuffer());
}

/**
 * The share of `reference`'s words the OCR finds in `image` at the capture's size, or null when the
 * capture holds too few words to judge (a map, a photo).
 */
export async function legibility(
  reference: ReadonlySet<string>,
  image: Uint8Array,
  width: number,
  height: number,
): Promise<number | null> {
  if (reference.size < 8) {
    return null;
  }
  const found = await ocrWords(await atCaptureSize(image, width, height));
  let kept = 0;
  for (const w of reference) {
    if (found.has(w)) {
      kept++;
    }
  }
  return kept / reference.size;
}
