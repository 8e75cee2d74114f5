/**
 * What a device has installed for a package, read once for every actor that asks (the retrace
 * actor matching a crash to its build, the sessions actor confirming an install): `pm path`, then
 * `sha256sum` of the single APK on the device; split APKs are named, not hashed. When the device
 * cannot hash its APK (no sha256sum, a permission error), its versionCode and lastUpdateTime from
 * `dumpsys package` say what they can.
 */
import { pmValues } from '../device/parsers/pm-lines.js';
import { READS } from '../device/reads.js';
import { deviceOf } from '../device/adb-instance.js';

export type DeviceApk =
  | { kind: 'hash'; sha256: string; path: string }
  | { kind: 'not_installed' }
  | { kind: 'split'; paths: string[] }
  | { kind: 'cannot_hash'; reason: string; version_code: number | null; last_update_ms: number | null };

/** The package's APK on the device (see the module comment). Throws when the device cannot be asked. */
export async function deviceApk(serial: string, pkg: string, signal: AbortSignal): Promise<DeviceApk> {
  const device = deviceOf(serial);
  const paths = await device.read(
    READS.apkPaths,
    { package: pkg },
    {
      signal,
      timeoutMs: 15_000,
    },
  );
  const apks = pmValues(paths.stdout);
  if (apks.length === 0 && (paths.exitCode === 0 || paths.exitCode === 1 || paths.exitCode === null)) {
    return { kind: 'not_installed' };
  }
  if (apks.length > 1) {
    return { kind: 'split', paths: apks };
  }
  let reason = `pm path exited ${paths.exitCode}`;
  if (apks.length === 1) {
    const apk = apks[0]!;
    const hashed = await device.read(
      READS.apkHash,
      { apk },
      {
        signal,
        timeoutMs: 30_000,
      },
    );
    const sha = /^([0-9a-f]{64})\b/.exec(hashed.stdout.trim())?.[1];
    if (sha && (hashed.exitCode === 0 || hashed.exitCode === null)) {
      return { kind: 'hash', sha256: sha, path: apk };
    }
    reason =
      (hashed.stderr || hashed.stdout).trim().split('\n')[0]?.slice(0, 200) ||
      `sha256sum exited ${hashed.exitCode}`;
  }
  const dump = await device.read(
    READS.packageDump,
    { package: pkg },
    {
      signal,
      timeoutMs: 15_000,
    },
  );
  const versionCode = /versionCode=(\d+)/.exec(dump.stdout)?.[1];
  const lastUpdate = /lastUpdateTime=([0-9-]+ [0-9:]+)/.exec(dump.stdout)?.[1];
  return {
    kind: 'cannot_hash',
    reason,
    version_code: versionCode ? Number(versionCode) : null,
    last_update_ms: lastUpdate ? Date.parse(lastUpdate.replace(' ', 'T')) : null,
  };
}
