/**
 * What a screenshot's pixels say about a text element (check_layout, issue 74):
 *
 * * **Cut text**: a view clips its text at its bounds (TextView.onDraw clips to the view; a parent
 *   or the screen clips the view). Glyph strokes that run into an edge leave "ink" in the view's
 *   outermost rows (its top and bottom, two) or, where the screen cuts it, columns (eight: letters have
 *   gaps; a view's padding keeps text further from its side): pixels of another
 *   colour than the line's own. A line that is one colour (a background, a divider) has none. Only
 *   the middle of each edge is looked at, away from rounded corners. A line of text wholly below
 *   the view's bottom leaves no ink: it is not seen.
 * * **Contrast**: WCAG 2.x contrast ratio between the text's colour and its background inside the
 *   element: the background is the most common colour, the text the colour (of at least a few
 *   pixels) that differs most from it; AA asks 4.5:1 of normal text, 3:1 of large text (18 sp, or
 *   14 sp bold).
 */

/** Decoded pixels: `channels` bytes per pixel, rows top to bottom. */
export interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

export type Edge = 'top' | 'bottom' | 'left' | 'right';
type Bounds = readonly [number, number, number, number];

/** Colour distance (sum of channel differences) above which a pixel is ink on its row. */
const INK_DISTANCE = 120;

function rgbAt(r: Raster, x: number, y: number): [number, number, number] {
  const i = (y * r.width + x) * r.channels;
  return [r.data[i] ?? 0, r.data[i + 1] ?? 0, r.data[i + 2] ?? 0];
}

function distance(a: readonly number[], b: readonly number[]): number {
  return Math.abs(a[0]! - b[0]!) + Math.abs(a[1]! - b[1]!) + Math.abs(a[2]! - b[2]!);
}

/** The most common colour of `pixels` (quantized to 16 levels a channel, antialiasing merged). */
function modeOf(pixels: [number, number, number][]): [number, number, number] {
  const counts = new Map<number, { n: number; rgb: [number, number, number] }>();
  let best: { n: number; rgb: [number, number, number] } | undefined;
  for (const p of pixels) {
    const key = ((p[0] >> 4) << 8) | ((p[1] >> 4) << 4) | (p[2] >> 4);
    const c = counts.get(key) ?? { n: 0, rgb: p };
    c.n++;
    counts.set(key, c);
    if (best === undefined || c.n > best.n) {
      best = c;
    }
  }
  return best?.rgb ?? [0, 0, 0];
}

/** Whether one line of pixels (a row or a column along an edge) carries ink: a few, in short runs. */
function lineHasInk(pixels: [number, number, number][]): boolean {
  if (pixels.length < 8) {
    return false;
  }
  const bg = modeOf(pixels);
  const ink = pixels.map((p) => distance(p, bg) > INK_DISTANCE);
  const count = ink.filter(Boolean).length;
  return count >= 2 && count <= pixels.length * 0.7;
}

/** The edges of `b` whose outermost two lines carry ink: text cut there. */
export function inkAtEdges(r: Raster, b: Bounds): Edge[] {
  const [l, t, rt, bt] = [
    Math.max(0, Math.round(b[0])),
    Math.max(0, Math.round(b[1])),
    Math.min(r.width, Math.round(b[2])),
    Math.min(r.height, Math.round(b[3])),
  ];
  const w = rt - l;
  const h = bt - t;
  if (w < 16 || h < 8) {
    return [];
  }
  const row = (y: number): [number, number, number][] => {
    const out: [number, number, number][] = [];
    for (let x = l + Math.round(w * 0.2); x < rt - Math.round(w * 0.2); x++) {
      out.push(rgbAt(r, x, y));
    }
    return out;
  };
  const column = (x: number): [number, number, number][] => {
    const out: [number, number, number][] = [];
    for (let y = t + Math.round(h * 0.1); y < bt - Math.round(h * 0.1); y++) {
      out.push(rgbAt(r, x, y));
    }
    return out;
  };
  // Sideways, text is cut where the screen cuts the view: a view's own sides are rounded, padded
  // or iconned too often for their columns to say anything.
  const edges: [Edge, [number, number, number][][]][] = [
    ['top', [row(t), row(t + 1)]],
    ['bottom', [row(bt - 1), row(bt - 2)]],
    ...(l <= 0
      ? [['left', [0, 1, 2, 3, 4, 5, 6, 7].map((i) => column(l + i))] as [Edge, [number, number, number][][]]]
      : []),
    ...(rt >= r.width
      ? [
          ['right', [1, 2, 3, 4, 5, 6, 7, 8].map((i) => column(rt - i))] as [
            Edge,
            [number, number, number][][],
          ],
        ]
      : []),
  ];
  return edges.filter(([, lines]) => lines.some(lineHasInk)).map(([edge]) => edge);
}

/** WCAG relative luminance of an sRGB colour. */
function luminance([r, g, b]: readonly number[]): number {
  const lin = (c: number): number => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: readonly number[], b: readonly number[]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const hex = (c: readonly number[]): string => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/**
 * The contrast of the text inside `b`: its colour, its background's and their ratio; null when no
 * colour there stands out of the background (no text drawn, or an image).
 */
export function textContrast(
  r: Raster,
  b: Bounds,
): { ratio: number; text: string; background: string } | null {
  const [l, t, rt, bt] = [
    Math.max(0, Math.round(b[0]) + 2),
    Math.max(0, Math.round(b[1]) + 2),
    Math.min(r.width, Math.round(b[2]) - 2),
    Math.min(r.height, Math.round(b[3]) - 2),
  ];
  if (rt - l < 4 || bt - t < 4) {
    return null;
  }
  const counts = new Map<number, { n: number; rgb: [number, number, number] }>();
  for (let y = t; y < bt; y++) {
    for (let x = l; x < rt; x++) {
      const p = rgbAt(r, x, y);
      const key = ((p[0] >> 4) << 8) | ((p[1] >> 4) << 4) | (p[2] >> 4);
      const c = counts.get(key) ?? { n: 0, rgb: p };
      c.n++;
      counts.set(key, c);
    }
  }
  const all = [...counts.values()].sort((x, y) => y.n - x.n);
  const bg = all[0]!.rgb;
  const total = (rt - l) * (bt - t);
  // The text's colour: enough pixels not to be an antialiasing blend, the most unlike the background.
  const candidates = all
    .slice(1)
    .filter((c) => c.n >= Math.max(4, total * 0.004) && distance(c.rgb, bg) > 60);
  if (candidates.length === 0) {
    return null;
  }
  const text = candidates.reduce((best, c) =>
    contrastRatio(c.rgb, bg) > contrastRatio(best.rgb, bg) ? c : best,
  ).rgb;
  return { ratio: Math.round(contrastRatio(text, bg) * 100) / 100, text: hex(text), background: hex(bg) };
}
