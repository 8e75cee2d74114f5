/**
 * check_layout's image work, in the screenshot pool (issue 74): a configuration's findings from its
 * capture's pixels (layout-findings.ts), and one contact sheet of every configuration's screenshot
 * side by side, each captioned, its problems boxed and numbered.
 */
import sharp from 'sharp';
import type { UiTree } from '../../../device/ui-dump/ui-types.js';
import { findLayoutProblems, type LayoutFinding } from './layout-findings.js';

/** A tile of the sheet: a screenshot, its caption, and the numbered boxes drawn on it. */
export interface SheetTile {
  png: Uint8Array;
  caption: string;
  marks: { n: number; bounds: [number, number, number, number] }[];
}

const TILE_HEIGHT = 720;
const CAPTION = 44;
const GAP = 16;

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The findings of one configuration: its capture's tree and screenshot, against the first one's tree. */
export async function layoutFindings(
  png: Uint8Array,
  tree: UiTree,
  density: number,
  baseline: UiTree | null,
): Promise<LayoutFinding[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return findLayoutProblems(
    tree,
    {
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
      channels: info.channels,
    },
    density,
    baseline,
  );
}

/** One tile: the screenshot at the sheet's height, its caption above, its problems boxed and numbered. */
async function tile(t: SheetTile): Promise<{ png: Buffer; width: number }> {
  const meta = await sharp(t.png).metadata();
  const scale = TILE_HEIGHT / (meta.height ?? TILE_HEIGHT);
  const width = Math.round((meta.width ?? 0) * scale);
  const shot = await sharp(t.png).resize({ height: TILE_HEIGHT }).png().toBuffer();
  const marks = t.marks
    .map(({ n, bounds: [l, tp, r, b] }) => {
      const [x, y, w, h] = [l, tp, r - l, b - tp].map((v) => Math.round(v * scale)) as [
        number,
        number,
        number,
        number,
      ];
      const cy = Math.max(CAPTION + 12, CAPTION + y);
      return `<rect x="${x}" y="${CAPTION + y}" width="${Math.max(2, w)}" height="${Math.max(2, h)}" fill="none" stroke="#e6194b" stroke-width="3"/><circle cx="${x}" cy="${cy}" r="12" fill="#e6194b"/><text x="${x}" y="${cy + 5}" font-family="sans-serif" font-size="15" font-weight="bold" fill="#ffffff" text-anchor="middle">${n}</text>`;
    })
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${TILE_HEIGHT + CAPTION}"><rect width="100%" height="${CAPTION}" fill="#1c1b1f"/><text x="8" y="29" font-family="sans-serif" font-size="18" fill="#ffffff">${esc(t.caption)}</text>${marks}</svg>`;
  const png = await sharp({
    create: { width, height: TILE_HEIGHT + CAPTION, channels: 3, background: '#ffffff' },
  })
    .composite([
      { input: shot, top: CAPTION, left: 0 },
      { input: Buffer.from(svg), top: 0, left: 0 },
    ])
    .png()
    .toBuffer();
  return { png, width };
}

/** Every tile side by side on one sheet (JPEG). */
export async function contactSheet(tiles: SheetTile[]): Promise<Uint8Array> {
  const drawn = await Promise.all(tiles.map(tile));
  const width = drawn.reduce((s, d) => s + d.width, 0) + GAP * (drawn.length - 1);
  let left = 0;
  const composite = drawn.map((d) => {
    const at = { input: d.png, top: 0, left };
    left += d.width + GAP;
    return at;
  });
  const out = await sharp({
    create: { width: Math.max(1, width), height: TILE_HEIGHT + CAPTION, channels: 3, background: '#e0e0e0' },
  })
    .composite(composite)
    .jpeg({ quality: 82 })
    .toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
