/**
 * Text as the simulator's screens lay it out: sizes in sp (pixels = sp × density / 160 × font
 * scale), lines broken at spaces to the width they have, each line as tall as the text style says
 * (Material 3's label-large 14/20 sp on buttons, title-large 22/28 sp on titles).
 *
 * Evidence: AOSP TypedValue.applyDimension (COMPLEX_UNIT_SP: value × DisplayMetrics.scaledDensity,
 * density × the font_scale setting; Android 14's FontScaleConverter keeps sizes up to 20 sp at
 * 1.3 within a pixel of linear); StaticLayout breaks at spaces; Roboto's advance widths (about half
 * an em for lowercase Latin, wider capitals, narrow i, l, t and punctuation) for the measure.
 * TextView with gravity center and more text than its height starts at its top and clips the rest
 * (TextView.getVerticalOffset: no offset once the text is taller than the box).
 */

const NARROW = new Set([..."iljtfr.,:;'!|I ()[]"]);
const WIDE = new Set([...'mwMW@']);

/** The width of `text` in pixels at `px` per em. */
export function textWidth(text: string, px: number): number {
  let em = 0;
  for (const ch of text) {
    em += NARROW.has(ch)
      ? 0.28
      : WIDE.has(ch)
        ? 0.85
        : ch >= 'A' && ch <= 'Z'
          ? 0.64
          : ch >= '0' && ch <= '9'
            ? 0.56
            : 0.52;
  }
  return em * px;
}

/** `text` broken into lines at most `width` pixels wide (a word wider than the line gets a line of its own). */
export function wrapText(text: string, width: number, px: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    const next = line === '' ? word : `${line} ${word}`;
    if (line !== '' && textWidth(next, px) > width) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  return line === '' ? lines : [...lines, line];
}
