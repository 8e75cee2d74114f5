import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { F, walk, type ViewNode } from './view.js';
import { wrapText } from './text-layout.js';

const PRIMARY = '#6750A4';
const OUTLINE = '#79747E';

/**
 * The theme's colours: Material 3's baseline light and dark schemes (surface, on-surface, field,
 * divider, bars), the dark one under `cmd uimode night yes` as a DayNight theme draws it. A view's
 * hard-coded text colour (ViewNode.textColor) is drawn as it is in both.
 */
interface Palette {
  surface: string;
  onSurface: string;
  field: string;
  divider: string;
  statusBar: string;
  navBar: string;
}
const LIGHT: Palette = {
  surface: '#FFFBFE',
  onSurface: '#1C1B1F',
  field: '#FFFFFF',
  divider: '#E7E0EC',
  statusBar: '#E8DEF8',
  navBar: '#F3EDF7',
};
const DARK: Palette = {
  surface: '#1C1B1F',
  onSurface: '#E6E1E5',
  field: '#2B2930',
  divider: '#49454F',
  statusBar: '#2B2930',
  navBar: '#211F26',
};
const ON_SURFACE = LIGHT.onSurface;

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function textEl(
  x: number,
  y: number,
  size: number,
  fill: string,
  text: string,
  anchor: 'start' | 'middle' = 'start',
): string {
  return `<text x="${x}" y="${y}" font-family="sans-serif" font-size="${size}" fill="${fill}" text-anchor="${anchor}" dominant-baseline="central">${esc(text)}</text>`;
}

/** What a screenshot shows besides the app's view tree. */
export interface ScreenDecor {
  width: number;
  height: number;
  density: number;
  imeShown: boolean;
  /** Text in the status bar (the clock). */
  clock: string;
  /** A dialog drawn over everything (title, message, buttons). */
  overlay?: ViewNode;
  /**
   * Pictures drawn over the tree where a WebView shows its page (PNG data URLs, screen bounds): the
   * page is the engine's to draw, as a WebView's surface is Chromium's (webview/chromium.ts).
   */
  pages?: { bounds: readonly [number, number, number, number]; png: string }[];
  /** Dark theme (`cmd uimode night yes`). */
  night?: boolean;
}

type Dp = (v: number) => number;

/**
 * A view's text laid out in lines (text-layout.ts) inside its padding and clipped to its bounds, as
 * TextView draws it: centred when it fits, from the top when it is taller than the view (the
 * lines past the bottom cut off).
 */
function drawTextBlock(
  parts: string[],
  n: ViewNode,
  fill: string,
  anchor: 'start' | 'middle',
  padX: number,
  padY: number,
): void {
  const [l, t, r, b] = n.bounds;
  const size = n.textPx!;
  const line = n.linePx ?? size;
  const lines = wrapText(n.text, r - l - 2 * padX, size);
  const box = b - t - 2 * padY;
  const total = lines.length * line;
  const top = total <= box ? t + padY + (box - total) / 2 : t + padY;
  const id = `clip-${l}-${t}-${r}-${b}`;
  parts.push(
    `<clipPath id="${id}"><rect x="${l}" y="${t}" width="${r - l}" height="${b - t}"/></clipPath><g clip-path="url(#${id})">`,
  );
  lines.forEach((text, i) => {
    const x = anchor === 'middle' ? l + (r - l) / 2 : l + padX;
    parts.push(textEl(x, top + i * line + line / 2, size, fill, text, anchor));
  });
  parts.push('</g>');
}

/** A text view (or a leaf's description): a launcher icon with its label, else the text. */
function drawLabel(
  parts: string[],
  n: ViewNode,
  dp: Dp,
  size: number,
  inToolbar: boolean,
  pal: Palette,
): void {
  const [l, t, r, b] = n.bounds;
  const bw = r - l;
  const cy = t + (b - t) / 2;
  const label = n.text !== '' ? n.text : n.desc;
  if (n.pkg.includes('launcher') && (n.flags & F.CLICKABLE) !== 0) {
    const radius = Math.min(bw, b - t) * 0.25;
    const icon = textEl(
      l + bw / 2,
      t + radius + dp(8),
      Math.round(radius),
      '#FFFFFF',
      label.charAt(0).toUpperCase(),
      'middle',
    );
    parts.push(
      `<circle cx="${l + bw / 2}" cy="${t + radius + dp(8)}" r="${radius}" fill="${PRIMARY}"/>`,
      icon,
    );
    parts.push(textEl(l + bw / 2, b - dp(14), dp(12), pal.onSurface, label, 'middle'));
    return;
  }
  parts.push(textEl(l + dp(16), cy, size, inToolbar ? '#FFFFFF' : (n.textColor ?? pal.onSurface), label));
  if ((n.flags & F.CLICKABLE) !== 0 && n.id.endsWith(':id/item_title')) {
    parts.push(`<rect x="${l}" y="${b - 1}" width="${bw}" height="1" fill="${pal.divider}"/>`);
  }
}

