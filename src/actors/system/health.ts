import { readNetworkRoutes } from '../../store/network-routes.js';
import { readDeviceConfigChanges } from '../../store/device-config-changes.js';
import { isProcessAlive } from '../../util/process-info.js';
import { isGradlewStandIn } from '../../project/gradlew-stand-in.js';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HealthReport, JavaCheck } from '../../bus/messages/system.js';
import { locateAdb, locateSdk } from '../../adb/sdk.js';
import { runProcess } from '../../util/exec.js';
import { executableNames, isExecutable, which } from '../../util/which.js';

/** How long a version probe (`java -version`, `adb version`) may take. */
const TOOL_PROBE_TIMEOUT_MS = 5_000;

const JAVA_INSTALL_HINT =
  "Install JDK 17 or newer (Debian/Ubuntu: sudo apt install openjdk-17-jdk; macOS: brew install openjdk@17; or Android Studio's bundled JBR) and set JAVA_HOME to it.";
const SDK_INSTALL_HINT =
  'Install the Android SDK (Android Studio, or the command-line tools from developer.android.com/studio) and set ANDROID_HOME to its folder.';
const ADB_INSTALL_HINT =
  'Install Android SDK Platform-Tools (sdkmanager "platform-tools"; Debian/Ubuntu: sudo apt install adb; macOS: brew install android-platform-tools).';

/** `org.gradle.java.home` from a gradle.properties file, or null. */
function javaHomeFromGradleProperties(file: string): string | null {
  try {
    const text = readFileSync(file, 'utf8');
    const m = /^\s*org\.gradle\.java\.home\s*[=:]\s*(.+)$/m.exec(text);
    return m?.[1] ? m[1].trim().replace(/\\(.)/g, '$1') : null;
  } catch {
    return null;
  }
}

function javaIn(home: string): string | null {
  for (const name of executableNames('java')) {
    const bin = path.join(home, 'bin', name);
    if (isExecutable(bin)) {
      return bin;
    }
  }
  return null;
}

/** Parses `java -version` output: the quoted version and its major number (1.8 → 8). */
export function parseJavaVersion(output: string): { version: string; major: number } | null {
  const m = /version "([^"]+)"/.exec(output) ?? /^(?:openjdk|java) (\d[\w.+-]*)/m.exec(output);
  if (!m?.[1]) {
    return null;
  }
  const version = m[1];
  const parts = version.split(/[.+_-]/);
  const first = Number(parts[0]);
  const major = first === 1 ? Number(parts[1]) : first;
  return Number.isFinite(major) ? { version, major } : null;
}

/**
 * The JDK Gradle would use, as Gradle picks it: `org.gradle.java.home` in the user's
 * gradle.properties, then the project's (trusted projects only), then JAVA_HOME, then java on PATH.
 */
export async function checkJava(projectRoot: string | null, trusted: boolean): Promise<JavaCheck> {
  const candidates: { home: string | null; bin: string | null; source: JavaCheck['source'] }[] = [];
  const gradleUserHome = process.env['GRADLE_USER_HOME'] ?? path.join(os.homedir(), '.gradle');
  const userHome = javaHomeFromGradleProperties(path.join(gradleUserHome, 'gradle.properties'));
  if (userHome) {
    candidates.push({ home: userHome, bin: javaIn(userHome), source: 'user_gradle_properties' });
  }
  if (projectRoot && trusted) {
    const projectHome = javaHomeFromGradleProperties(path.join(projectRoot, 'gradle.properties'));
    if (projectHome) {
      candidates.push({ home: projectHome, bin: javaIn(projectHome), source: 'project_gradle_properties' });
    }
  }
  const envHome = process.env['JAVA_HOME'];
  if (envHome) {
    candidates.push({ home: envHome, bin: javaIn(envHome), source: 'java_home' });
  }
  const onPath = which('java');
  candidates.push({ home: null, bin: onPath, source: onPath ? 'path' : null });

  const chosen = candidates.find((c) => c.bin !== null);
  if (!chosen?.bin) {
    const badHome = candidates.find((c) => c.home !== null);
    return {
      ok: false,
      java_home: badHome?.home ?? null,
      source: badHome?.source ?? null,
      bin: null,
      version: null,
      major_version: null,
      warning: null,
      hint: badHome ? `${badHome.home} has no bin/java. ${JAVA_INSTALL_HINT}` : JAVA_INSTALL_HINT,
    };
  }
  const probe = await runProcess(chosen.bin, ['-version'], { timeoutMs: TOOL_PROBE_TIMEOUT_MS });
  const parsed = parseJavaVersion(probe.stderr + '\n' + probe.stdout);
  if (!parsed) {
    return {
      ok: false,
      java_home: chosen.home,
      source: chosen.source,
      bin: chosen.bin,
      version: null,
      major_version: null,
      warning: null,
      hint: probe.timedOut
        ? `${chosen.bin} -version did not answer within ${TOOL_PROBE_TIMEOUT_MS / 1000} s.`
        : `${chosen.bin} -version printed no version. ${JAVA_INSTALL_HINT}`,
    };
  }
  const tooOld = parsed.major < 17;
  return {
    ok: !tooOld,
    java_home: chosen.home,
    source: chosen.source,
    bin: chosen.bin,
    version: parsed.version,
    major_version: parsed.major,
    warning: tooOld
      ? `JDK ${parsed.major} is too old: the Android Gradle Plugin 8 needs JDK 17 or newer.`
      : null,
    hint: tooOld ? JAVA_INSTALL_HINT : null,
  };
}

