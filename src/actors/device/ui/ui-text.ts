/**
 * Screen texts as droidbus hands them on. Structured fields carry a text exactly as the device gave
 * it — a price `2\u00a0500 ₽` keeps its no-break space, a two-line label its newline — so a text
 * copied from an answer finds its element again. One-line renderings (a hierarchy row, a label)
 * escape what would break the line or hide in it: `\n`, `\r`, `\t` as those two characters, other
 * control characters and the line and paragraph separators as `\uXXXX`. Matching forgives what an
 * agent's copy may have lost: texts are also compared with every whitespace run (no-break spaces
 * and the escapes above included) as one space.
 */

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `s` on one line: control characters escaped, everything else as it is. */
export function oneLine(s: string): string {
  return s.replace(CONTROL, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `s` cut to `max` characters (an ellipsis in the last), never inside a surrogate pair. */
export function clip(s: string, max: number): string {
  if (s.length <= max) {
    return s;
  }
  let keep = max - 1;
  if (/[\uD800-\uDBFF]/.test(s.charAt(keep - 1))) {
    keep--;
  }
  return `${s.slice(0, keep)}…`;
}

/** `s` for loose comparison: the escapes oneLine writes and every whitespace run as one space, trimmed. */
export function looseText(s: string): string {
  return s
    .replace(/\\[nrt]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
