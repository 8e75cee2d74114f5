/**
 * The neutral anchor of the screenshot benches: a 1080×2400 screen of boxes and glyph text from 24 to
 * 48 px (11 to 22 sp at 420 dpi), white with a blue bar — nobody's app, so no path is tuned to it.
 */
import sharp from 'sharp';

function anchorSvg(): string {
  const parts = [
    '<rect width="1080" height="2400" fill="#ffffff"/>',
    '<rect width="1080" height="80" fill="#1a73e8"/>',
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
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="2400">${parts.join('')}</svg>`;
}

/** The anchor as a PNG. */
export async function anchorPng(): Promise<Buffer> {
  return sharp(Buffer.from(anchorSvg())).png().toBuffer();
}
