/**
 * Device paths as tools and `droidbus storage` accept them: absolute, without `.` or `..`
 * components, empty components, control characters, lone surrogates or bidirectional controls. The
 * device still resolves every path with
 * `realpath` before anything is read or written; this is the shape check before that.
 */

/** The longest device path accepted. */
export const MAX_DEVICE_PATH = 1024;

/** A high surrogate without its low half, or a low one without its high half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export type DevicePathCheck = { ok: true; path: string } | { ok: false; message: string };

/** Checks a device path and returns it without a trailing slash (`/sdcard/Download/` → `/sdcard/Download`). */
export function checkDevicePath(raw: string): DevicePathCheck {
  if (raw.length === 0 || raw.length > MAX_DEVICE_PATH) {
    return { ok: false, message: `a device path must be 1 to ${MAX_DEVICE_PATH} characters long` };
  }

  if (/[\u0000-\u001f\u007f]/.test(raw)) {
    return { ok: false, message: 'a device path may not contain line breaks or control characters' };
  }
  if (LONE_SURROGATE.test(raw)) {
    // A lone surrogate has no UTF-8 form: the device would get U+FFFD, a file of another name.
    return { ok: false, message: 'a device path may not contain a lone surrogate (it has no UTF-8 form)' };
  }
  if (/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(raw)) {
    // Bidirectional controls make a listing show a name other than the one it is (CVE-2021-42574).
    return {
      ok: false,
      message:
        'a device path may not contain bidirectional control characters (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C)',
    };
  }
  if (!raw.startsWith('/')) {
    return { ok: false, message: `'${raw.slice(0, 100)}' is not absolute: device paths start with /` };
  }
  const path = raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw;
  if (path === '/') {
    return { ok: true, path };
  }
  const parts = path.slice(1).split('/');
  for (const part of parts) {
    if (part === '') {
      return { ok: false, message: `'${raw.slice(0, 100)}' has an empty component (//)` };
    }
    if (part === '.' || part === '..') {
      return { ok: false, message: `'${raw.slice(0, 100)}' has a '${part}' component; give the path itself` };
    }
  }
  return { ok: true, path };
}

/** True when `path` is `root` or inside it (both canonical, no trailing slash). */
export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root === '/' ? '/' : `${root}/`);
}
