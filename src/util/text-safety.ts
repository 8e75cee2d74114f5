/**
 * Text that must not reach a device or an answer as it is: an unpaired UTF-16 surrogate (no
 * character at all; Java and adb turn it into U+FFFD or garbage) and the bidirectional-text controls
 * that make a string read differently from what it holds (the "Trojan Source" characters, CVE-2021-42574:
 * LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI, and the marks LRM, RLM, ALM).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/** Why `text` may not be sent on, or null when it may. */
export function unsafeTextProblem(text: string): string | null {
  if (LONE_SURROGATE.test(text)) {
    return 'it holds an unpaired UTF-16 surrogate (half of a character)';
  }
  if (BIDI_CONTROL.test(text)) {
    return 'it holds bidirectional-text controls (U+202A–U+202E, U+2066–U+2069, LRM/RLM/ALM), which make text read differently from what it is';
  }
  return null;
}

/** `text` as an error may quote it: controls, bidi controls and unpaired surrogates as \uXXXX, cut to `max`. */
export function quotedSafely(text: string, max = 40): string {
  const cut = [...text].slice(0, max).join('');
  return cut.replace(
    /[\u0000-\u001f\u007f-\u009f\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
