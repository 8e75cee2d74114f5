/**
 * Evidence: the log lines of a start and a stop (`Start proc`, `Displayed`, `Force stopping`) as
 * ActivityMetricsLogger.java and ProcessList.java print them, seen in tests/fixtures/logcat/long-
 * emulator-api31.txt; `am start -W`'s report from ActivityManagerShellCommand.java.
 */
import type { Device } from './device.js';
import { REASON, SUBREASON } from './exit-info.js';
import { SAMPLE_PACKAGE } from '../sample-app.js';
import { hexId } from './ids.js';
import {
  deletePackageFiles,
  InstallError,
  installPaths,
  packageFromApk,
  putPackageFiles,
  RUNTIME_PERMISSIONS,
  shortComponent,
} from './packages.js';
import type { Proc } from './processes.js';
import { newActivityState, type ActivityRecord } from './ui/ui-model.js';
import { activityCreated } from './app-behaviours.js';
import { since } from './android-versions.js';

/** How an activity start went, as `am start -W` reports it. */
export interface LaunchResult {
  /** COLD/WARM/HOT, or TOP when the activity already was in front (intent delivered). */
  kind: 'COLD' | 'WARM' | 'HOT' | 'TOP';
  totalTime: number;
  waitTime: number;
  component: string;
}

/** `+812ms`, `+1s12ms`: android.util.TimeUtils.formatDuration as the `Displayed` line prints it. */
export function formatDuration(ms: number): string {
  if (ms < 1000) {
    return `+${ms}ms`;
  }
  return `+${Math.floor(ms / 1000)}s${ms % 1000}ms`;
}

/** `u0a190` for uid 10190 (the process record name ActivityManager logs). */
export function appIdName(uid: number): string {
  return uid >= 10000 ? `u0a${uid - 10000}` : String(uid);
}

/** Starts the package's process if it does not run; returns it and whether it was started now. */
export function ensureProcess(
  dev: Device,
  pkg: string,
  hostingType: string,
  component: string,
): { proc: Proc; cold: boolean } {
  const existing = dev.procs.forPackage(pkg);
  if (existing !== undefined) {
    return { proc: existing, cold: false };
  }
  const installed = dev.packages.get(pkg);
  const uid = installed?.uid ?? dev.allocUid();
  const proc = dev.procs.start(pkg, uid);
  if (installed !== undefined) {
    installed.stopped = false;
  }
  dev.logSystem(
    'I',
    'ActivityManager',
    `Start proc ${proc.pid}:${pkg}/${appIdName(uid)} for ${hostingType} {${component}}`,
  );
  dev.logLine(proc.pid, 'I', 'Zygote', `Process ${proc.pid} created for ${pkg}`);
  dev.logLine(proc.pid, 'I', pkg.slice(-15), 'Using CollectorTypeCC GC.');
  dev.logLine(
    proc.pid,
    'D',
    'CompatibilityChangeReporter',
    `Compat change id reported: 171979766; UID ${uid}; state: ENABLED`,
  );
  const codePath = installed?.info.codePath;
  if (codePath !== undefined && !installed?.info.system) {
    dev.logLine(
      proc.pid,
      'W',
      'ziparchive',
      `Unable to open '${codePath}/base.dm': No such file or directory`,
    );
  }
  return { proc, cold: true };
}

function launchTimes(dev: Device, kind: LaunchResult['kind']): { total: number; wait: number } {
  const total =
    kind === 'COLD'
      ? dev.rng.int(560, 940)
      : kind === 'WARM'
        ? dev.rng.int(180, 360)
        : kind === 'HOT'
          ? dev.rng.int(40, 120)
          : -1;
  return { total, wait: (total < 0 ? 0 : total) + dev.rng.int(2, 12) };
}

