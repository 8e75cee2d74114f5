/**
 * The URI schemes that open no app on a device: scripts, inline or local content, nested intents
 * and browser internals. `open_deep_link` and `send_intent` refuse them in `data_uri`, through this
 * one list, so the two tools can never disagree.
 */
import { unsafeTextProblem } from './text-safety.js';

export const BLOCKED_URI_SCHEMES: readonly string[] = [
  'javascript',
  'vbscript',
  'data',
  'file',
  'content',
  'intent',
  'about',
  'blob',
];

/** The longest URI a tool passes to a device. */
export const MAX_URI_LENGTH = 2048;

export type UriCheck = { ok: true; scheme: string } | { ok: false; message: string };

/**
 * Checks a URI an agent wants a device to open: it needs a scheme (RFC 3986), no whitespace or
 * control characters (which some parsers skip, hiding the real scheme), and a scheme that is not
 * in BLOCKED_URI_SCHEMES.
 */
export function checkOpenableUri(uri: string): UriCheck {
  if (uri.length === 0 || uri.length > MAX_URI_LENGTH) {
    return { ok: false, message: `a URI must be 1 to ${MAX_URI_LENGTH} characters long` };
  }
  // Whitespace and control characters are how `java\tscript:` slips past a scheme check elsewhere.

  if (/[\s\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\ufeff]/.test(uri)) {
    return { ok: false, message: 'a URI may not contain spaces, line breaks or control characters' };
  }
  const unsafe = unsafeTextProblem(uri);
  if (unsafe !== null) {
    return { ok: false, message: `a URI may not be sent as it is: ${unsafe}` };
  }
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(uri);
  if (!match) {
    return {
      ok: false,
      message: 'a URI needs a scheme (https://…, myapp://…); a bare path or host is not a URI',
    };
  }
  const scheme = match[1]!.toLowerCase();
  if (BLOCKED_URI_SCHEMES.includes(scheme)) {
    return {
      ok: false,
      message: `'${scheme}:' URIs are refused: they open no app (refused schemes: ${BLOCKED_URI_SCHEMES.join(', ')})`,
    };
  }
  return { ok: true, scheme };
}
