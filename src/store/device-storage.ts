import { checkDevicePath } from '../util/device-path.js';
import { readSettings, updateSettings } from './settings.js';

/**
 * The device folders the user allowed the file tools to use, per device serial, kept in
 * settings.json. Only `droidbus storage` (a person at a terminal) changes them: no MCP tool can.
 */

/**
 * A device id as droidbus names it: the serial as adb prints it, or `LABEL/serial` with several adb
 * servers (the form the file tools' refusals ask for); kept in step with the bus's serial rule.
 */
const SERIAL_RE = /^(?:[A-Za-z][A-Za-z0-9_-]{0,31}\/)?[A-Za-z0-9._:@\-[\]%]+$/;

/** Thrown for a serial or folder the allow list refuses; the CLI prints the message. */
export class DeviceStorageError extends Error {}

function checkSerial(serial: string): string {
  if (serial.length > 200 || !SERIAL_RE.test(serial)) {
    throw new DeviceStorageError(`'${serial.slice(0, 100)}' is not a device serial as adb prints it`);
  }
  return serial;
}

/** The folder in the form it is stored: absolute, no `.`/`..`, no trailing slash, not `/` itself. */
export function normalizeAllowedDir(dir: string): string {
  const checked = checkDevicePath(dir);
  if (!checked.ok) {
    throw new DeviceStorageError(checked.message);
  }
  if (checked.path === '/') {
    throw new DeviceStorageError(
      'allowing / would open the whole device; allow the folder you mean, e.g. /sdcard/Download',
    );
  }
  return checked.path;
}

/** The allowed folders of one device (fresh from settings.json on every call). */
export function allowedDeviceDirs(serial: string): string[] {
  return [...(readSettings().device_storage[serial] ?? [])];
}

/** Every device's allowed folders. */
export function listDeviceStorage(): Record<string, string[]> {
  return readSettings().device_storage;
}

/** Allows a folder on a device (CLI only). Returns false when it was already allowed. */
export async function allowDeviceDir(serial: string, dir: string): Promise<boolean> {
  checkSerial(serial);
  const folder = normalizeAllowedDir(dir);
  let added = false;
  await updateSettings((s) => {
    const dirs = s.device_storage[serial] ?? [];
    if (!dirs.includes(folder)) {
      dirs.push(folder);
      added = true;
    }
    s.device_storage[serial] = dirs;
  });
  return added;
}

/**
 * Revokes one folder of a device, or every folder of it when `dir` is undefined (CLI only).
 * Returns the folders removed.
 */
export async function revokeDeviceDir(serial: string, dir?: string): Promise<string[]> {
  checkSerial(serial);
  const folder = dir === undefined ? undefined : normalizeAllowedDir(dir);
  let removed: string[] = [];
  await updateSettings((s) => {
    const dirs = s.device_storage[serial] ?? [];
    removed = folder === undefined ? dirs : dirs.filter((d) => d === folder);
    const kept = dirs.filter((d) => !removed.includes(d));
    if (kept.length === 0) {
      delete s.device_storage[serial];
    } else {
      s.device_storage[serial] = kept;
    }
  });
  return removed;
}