/** Starts an activity the way ActivityTaskManager would, updating tasks, processes and the log. */
export function startActivity(
  dev: Device,
  pkg: string,
  cls: string,
  extras: Record<string, string> = {},
): LaunchResult {
  dev.ui.loaded = null;
  dev.ui.dialog = null;
  dev.ui.shadeOpen = false;
  const component = shortComponent(pkg, cls);
  const top = dev.ui.top();
  if (top.pkg === pkg && top.cls === cls) {
    const t = launchTimes(dev, 'TOP');
    return { kind: 'TOP', totalTime: t.total, waitTime: t.wait, component };
  }
  const hosting = since(dev.sdk, 'nextTopHosting')
    ? 'next-top-activity'
    : since(dev.sdk, 'preTopHosting')
      ? 'pre-top-activity'
      : 'activity';
  const { proc, cold } = ensureProcess(dev, pkg, hosting, `${pkg}/${cls}`);
  dev.ui.imeShown = false;
  let kind: LaunchResult['kind'];
  let task = dev.ui.taskOf(pkg);
  if (task !== undefined && task.activities[0]?.cls === cls && !cold) {
    dev.ui.raise(task);
    kind = 'HOT';
  } else {
    if (task === undefined) {
      task = dev.ui.newTask(pkg);
    } else {
      dev.ui.raise(task);
    }
    task.activities.push({
      pkg,
      cls,
      hash: hexId(`${pkg}/${cls}/${Date.now()}/${dev.rng.next()}`),
      state: newActivityState(extras),
    });
    kind = cold ? 'COLD' : 'WARM';
  }
  dev.renderFrames('launch', pkg);
  const t = launchTimes(dev, kind);
  if (kind !== 'HOT') {
    const record = dev.ui.taskOf(pkg)?.activities.at(-1);
    activityCreated(pkg, cls, {
      sdk: dev.sdk,
      services: dev.services,
      finish: () => finishActivity(dev, pkg, record),
    });
    const simple = cls.slice(cls.lastIndexOf('.') + 1);
    dev.logLine(proc.pid, 'D', 'DroidbusSample', `${simple}.onCreate`);
    const forUser = since(dev.sdk, 'displayedForUser') ? ' for user 0' : '';
    dev.logSystem('I', dev.activityTag, `Displayed ${component}${forUser}: ${formatDuration(t.total)}`);
    if (pkg === SAMPLE_PACKAGE || pkg.startsWith(`${SAMPLE_PACKAGE}.`)) {
      // The sample app (any variant of it) calls reportFullyDrawn() once its list is shown, a little
      // after the first frame.
      dev.logSystem('I', dev.activityTag, `Fully drawn ${component}: ${formatDuration(t.total + 180)}`);
    }
  }
  return { kind, totalTime: t.total, waitTime: t.wait, component };
}

/** Activity.finish of one activity record: gone from its task, and the task with its last one. */
function finishActivity(dev: Device, pkg: string, record: ActivityRecord | undefined): void {
  const task = dev.ui.taskOf(pkg);
  const at = record === undefined || task === undefined ? -1 : task.activities.indexOf(record);
  if (task === undefined || at < 0) {
    return;
  }
  task.activities.splice(at, 1);
  if (task.activities.length === 0) {
    dev.ui.tasks.splice(dev.ui.tasks.indexOf(task), 1);
  }
}

/** Importance ActivityManager would give the package's process now (100 foreground, 400 cached). */
export function importanceOf(dev: Device, pkg: string): number {
  if (dev.foregroundPackage() === pkg) {
    return 100;
  }
  return dev.ui.taskOf(pkg) !== undefined ? 200 : 400;
}

/** Kills a package's process and records why; removes its tasks. False when it did not run. */
export function killPackage(
  dev: Device,
  pkg: string,
  exit: { reason: number; subreason?: number; status?: number; description: string | null },
): boolean {
  const proc = dev.procs.forPackage(pkg);
  const importance = importanceOf(dev, pkg);
  dev.ui.removePackage(pkg);
  dev.services.dropPackage(pkg);
  if (proc === undefined || !dev.procs.kill(proc.pid)) {
    return false;
  }
  dev.exits.add({
    pkg,
    process: proc.name,
    pid: proc.pid,
    uid: proc.uid,
    reason: exit.reason,
    subreason: exit.subreason ?? SUBREASON.UNKNOWN,
    status: exit.status ?? 0,
    importance,
    pssKb: 61_000 + dev.rng.int(0, 9000),
    rssKb: 128_000 + dev.rng.int(0, 20000),
    timestamp: Date.now(),
    description: exit.description,
  });
  return true;
}

/** `am force-stop PKG`. */
export function forceStop(dev: Device, pkg: string, callerPid: number, why = `from pid ${callerPid}`): void {
  const installed = dev.packages.get(pkg);
  if (installed === undefined) {
    return;
  }
  if (pkg.startsWith('io.appium.uiautomator2.server')) {
    // Stopping the server or its test package ends the instrumentation.
    dev.stopHelper();
  }
  const proc = dev.procs.forPackage(pkg);
  dev.logSystem('I', 'ActivityManager', `Force stopping ${pkg} appid=${installed.uid} user=0: ${why}`);
  if (
    proc !== undefined &&
    proc.pkg === pkg &&
    dev.procs.byPid(proc.pid) !== undefined &&
    !dev.isLauncher(pkg)
  ) {
    dev.logSystem(
      'I',
      'ActivityManager',
      `Killing ${proc.pid}:${pkg}/${appIdName(proc.uid)} (adj 0): stop ${pkg} due to ${why}`,
    );
  }
  killPackage(dev, pkg, {
    reason: REASON.USER_REQUESTED,
    subreason: SUBREASON.FORCE_STOP,
    description: `stop ${pkg} due to ${why}`,
  });
  installed.stopped = true;
}

