/**
 * Annotated screenshots (`screenshot` with `annotate: true`): a numbered box over each interactive
 * element, drawn as an SVG overlay that sharp composites onto the (possibly scaled) image, plus a
 * legend from each number to the element's tree path, so a model can say "tap 7" and the tool
 * resolves 7 to a tree path.
 */
import sharp from 'sharp';
import { readPngInfo } from './screenshot-scale.js';
import type { UiBounds, UiResult } from '../../../device/ui-dump/ui-types.js';
import { uiFail } from '../../../device/ui-dump/ui-types.js';

/** What a box needs: the row number, its tree path, a label for the legend and device-pixel bounds. */
export interface AnnotationRow {
  n: number;
  tree_path: string;
  label: string;
  bounds: UiBounds;
}

export interface AnnotationLegendEntry {
  n: number;
  tree_path: string;
  label: string;
}

export interface AnnotatedScreenshot {
  png: Uint8Array;
  legend: AnnotationLegendEntry[];
}

/** Box colours, cycled; each is dark enough for white digits on it. */
export const ANNOTATION_COLORS = ['#e6194b', '#3c64d8', '#1a8f3c', '#b5179e', '#d35400', '#00838f'];

/**
 * Draws numbered boxes for `rows` on `png`. `scale` is device pixels per image pixel (the
 * `screenshot` result's `scale`), so device bounds map onto the image. Boxes wholly outside the
 * image are left out of the drawing but kept in the legend.
 */
export async function annotateScreenshot(
  png: Uint8Array,
  rows: readonly AnnotationRow[],
  scale: number,
): Promise<UiResult<AnnotatedScreenshot>> {
  const info = readPngInfo(png);
  if (!info.ok) {
    return info;
  }
  if (!(scale > 0) || !Number.isFinite(scale)) {
    return uiFail('INVALID_ARGUMENT', `scale must be a positive number, got ${scale}`);
  }
  const { width, height } = info.value;
  const font = Math.max(12, Math.round(Math.min(width, height) / 36));
  const stroke = Math.max(2, Math.round(font / 8));
  const parts: string[] = [];
  for (const r of rows) {
    const x = Math.round(r.bounds.left / scale);
    const y = Math.round(r.bounds.top / scale);
    const w = Math.round((r.bounds.right - r.bounds.left) / scale);
    const h = Math.round((r.bounds.bottom - r.bounds.top) / scale);
    if (w <= 0 || h <= 0 || x >= width || y >= height || x + w <= 0 || y + h <= 0) {
      continue;
    }
    const color = ANNOTATION_COLORS[(r.n - 1) % ANNOTATION_COLORS.length] ?? '#e6194b';
    const label = String(r.n);
    const tagW = Math.round(font * (0.35 + 0.62 * label.length));
    const tagH = Math.round(font * 1.25);
    const tagX = Math.min(Math.max(0, x), Math.max(0, width - tagW));
    const tagY = Math.min(Math.max(0, y), Math.max(0, height - tagH));
    parts.push(
      `<rect x="${x + stroke / 2}" y="${y + stroke / 2}" width="${Math.max(1, w - stroke)}" height="${Math.max(1, h - stroke)}" fill="none" stroke="${color}" stroke-width="${stroke}"/>`,
      `<rect x="${tagX}" y="${tagY}" width="${tagW}" height="${tagH}" fill="${color}"/>`,
      `<text x="${tagX + tagW / 2}" y="${tagY + tagH * 0.8}" font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold" font-size="${font}" fill="#ffffff" text-anchor="middle">${label}</text>`,
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
  try {
    const out = await sharp(png)
      .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
      .png({ compressionLevel: 6 })
      .toBuffer();
    return {
      ok: true,
      value: {
        png: new Uint8Array(out.buffer, out.byteOffset, out.byteLength),
        legend: rows.map((r) => ({ n: r.n, tree_path: r.tree_path, label: r.label })),
      },
    };
  } catch (e) {
    return uiFail(
      'IMAGE_FAILED',
      `the screenshot could not be annotated: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
