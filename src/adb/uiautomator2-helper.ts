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
import { createReadStream, statSync } from 'node:fs';
import { SERVER_APK_PATH, TEST_APK_PATH, version as HELPER_VERSION } from 'appium-uiautomator2-server';
import type { AdbClient } from './client.js';
import { READS, readCommand } from './device-reads.js';
import { sh, type ShellCommand } from './shell-command.js';

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
  /** Whether that is the version this droidbus ships. */
  current: boolean;
  /** Which of the two packages are there. */
  packages: { server: boolean; test: boolean };
  /** A process of the server runs (its instrumentation was started). */
  running: boolean;
}

/** The start command: `-w` keeps it running as long as the server does. */
export function instrumentCommand(): ShellCommand {
  // DISABLE_SUPPRESS_ACCESSIBILITY_SERVICES: the server's UiAutomation leaves the person's
  // accessibility services (TalkBack) bound (ServerInstrumentation.setAccessibilityServiceState).
  return sh`am instrument -w -e DISABLE_SUPPRESS_ACCESSIBILITY_SERVICES true -e disableAnalytics true ${HELPER_INSTRUMENTATION}`;
}

/** Reads what the device has of the helper. */
export async function helperState(
  client: AdbClient,
  serial: string,
  signal?: AbortSignal,
): Promise<HelperState> {
  const opts = { signal, timeoutMs: 20_000 };
  const list = (await client.shell(serial, readCommand(READS.packages), opts)).stdout;
  const names = new Set(
    list
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l.startsWith('package:'))
      .map((l) => l.slice('package:'.length)),
  );
  const packages = { server: names.has(HELPER_PACKAGE), test: names.has(HELPER_TEST_PACKAGE) };
  let version: string | null = null;
  if (packages.server) {
    const dump = (
      await client.shell(serial, readCommand(READS.packageDump, { package: HELPER_PACKAGE }), opts)
    ).stdout;
    version = /versionName=(\S+)/.exec(dump)?.[1] ?? null;
  }
  const pids = (
    await client.shell(serial, readCommand(READS.pidOf, { package: HELPER_PACKAGE }), opts)
  ).stdout.trim();
  return {
    serial,
    installed: packages.server && packages.test,
    version,
    current: version === HELPER_VERSION,
    packages,
    running: /\d/.test(pids),
  };
}

function apkSource(path: string): { size: number; chunks: AsyncIterable<Uint8Array> } {
  return { size: statSync(path).size, chunks: createReadStream(path) };
}

/** Installs (or updates) both APKs; returns the package manager's answers. */
export async function installHelper(client: AdbClient, serial: string): Promise<string[]> {
  const answers: string[] = [];
  for (const path of [SERVER_APK_PATH, TEST_APK_PATH]) {
    const answer = await client.install(serial, apkSource(path), { timeoutMs: 180_000 });
    if (!/Success/.test(answer)) {
      throw new Error(`installing ${path.slice(path.lastIndexOf('/') + 1)} failed: ${answer}`);
    }
    answers.push(answer);
  }
  return answers;
}

/** Stops the server and uninstalls both APKs; returns what `pm uninstall` said for each. */
export async function removeHelper(client: AdbClient, serial: string): Promise<string[]> {
  await client.shell(serial, sh`am force-stop ${HELPER_PACKAGE}`, { timeoutMs: 20_000 });
  const answers: string[] = [];
  for (const pkg of [HELPER_TEST_PACKAGE, HELPER_PACKAGE]) {
    const r = await client.shell(serial, sh`pm uninstall ${pkg}`, { timeoutMs: 60_000 });
    answers.push(`${pkg}: ${(r.stdout + r.stderr).trim()}`);
  }
  return answers;
}