/** Installs APK bytes; the answer line `pm install` prints (`Success` or `Failure [...]`). */
export function installPackage(
  dev: Device,
  bytes: Uint8Array,
  opts: { allowDowngrade?: boolean; sessionId: number; grantAll?: boolean },
): string {
  const staged = `/data/app/vmdl${opts.sessionId}.tmp/base.apk`;
  let info;
  try {
    info = packageFromApk(bytes, dev.identity.serial, 0, staged);
  } catch (err) {
    return `Failure [${err instanceof InstallError ? err.message : String(err)}]`;
  }
  info = { ...info, ...installPaths(dev.identity.serial, info.name, dev.nextInstallCount(info.name)) };
  if (info.minSdk > dev.sdk) {
    return `Failure [INSTALL_FAILED_OLDER_SDK: Failed parse during installPackageLI: ${staged} (at Binary XML file line #7): Requires newer sdk version #${info.minSdk} (current version is #${dev.sdk})]`;
  }
  const existing = dev.packages.get(info.name);
  const now = Date.now();
  if (existing !== undefined) {
    if (existing.info.system) {
      return `Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: Existing package ${info.name} signatures do not match newer version; ignoring!]`;
    }
    if (info.versionCode < existing.info.versionCode && opts.allowDowngrade !== true) {
      return `Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code ${info.versionCode} is older than current ${existing.info.versionCode}]`;
    }
    dev.logSystem(
      'I',
      'ActivityManager',
      `Force stopping ${info.name} appid=${existing.uid} user=-1: installPackageLI`,
    );
    killPackage(dev, info.name, {
      reason: since(dev.sdk, 'packageUpdatedReason') ? REASON.PACKAGE_UPDATED : REASON.USER_REQUESTED,
      subreason: since(dev.sdk, 'packageUpdatedReason') ? SUBREASON.UNKNOWN : SUBREASON.PACKAGE_UPDATE,
      description: `stop ${info.name} due to installPackageLI`,
    });
    deletePackageFiles(dev.fs, existing.info);
    putPackageFiles(dev.fs, info);
    const keep = new Set([...existing.granted].filter((p) => info.permissions.includes(p)));
    dev.packages.set(info.name, { ...existing, info, lastUpdateTime: now, granted: keep, stopped: false });
  } else {
    // A newly installed app stays in the stopped state until something launches it.
    dev.addPackage(info, now).stopped = true;
  }
  if (opts.grantAll === true) {
    const installed = dev.packages.get(info.name);
    for (const perm of info.permissions) {
      if (RUNTIME_PERMISSIONS.has(perm)) {
        installed?.granted.add(perm);
      }
    }
  }
  dev.stats.installs++;
  dev.logSystem(
    'I',
    'PackageManager',
    `installPackageLI: ${info.name} versionCode=${info.versionCode} codePath=${info.codePath}`,
  );
  return 'Success';
}

/** `pm uninstall PKG`. */
export function uninstallPackage(dev: Device, pkg: string): string {
  const existing = dev.packages.get(pkg);
  if (existing === undefined || existing.info.system) {
    return 'Failure [DELETE_FAILED_INTERNAL_ERROR]';
  }
  dev.logSystem('I', 'ActivityManager', `Force stopping ${pkg} appid=${existing.uid} user=-1: uninstall pkg`);
  if (pkg.startsWith('io.appium.uiautomator2.server')) {
    dev.stopHelper();
  }
  killPackage(dev, pkg, { reason: REASON.USER_REQUESTED, description: `stop ${pkg} due to uninstall pkg` });
  deletePackageFiles(dev.fs, existing.info);
  dev.packages.delete(pkg);
  for (let i = dev.notifications.length - 1; i >= 0; i--) {
    if (dev.notifications[i]?.pkg === pkg) {
      dev.notifications.splice(i, 1);
    }
  }
  dev.logSystem('I', 'PackageManager', `deletePackageX: pkg=${pkg} user=-1`);
  return 'Success';
}

/** `pm clear PKG`: data gone, runtime permissions reset, process killed. */
export function clearPackage(dev: Device, pkg: string): boolean {
  const existing = dev.packages.get(pkg);
  if (existing === undefined) {
    return false;
  }
  killPackage(dev, pkg, { reason: REASON.USER_REQUESTED, description: 'clear data' });
  existing.granted.clear();
  dev.logSystem('I', 'ActivityManager', `Force stopping ${pkg} appid=${existing.uid} user=0: clear data`);
  return true;
}