/** The gradle wrapper of a project and the Gradle version it pins. */
function checkWrapper(projectRoot: string | null): HealthReport['checks']['gradle_wrapper'] {
  if (!projectRoot) {
    return {
      ok: false,
      path: null,
      gradle_version: null,
      hint: 'No Android project is selected: start droidbus with --project PATH or from inside the project.',
    };
  }
  const name = process.platform === 'win32' ? 'gradlew.bat' : 'gradlew';
  const wrapper = path.join(projectRoot, name);
  let version: string | null = null;
  try {
    const props = readFileSync(
      path.join(projectRoot, 'gradle', 'wrapper', 'gradle-wrapper.properties'),
      'utf8',
    );
    version = /distributionUrl=.*gradle-([\d.]+(?:-[\w.]+)?)-(?:bin|all)\.zip/.exec(props)?.[1] ?? null;
  } catch {
    // No properties file: the wrapper check below says what is missing.
  }
  if (!existsSync(wrapper)) {
    return {
      ok: false,
      path: null,
      gradle_version: version,
      hint: `${projectRoot} has no ${name}. Generate it with \`gradle wrapper\` (or open the project in Android Studio once).`,
    };
  }
  if (!isExecutable(wrapper)) {
    return {
      ok: false,
      path: wrapper,
      gradle_version: version,
      hint: `${wrapper} is not executable. Run: chmod +x ${JSON.stringify(wrapper)}`,
    };
  }
  return {
    ok: true,
    path: wrapper,
    gradle_version: version,
    hint: null,
    ...(isGradlewStandIn(wrapper) ? { stand_in: true } : {}),
  };
}

/** The whole health report: Java, the SDK, adb and the Gradle wrapper. */
export async function runHealthCheck(projectRoot: string | null, trusted: boolean): Promise<HealthReport> {
  const sdk = locateSdk(projectRoot, trusted);
  const [java, adbCheck] = await Promise.all([checkJava(projectRoot, trusted), checkAdb(sdk.path)]);
  const wrapper = checkWrapper(projectRoot);
  const android_sdk = {
    ok: sdk.path !== null,
    path: sdk.path,
    source: sdk.source,
    tried: sdk.tried,
    hint: sdk.path ? null : SDK_INSTALL_HINT,
  };
  const routes = checkNetworkRoutes();
  const display = checkDisplayChanges();
  return {
    all_ok:
      java.ok &&
      android_sdk.ok &&
      adbCheck.ok &&
      (projectRoot === null || wrapper.ok) &&
      routes.ok &&
      display.ok,
    project_root: projectRoot,
    trusted,
    checks: {
      java,
      android_sdk,
      adb: adbCheck,
      gradle_wrapper: wrapper,
      retrace: {
        ok: true,
        engine: 'droidbus built-in (TypeScript; no JDK or SDK retrace needed)',
        hint: null,
      },
      network_routes: routes,
      display_changes: display,
    },
  };
}

/** The devices whose display configuration droidbus changed (store/device-config-changes.ts). */
function checkDisplayChanges(): NonNullable<HealthReport['checks']['display_changes']> {
  const devices = readDeviceConfigChanges().map((c) => ({
    serial: c.serial,
    settings: c.settings,
    state: isProcessAlive(c.pid) ? ('changed' as const) : ('left' as const),
  }));
  return leftOnDevices(
    devices,
    (left) =>
      `${left.map((d) => `${d.serial} (${d.settings.join(', ')})`).join(', ')}: changed by a droidbus that died; droidbus gives the values back as soon as it runs while the device is online`,
  );
}

/** A check of what droidbus did to devices: it fails while a droidbus that died left any of it. */
function leftOnDevices<D extends { state: string }>(
  devices: D[],
  hint: (left: D[]) => string,
): { ok: boolean; devices: D[]; hint: string | null } {
  const left = devices.filter((d) => d.state === 'left');
  return { ok: left.length === 0, devices, hint: left.length === 0 ? null : hint(left) };
}

/** The devices a network capture routed, from the record every capture writes (store/network-routes.ts). */
function checkNetworkRoutes(): HealthReport['checks']['network_routes'] {
  const devices = readNetworkRoutes().map((r) => ({
    serial: r.serial,
    proxy: `127.0.0.1:${r.port}`,
    state: isProcessAlive(r.pid) ? ('capturing' as const) : ('left' as const),
    previous: r.previous,
  }));
  return leftOnDevices(
    devices,
    (left) =>
      `${left.map((d) => d.serial).join(', ')} still ${left.length === 1 ? 'points' : 'point'} at the proxy of a droidbus that died mid-capture; droidbus gives ${left.length === 1 ? 'it' : 'them'} the old setting back as soon as it runs while ${left.length === 1 ? 'that device is' : 'they are'} online (or: adb shell settings put global http_proxy :0)`,
  );
}

async function checkAdb(sdkPath: string | null): Promise<HealthReport['checks']['adb']> {
  const adb = locateAdb(sdkPath);
  if (!adb) {
    return { ok: false, path: null, version: null, hint: ADB_INSTALL_HINT };
  }
  const probe = await runProcess(adb, ['version'], { timeoutMs: TOOL_PROBE_TIMEOUT_MS });
  const version = /Android Debug Bridge version ([\d.]+)/.exec(probe.stdout)?.[1] ?? null;
  const build = /^Version (\S+)/m.exec(probe.stdout)?.[1];
  return {
    ok: version !== null,
    path: adb,
    version: version ? (build ? `${version} (${build})` : version) : null,
    hint: version
      ? null
      : `${adb} version printed no version: ${probe.spawnError ?? probe.stderr.trim().slice(0, 200)}`,
  };
}
