/**
 * The device side of the stand-in's install/uninstall/connected tasks, through the real `adb`
 * client (as AGP goes through ddmlib): the devices adb lists (narrowed by ANDROID_SERIAL, as AGP
 * does), their display names, and installing or uninstalling an APK on each.
 *
 * Evidence: AGP goes through ddmlib and honours ANDROID_SERIAL
 * (https://developer.android.com/tools/variables); installs are `adb install` as the adb client runs
 * them.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface Device {
  serial: string;
  /** `Pixel 7 - 14`, as AGP names a device in its output. */
  name: string;
}

/** A device-side failure, worded as AGP's DeviceException. */
export class DeviceError extends Error {}

const running = new Set<ChildProcess>();

/** Kills the adb processes still running (the build was cancelled). */
export function killRunningAdb(): void {
  for (const child of running) {
    child.kill('SIGKILL');
  }
}

function adbPath(): string {
  const exe = process.platform === 'win32' ? 'adb.exe' : 'adb';
  for (const sdk of [process.env['ANDROID_HOME'], process.env['ANDROID_SDK_ROOT']]) {
    if (sdk && existsSync(join(sdk, 'platform-tools', exe))) {
      return join(sdk, 'platform-tools', exe);
    }
  }
  return exe;
}

function adb(args: readonly string[], timeoutMs = 120_000): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      adbPath(),
      args,
      { timeout: timeoutMs, maxBuffer: 8 * 1024 * 1024 },
      (err, stdout, stderr) => {
        running.delete(child);
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, out: `${stdout}${stderr}`.trim() });
      },
    );
    running.add(child);
  });
}

/** The online devices AGP would use: all of them, or those ANDROID_SERIAL names. */
export async function listDevices(): Promise<Device[]> {
  const { code, out } = await adb(['devices']);
  if (code !== 0) {
    throw deviceException(`Could not run adb: ${out || `exit code ${code}`}`);
  }
  const wanted = (process.env['ANDROID_SERIAL'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const serials = out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length === 2 && f[1] === 'device')
    .map((f) => f[0]!)
    .filter((s) => wanted.length === 0 || wanted.includes(s));
  if (serials.length === 0) {
    throw deviceException('No connected devices!');
  }
  return Promise.all(
    serials.map(async (serial) => {
      const props = await adb([
        '-s',
        serial,
        'shell',
        'getprop ro.product.model; getprop ro.build.version.release',
      ]);
      const [model, release] = props.out.split('\n').map((l) => l.trim());
      return { serial, name: model ? `${model} - ${release ?? ''}`.trim() : serial };
    }),
  );
}

function deviceException(message: string): DeviceError {
  return new DeviceError(`com.android.builder.testing.api.DeviceException: ${message}`);
}

/** `adb install -r -t`; throws with adb's failure text. */
export async function installApk(device: Device, apk: string): Promise<void> {
  const { code, out } = await adb(['-s', device.serial, 'install', '-r', '-t', apk]);
  if (code !== 0 || !/\bSuccess\b/.test(out)) {
    const reason = /Failure \[([^\]]+)\]/.exec(out)?.[1] ?? (out || `adb exited with ${code}`);
    throw new DeviceError(
      `java.util.concurrent.ExecutionException: com.android.builder.testing.api.DeviceException: com.android.ddmlib.InstallException: ${reason}`,
    );
  }
}

/** `adb uninstall`; a package that is not installed is not an error, as for AGP. */
export async function uninstallPackage(device: Device, pkg: string): Promise<void> {
  await adb(['-s', device.serial, 'uninstall', pkg]);
}

/**
 * Runs a test APK's instrumentation as AGP's test runner does (ddmlib's RemoteAndroidTestRunner:
 * `am instrument -w -r`, `-e debug false`); answers its output.
 */
export async function instrumentTests(
  device: Device,
  component: string,
  runnerArgs: ReadonlyMap<string, string> = new Map(),
): Promise<string> {
  const extras = [...runnerArgs].flatMap(([k, v]) => ['-e', k, v]);
  const { out } = await adb(
    [
      '-s',
      device.serial,
      'shell',
      'am',
      'instrument',
      '-w',
      '-r',
      ...extras,
      '-e',
      'debug',
      'false',
      component,
    ],
    30 * 60_000,
  );
  return out;
}
