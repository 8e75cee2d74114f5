/**
 * The on-device helper: Appium's UiAutomator2 server (Apache-2.0), from the pinned npm package
 * `appium-uiautomator2-server` — its two APKs, nothing downloaded at run time. The server APK
 * (`io.appium.uiautomator2.server`) holds the code; its androidTest APK
 * (`io.appium.uiautomator2.server.test`) is the instrumentation that runs it:
 * `am instrument -w … io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner`
 * (the test APK's manifest names AndroidJUnitRunner with targetPackage io.appium.uiautomator2.server).
 * It listens on device port 6790 (ServerConfig.DEFAULT_SERVER_PORT) and answers WebDriver-style
 * JSON under /wd/hub (AppiumServlet). Installing it is the person's decision: `droidbus helper`.
 */
import { pmValues } from './parsers/pm-lines.js';
import { createReadStream, statSync } from 'node:fs';
import { SERVER_APK_PATH, TEST_APK_PATH, version as HELPER_VERSION } from 'appium-uiautomator2-server';
import type { Device } from './device.js';
import { HELPER_START_LOG, READS, readCommand } from './reads.js';
import { sh, type ShellCommand } from '../adb/shell-command.js';

export { HELPER_VERSION };
export const HELPER_PACKAGE = 'io.appium.uiautomator2.server';
export const HELPER_TEST_PACKAGE = 'io.appium.uiautomator2.server.test';
export const HELPER_INSTRUMENTATION = `${HELPER_TEST_PACKAGE}/androidx.test.runner.AndroidJUnitRunner`;
/** The port the server listens on, on the device. */
export const HELPER_DEVICE_PORT = 6790;

/** What a device has of the helper. */
export interface HelperState {
  serial: string;
  /** Both APKs are installed. */
  installed: boolean;
  /** versionName of the installed server APK, or null. */
  version: string | null;
  /**
   * Whether droidbus uses it as it is: the version this droidbus ships, or a newer one of the same
   * major version (Appium installed it; replacing it would be a downgrade the package manager refuses).
   */
  current: boolean;
  /** Which of the two packages are there. */
  packages: { server: boolean; test: boolean };
  /** A process of the server runs (its instrumentation was started). */
  running: boolean;
}

/**
 * The start command. The server's UiAutomation is lent by the `am` process that ran `am instrument`
 * (ActivityManagerService.startInstrumentation takes its IUiAutomationConnection), so that process
 * must live as long as the server: `-w` keeps it waiting, and `nohup … &` lets it outlive the adb
 * shell that started it — and so the droidbus process — as public scripts run long instrumentations
 * (`adb shell "nohup am instrument -w … > log 2>&1 &"`). The command returns at once.
 */
export function instrumentCommand(): ShellCommand {
  // DISABLE_SUPPRESS_ACCESSIBILITY_SERVICES: the server's UiAutomation leaves the person's
  // accessibility services (TalkBack) bound (ServerInstrumentation.setAccessibilityServiceState).
  // The log is removed first: an earlier instrumentation, ended by this start, still writes its
  // result to the file it opened, which must not read as this start's.
  return sh`rm -f ${HELPER_START_LOG}; nohup am instrument -w -e DISABLE_SUPPRESS_ACCESSIBILITY_SERVICES true -e disableAnalytics true ${HELPER_INSTRUMENTATION} > ${HELPER_START_LOG} 2>&1 &`;
}

/** Reads what the device has of the helper. */
export async function helperState(device: Device, signal?: AbortSignal): Promise<HelperState> {
  const opts = { signal, timeoutMs: 20_000 };
  const list = (await device.shell(readCommand(READS.packages), opts)).stdout;
  const names = new Set(pmValues(list));
  const packages = { server: names.has(HELPER_PACKAGE), test: names.has(HELPER_TEST_PACKAGE) };
  let version: string | null = null;
  if (packages.server) {
    const dump = (await device.shell(readCommand(READS.packageDump, { package: HELPER_PACKAGE }), opts))
      .stdout;
    version = /versionName=(\S+)/.exec(dump)?.[1] ?? null;
  }
  const pids = (
    await device.shell(readCommand(READS.pidOf, { package: HELPER_PACKAGE }), opts)
  ).stdout.trim();
  return {
    serial: device.serial,
    installed: packages.server && packages.test,
    version,
    current: version !== null && usable(version),
    packages,
    running: /\d/.test(pids),
  };
}

/** `10.6.6` → [10, 6, 6]; missing parts are 0. */
function versionParts(v: string): number[] {
  return v
    .split(/[.-]/)
    .slice(0, 3)
    .map((p) => Number.parseInt(p, 10) || 0);
}

/** The version this droidbus ships, or a newer one with the same major version (the routes droidbus uses). */
export function usable(version: string): boolean {
  const [a, b] = [versionParts(version), versionParts(HELPER_VERSION)];
  if (a[0] !== b[0]) {
    return false;
  }
  for (let i = 1; i < 3; i++) {
    if (a[i]! !== b[i]!) {
      return a[i]! > b[i]!;
    }
  }
  return true;
}

function apkSource(path: string): { size: number; chunks: AsyncIterable<Uint8Array> } {
  return { size: statSync(path).size, chunks: createReadStream(path) };
}

/**
 * Installs (or updates) both APKs; returns the package manager's answers. A newer server of the same
 * major version already there (Appium's driver installed it) is kept and used: installing ours over
 * it is INSTALL_FAILED_VERSION_DOWNGRADE, and the driver would only put its own back.
 */
export async function installHelper(device: Device): Promise<string[]> {
  const answers: string[] = [];
  for (const path of [SERVER_APK_PATH, TEST_APK_PATH]) {
    // The client throws on a `Failure [...]` answer; its message carries the reason.
    const answer = await device
      .install(apkSource(path), { timeoutMs: 180_000 })
      .catch((err: unknown) => (err instanceof Error ? err.message : String(err)));
    if (/Success/.test(answer)) {
      answers.push(answer);
      continue;
    }
    if (path === SERVER_APK_PATH && /INSTALL_FAILED_VERSION_DOWNGRADE/.test(answer)) {
      const installed = (await helperState(device)).version;
      if (installed !== null && usable(installed)) {
        answers.push(`kept the installed server ${installed}, newer than ${HELPER_VERSION}`);
        continue;
      }
    }
    throw new Error(`installing ${path.slice(path.lastIndexOf('/') + 1)} failed: ${answer}`);
  }
  return answers;
}

/** Stops the server and uninstalls both APKs; returns what `pm uninstall` said for each. */
export async function removeHelper(device: Device): Promise<string[]> {
  await device.shell(sh`am force-stop ${HELPER_PACKAGE}`, { timeoutMs: 20_000 });
  const answers: string[] = [];
  for (const pkg of [HELPER_TEST_PACKAGE, HELPER_PACKAGE]) {
    const r = await device.shell(sh`pm uninstall ${pkg}`, { timeoutMs: 60_000 });
    answers.push(`${pkg}: ${(r.stdout + r.stderr).trim()}`);
  }
  return answers;
}
