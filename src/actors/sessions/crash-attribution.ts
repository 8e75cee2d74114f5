/**
 * Which install a crash belongs to. A crash is added to the open session of its device and package,
 * whose install droidbus recorded; it is `verified` when the device confirms that install is what
 * crashed: the crashed process started after the install (its `Start proc` line is later than the
 * package's lastUpdateTime, both on the device's clock — an install kills the app, so every process
 * after it runs the new APK), or the APK the device has now still has the installed hash. An APK
 * that differs, or a package that is gone, means the session's install is no longer on the device.
 */
import type { InstallRecord } from '../../bus/messages/app-events.js';
import type { CrashContext } from '../../bus/messages/logcat.js';
import type { Attribution } from '../../bus/messages/sessions.js';
import { deviceApk as readDeviceApk } from '../device-apk.js';
import type { DeviceApk } from '../device-apk.js';
import { formatLogTime } from '../logcat/logcat-time.js';

/** The package's APK on the device; a device that cannot be asked is a `cannot_hash` with why. */
export async function deviceApk(serial: string, pkg: string, signal: AbortSignal): Promise<DeviceApk> {
  try {
    return await readDeviceApk(serial, pkg, signal);
  } catch (err) {
    return {
      kind: 'cannot_hash',
      reason: err instanceof Error ? err.message : String(err),
      version_code: null,
      last_update_ms: null,
    };
  }
}

/** The outcome for a crash: its attribution, and why the session's install is gone when it is. */
export interface AttributionOutcome {
  attribution: Attribution;
  /** Set when the device shows the session's install is no longer there. */
  closeBecause: string | null;
}

/** Confirmed by the crashed process's start, without asking the device; null when that cannot say. */
export function attributeByProcessStart(
  install: InstallRecord,
  context: CrashContext,
  pid: number,
): Attribution | null {
  const start = context.process_start;
  const installedAt = install.device_last_update_ms;
  if (start === null || installedAt === null || start.ts <= 0) {
    return null;
  }
  if (start.ts + 999 < installedAt) {
    // lastUpdateTime has whole seconds: a start within that second still counts as after it.
    return null;
  }
  return {
    method: 'install_record',
    verified: true,
    reason: `pid ${pid} started at ${start.time} (Start proc), after the install (the package's lastUpdateTime ${formatLogTime(installedAt)})`,
  };
}

/** The attribution from the device's APK check. */
export function attributeByDeviceApk(install: InstallRecord, apk: DeviceApk): AttributionOutcome {
  switch (apk.kind) {
    case 'hash':
      if (apk.sha256 === install.apk_sha256) {
        return {
          attribution: {
            method: 'install_record',
            verified: true,
            reason: `the device's APK still has the installed SHA-256 (${apk.sha256.slice(0, 12)})`,
          },
          closeBecause: null,
        };
      }
      return {
        attribution: {
          method: 'unattributed',
          verified: false,
          reason: `the device has another APK (SHA-256 ${apk.sha256.slice(0, 12)}) than the one droidbus installed (${install.apk_sha256.slice(0, 12)}): it was installed outside droidbus`,
        },
        closeBecause: `the app was reinstalled outside droidbus (the device's APK is ${apk.sha256.slice(0, 12)})`,
      };
    case 'not_installed':
      return {
        attribution: {
          method: 'unattributed',
          verified: false,
          reason: `${install.package} is no longer installed on ${install.device}`,
        },
        closeBecause: 'the app was uninstalled',
      };
    case 'split':
      return {
        attribution: {
          method: 'install_record',
          verified: false,
          reason: `attributed to droidbus's install record; the device has a split APK (${apk.paths.length} parts), which droidbus cannot hash`,
        },
        closeBecause: null,
      };
    case 'cannot_hash':
      return {
        attribution: {
          method: 'install_record',
          verified: false,
          reason: `attributed to droidbus's install record; the device could not confirm it (${apk.reason})`,
        },
        closeBecause: null,
      };
    default: {
      const never: never = apk;
      throw new Error(`unknown APK check ${String(never)}`);
    }
  }
}
