/**
 * What an agent gets from `screenshot` per `format`: bytes, host time to encode, and how small text
 * reads at the default 1,280 px long edge. A 1080x2400 UI-like screen with text from 24 to 48 px (11 to
 * 22 sp at 420 dpi) is scaled as the tool scales it, then encoded as PNG (the default), JPEG and WebP
 * at the tool's quality; a crop of the smallest lines of each is written to docs/screenshots/ to look at.
 *
 *   npx tsx bench/screenshot-formats.ts
 */
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { scaleScreenshot } from '../src/actors/device/index.js';
import { LOSSY_QUALITY } from '../src/actors/device/screenshot/screenshot-task.js';
import { quantile, timeLoop } from './stats.js';

sharp.cache(false);
const W = 1080;
const H = 2400;
const parts = [
  `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
  `<rect width="${W}" height="80" fill="#1a73e8"/>`,
];
let y = 140;
for (const px of [24, 28, 32, 36, 42, 48]) {
  for (let i = 0; i < 4; i++) {
    parts.push(
      `<text x="40" y="${y}" font-family="DejaVu Sans" font-size="${px}" fill="${i % 2 ? '#5f6368' : '#202124'}">${px}px: Sign in with your account · Forgot password? 0123456789</text>`,
    );
    y += Math.round(px * 1.6);
  }
  parts.push(`<rect x="40" y="${y}" width="1000" height="2" fill="#dadce0"/>`);
  y += 30;
}
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${parts.join('')}</svg>`;
const capture = new Uint8Array(await sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer());

const median = async (runs: number, fn: () => Promise<unknown>): Promise<number> =>
  quantile(await timeLoop(runs, fn, 1), 0.5);

const scaled = await scaleScreenshot(capture, {});
if (!scaled.ok) {
  throw new Error(scaled.error.message);
}
const png = scaled.value.png;
const scaleMs = await median(15, () => scaleScreenshot(capture, {}));
const encoders = {
  png: async () => png,
  jpeg: async () => new Uint8Array(await sharp(png).jpeg({ quality: LOSSY_QUALITY }).toBuffer()),
  webp: async () => new Uint8Array(await sharp(png).webp({ quality: LOSSY_QUALITY, effort: 2 }).toBuffer()),
};
console.log(
  `capture ${W}x${H}, ${capture.length} bytes; scaled to ${scaled.value.imageWidth}x${scaled.value.imageHeight} in ${scaleMs.toFixed(1)} ms (median)`,
);
console.log('format  bytes     base64 chars  encode ms (after scaling)');
const crop = { left: 0, top: 40, width: 576, height: 300 };
for (const [name, encode] of Object.entries(encoders)) {
  const out = await encode();
  const ms = name === 'png' ? 0 : await median(15, encode);
  console.log(
    `${name.padEnd(6)}  ${String(out.length).padEnd(8)}  ${String(Math.ceil(out.length / 3) * 4).padEnd(12)}  ${ms.toFixed(1)}`,
  );
  const view = await sharp(out)
    .extract(crop)
    .resize({ width: crop.width * 2, kernel: 'nearest' })
    .png()
    .toBuffer();
  writeFileSync(new URL(`../docs/screenshots/format-${name}.png`, import.meta.url), view);
}