/** One view of `tree` as Material-ish shapes: toolbar, button, image button, field, checkbox, web view, text. */
function drawView(parts: string[], tree: ViewNode, n: ViewNode, dp: Dp, pal: Palette): void {
  const [l, t, r, b] = n.bounds;
  const bw = r - l;
  const bh = b - t;
  if (bw <= 0 || bh <= 0) {
    return;
  }
  const size = Math.max(8, Math.min(Math.round(bh * 0.42), dp(16)));
  const cy = t + bh / 2;
  if (n.id.endsWith(':id/toolbar')) {
    parts.push(`<rect x="${l}" y="${t}" width="${bw}" height="${bh}" fill="${PRIMARY}"/>`);
    return;
  }
  const inToolbar = tree !== n && isInside(tree, n, (p) => p.id.endsWith(':id/toolbar'));
  const cls = n.cls;
  const focused = (n.flags & F.FOCUSED) !== 0;
  if (/Button$/.test(cls) && !/ImageButton$/.test(cls) && !/RadioButton$/.test(cls)) {
    const fill = (n.flags & F.ENABLED) !== 0 ? PRIMARY : '#C9C5CA';
    parts.push(
      `<rect x="${l}" y="${t}" width="${bw}" height="${bh}" rx="${Math.round(bh / 2)}" fill="${fill}"/>`,
    );
    if (n.textPx !== undefined) {
      drawTextBlock(parts, n, '#FFFFFF', 'middle', dp(16), dp(6));
    } else {
      parts.push(textEl(l + bw / 2, cy, size, '#FFFFFF', n.text, 'middle'));
    }
  } else if (/ImageButton$/.test(cls)) {
    const glyph = n.desc === 'Navigate up' ? '\u2190' : '\u25CF';
    parts.push(
      textEl(l + bw / 2, cy, Math.round(bh * 0.5), inToolbar ? '#FFFFFF' : pal.onSurface, glyph, 'middle'),
    );
  } else if ((n.flags & F.EDITABLE) !== 0) {
    parts.push(
      `<rect x="${l + 1}" y="${t + 1}" width="${bw - 2}" height="${bh - 2}" rx="${dp(4)}" fill="${pal.field}" stroke="${focused ? PRIMARY : OUTLINE}" stroke-width="${focused ? 4 : 2}"/>`,
    );
    parts.push(textEl(l + dp(16), cy, size, pal.onSurface, n.text));
  } else if ((n.flags & F.CHECKABLE) !== 0) {
    const box = Math.min(bh - 4, dp(20));
    const fill = (n.flags & F.CHECKED) !== 0 ? PRIMARY : '#FFFFFF';
    parts.push(
      `<rect x="${l}" y="${cy - box / 2}" width="${box}" height="${box}" rx="${dp(2)}" fill="${fill}" stroke="${OUTLINE}" stroke-width="2"/>`,
    );
    parts.push(textEl(l + box + dp(16), cy, size, pal.onSurface, n.text));
  } else if (/WebView$/.test(cls)) {
    parts.push(`<rect x="${l}" y="${t}" width="${bw}" height="${bh}" fill="#F3F0F4"/>`);
    parts.push(textEl(l + bw / 2, t + dp(48), size, OUTLINE, n.text, 'middle'));
  } else if (n.textPx !== undefined && n.text !== '') {
    drawTextBlock(parts, n, inToolbar ? '#FFFFFF' : (n.textColor ?? pal.onSurface), 'start', 0, 0);
  } else if (n.text !== '' || (n.desc !== '' && n.children.length === 0)) {
    drawLabel(parts, n, dp, size, inToolbar, pal);
  }
}

