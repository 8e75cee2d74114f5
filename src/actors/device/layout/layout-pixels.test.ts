/**
 * The pixel checks on pictures a real renderer drew (librsvg through sharp, the fonts of the
 * machine): text cut by its box's bottom, text that fits, a divider line, grey text on white.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { contrastRatio, inkAtEdges, textContrast, type Raster } from './layout-pixels.js';

async function raster(body: string, width = 400, height = 200): Promise<Raster> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fffbfe"/>${body}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: info.channels };
}

const BOX: [number, number, number, number] = [50, 50, 350, 130];
const button = (text: string, y: number): string =>
  `<rect x="50" y="50" width="300" height="80" rx="40" fill="#6750a4"/><clipPath id="c"><rect x="50" y="50" width="300" height="80"/></clipPath><g clip-path="url(#c)"><text x="200" y="${y}" font-family="sans-serif" font-size="36" fill="#ffffff" text-anchor="middle" dominant-baseline="central">${text}</text></g>`;

describe('inkAtEdges', () => {
  it('sees glyphs that run into the bottom of their box, and none in a label that fits', async () => {
    expect(inkAtEdges(await raster(button('details', 128)), BOX)).toEqual(['bottom']);
    expect(inkAtEdges(await raster(button('Open', 90)), BOX)).toEqual([]);
  });

  it('takes a one-colour line (a divider) for no text, and looks sideways only where the screen cuts', async () => {
    const divider = await raster(
      `<text x="60" y="90" font-family="sans-serif" font-size="30" fill="#1c1b1f" dominant-baseline="central">Item 1</text><rect x="0" y="129" width="400" height="1" fill="#e7e0ec"/>`,
    );
    expect(inkAtEdges(divider, [0, 50, 400, 130])).toEqual([]);
    const offScreen = await raster(
      `<text x="250" y="100" font-family="sans-serif" font-size="40" fill="#1c1b1f" dominant-baseline="central">A long label</text>`,
    );
    expect(inkAtEdges(offScreen, [200, 60, 400, 140])).toEqual(['right']);
    // The same text inside the screen: its own right side says nothing.
    expect(inkAtEdges(offScreen, [200, 60, 380, 140])).toEqual([]);
  });
});

describe('contrast', () => {
  it("is WCAG's ratio, and reads the text and background colours inside a text element", async () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([0x77, 0x77, 0x77], [255, 255, 255])).toBeCloseTo(4.48, 2);
    const grey = await raster(
      `<rect width="100%" height="100%" fill="#ffffff"/><text x="20" y="100" font-family="sans-serif" font-size="40" fill="#999999" dominant-baseline="central">Forgot password?</text>`,
    );
    const c = textContrast(grey, [10, 60, 390, 140]);
    expect(c).toMatchObject({ text: '#999999', background: '#ffffff' });
    expect(c!.ratio).toBeCloseTo(2.85, 1);
    // A plain area has no text colour.
    expect(textContrast(grey, [0, 0, 400, 40])).toBeNull();
  });
});
