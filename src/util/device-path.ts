/**
 * Device paths as tools and `droidbus storage` accept them: absolute, without `.` or `..`
 * components, empty components or control characters. The device still resolves every path with
 * `realpath` before anything is read or written; this is the shape check before that.
 */

/** The longest device path accepted. */
export const MAX_DEVICE_PATH = 1024;

export type DevicePathCheck = { ok: true; path: string } | { ok: false; message: string };

/** Checks a device path and returns it without a trailing slash (`/sdcard/Download/` → `/sdcard/Download`). */
export function checkDevicePath(raw: string): DevicePathCheck {
  if (raw.length === 0 || raw.length > MAX_DEVICE_PATH) {
    return { ok: false, message: `a device path must be 1 to ${MAX_DEVICE_PATH} characters long` };
  }

  if (/[\u0000-\u001f\u007f]/.test(raw)) {
    return { ok: false, message: 'a device path may not contain line breaks or control characters' };
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