/** The soft keyboard above the nav bar: three rows of keys and a space bar. */
function drawKeyboard(parts: string[], w: number, h: number, dp: Dp): void {
  const kh = Math.round(h * 0.36);
  const top = h - dp(48) - kh;
  parts.push(`<rect x="0" y="${top}" width="${w}" height="${kh}" fill="#E8EAED"/>`);
  const rows = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
  const keyH = Math.floor(kh / 4.6);
  rows.forEach((row, ri) => {
    const keyW = Math.floor(w / 10);
    const offset = Math.floor((w - keyW * row.length) / 2);
    for (let i = 0; i < row.length; i++) {
      const x = offset + i * keyW;
      const y = top + dp(8) + ri * (keyH + dp(6));
      parts.push(
        `<rect x="${x + 3}" y="${y}" width="${keyW - 6}" height="${keyH}" rx="${dp(6)}" fill="#FFFFFF"/>`,
      );
      parts.push(
        textEl(x + keyW / 2, y + keyH / 2, Math.round(keyH * 0.45), ON_SURFACE, row.charAt(i), 'middle'),
      );
    }
  });
  const y = top + dp(8) + 3 * (keyH + dp(6));
  parts.push(
    `<rect x="${Math.round(w * 0.25)}" y="${y}" width="${Math.round(w * 0.5)}" height="${keyH}" rx="${dp(6)}" fill="#FFFFFF"/>`,
  );
}

/** An SVG picture of the screen: status bar, the view tree as boxes and text, nav bar, keyboard. */
export function screenSvg(root: ViewNode, decor: ScreenDecor): string {
  const { width: w, height: h } = decor;
  const dp: Dp = (v) => Math.round((v * decor.density) / 160);
  const pal = decor.night === true ? DARK : LIGHT;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    `<rect width="${w}" height="${h}" fill="${pal.surface}"/>`,
  ];
  const drawTree = (tree: ViewNode): void => {
    for (const n of walk(tree)) {
      drawView(parts, tree, n, dp, pal);
    }
  };
  drawTree(root);
  for (const page of decor.pages ?? []) {
    const [l, t, r, b] = page.bounds;
    parts.push(
      `<image x="${l}" y="${t}" width="${r - l}" height="${b - t}" preserveAspectRatio="none" href="${page.png}"/>`,
    );
  }
  if (decor.overlay !== undefined) {
    parts.push(`<rect width="${w}" height="${h}" fill="#000000" fill-opacity="0.32"/>`);
    const [l, t, r, b] = decor.overlay.bounds;
    parts.push(`<rect x="${l}" y="${t}" width="${r - l}" height="${b - t}" rx="${dp(28)}" fill="#ECE6F0"/>`);
    drawTree(decor.overlay);
  }
  const statusH = dp(24);
  parts.push(`<rect width="${w}" height="${statusH}" fill="${pal.statusBar}"/>`);
  parts.push(textEl(dp(16), statusH / 2, dp(14), pal.onSurface, decor.clock));
  if (decor.imeShown) {
    drawKeyboard(parts, w, h, dp);
  }
  parts.push(`<rect y="${h - dp(48)}" width="${w}" height="${dp(48)}" fill="${pal.navBar}"/>`);
  parts.push(
    `<rect x="${Math.round(w / 2 - dp(54))}" y="${h - dp(26)}" width="${dp(108)}" height="${dp(4)}" rx="${dp(2)}" fill="${pal.onSurface}"/>`,
  );
  parts.push('</svg>');
  return parts.join('');
}

function isInside(root: ViewNode, target: ViewNode, pred: (n: ViewNode) => boolean): boolean {
  const visit = (n: ViewNode, inside: boolean): boolean | null => {
    const now = inside || pred(n);
    if (n === target) {
      return inside;
    }
    for (const c of n.children) {
      const r = visit(c, now);
      if (r !== null) {
        return r;
      }
    }
    return null;
  };
  return visit(root, false) === true;
}

const CACHE_LIMIT = 12;
const pngCache = new Map<string, Promise<Uint8Array>>();

/**
 * Renders an SVG to PNG in sharp's thread pool. Identical screens (many devices on the same
 * screen) share one rendering.
 */
export function renderPng(svg: string): Promise<Uint8Array> {
  const key = createHash('sha1').update(svg).digest('base64');
  const hit = pngCache.get(key);
  if (hit !== undefined) {
    pngCache.delete(key);
    pngCache.set(key, hit);
    return hit;
  }
  const job = sharp(Buffer.from(svg))
    .png({ compressionLevel: 6 })
    .toBuffer()
    .then((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
  pngCache.set(key, job);
  job.catch(() => pngCache.delete(key));
  while (pngCache.size > CACHE_LIMIT) {
    const oldest = pngCache.keys().next().value;
    if (oldest === undefined) {
      break;
    }
    pngCache.delete(oldest);
  }
  return job;
}

/** Raw RGBA pixels of an SVG (what `screencap` without -p writes after its header). */
export async function renderRaw(svg: string): Promise<Uint8Array> {
  const b = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}
