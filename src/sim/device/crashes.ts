import {
  sampleAnrThreadDump,
  sampleJavaCrashLines,
  sampleNativeCrashLines,
  SAMPLE_PACKAGE,
} from '../sample-app.js';
import type { Device } from './device.js';
import { REASON } from './exit-info.js';
import { hexId } from './ids.js';
import { appIdName, ensureProcess, killPackage } from './lifecycle.js';
import type { NewLogEntry } from './log/log-store.js';
import { TOMBSTONED_PID } from './log/recorded-files.js';
import { shortComponent, type InstalledPackage } from './packages.js';
import { isEmulator, fingerprint } from './props.js';

export type CrashKind = 'java' | 'native' | 'anr';

/** True for an installed build of the sample app (any variant: its classes live in com.droidbus.sample). */
function isSampleBuild(p: InstalledPackage): boolean {
  return p.info.activities.some((a) => a.startsWith(SAMPLE_PACKAGE + '.'));
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

function tombstoneTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${String(d.getUTCMilliseconds()).padStart(3, '0')}000000+0000`;
}

/** The activity of the package that is or was last in front (for ANR and force-finish lines). */
function activityOf(dev: Device, p: InstalledPackage): string {
  const task = dev.ui.taskOf(p.info.name);
  const cls =
    task?.activities[task.activities.length - 1]?.cls ?? p.info.launcher ?? `${p.info.name}.MainActivity`;
  return cls;
}

/** The crashing process and what every kind of crash logs about it. */
interface Crash {
  dev: Device;
  p: InstalledPackage;
  pkg: string;
  cls: string;
  pid: number;
  uid: number;
  now: number;
  hadTask: boolean;
  /** ActivityManager's "has died" line. */
  died: string;
}

/** An uncaught Java exception: AndroidRuntime's FATAL EXCEPTION, the activity finished, the process killed. */
function javaCrash(c: Crash): void {
  const { dev, p, pkg, cls, pid, uid, now, hadTask, died } = c;
  const entries: NewLogEntry[] = [];
  const lines = isSampleBuild(p)
    ? sampleJavaCrashLines(pid, pkg, p.info.minified)
    : genericJavaCrash(pid, pkg, cls);
  for (const message of lines) {
    entries.push({
      buffer: 'crash',
      time: now,
      pid,
      tid: pid,
      uid,
      priority: 'E',
      tag: 'AndroidRuntime',
      message,
    });
  }
  dev.log.append(entries);
  if (hadTask) {
    dev.logSystem('W', dev.activityTag, `  Force finishing activity ${shortComponent(pkg, cls)}`);
  }
  dev.logLine(pid, 'I', 'Process', `Sending signal. PID: ${pid} SIG: 9`);
  dev.logSystem('I', 'ActivityManager', died);
  killPackage(dev, pkg, { reason: REASON.CRASH, description: 'crash' });
}

/** A native crash: libc's fatal signal, crash_dump and tombstoned, the tombstone in the crash buffer. */
function nativeCrash(c: Crash): void {
  const { dev, p, pkg, pid, uid, now, died } = c;
  const entries: NewLogEntry[] = [];
  const thread = pkg.slice(-15);
  entries.push({
    buffer: 'main',
    time: now,
    pid,
    tid: pid,
    uid,
    priority: 'F',
    tag: 'libc',
    message: `Fatal signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0 in tid ${pid} (${thread}), pid ${pid} (${thread})`,
  });
  const dumper = dev.procs.allocPid();
  entries.push({
    buffer: 'main',
    time: now + 40,
    pid: dumper,
    tid: dumper,
    uid: 0,
    priority: 'I',
    tag: 'crash_dump64',
    message: 'obtaining output fd from tombstoned, type: kDebuggerdTombstoneProto',
  });
  entries.push({
    buffer: 'main',
    time: now + 41,
    pid: TOMBSTONED_PID,
    tid: TOMBSTONED_PID,
    uid: 1000,
    priority: 'I',
    tag: 'tombstoned',
    message: `received crash request for pid ${pid}`,
  });
  const tombstone = isSampleBuild(p)
    ? sampleNativeCrashLines({
        pid,
        tid: pid,
        uid,
        packageName: pkg,
        apkDir: p.info.codePath,
        fingerprint: fingerprint(dev.identity),
        abi: isEmulator(dev.identity) ? 'x86_64' : 'arm64',
        timestamp: tombstoneTime(now),
      })
    : genericTombstone(dev, pid, uid, pkg, p.info.codePath, now);
  for (const message of tombstone) {
    entries.push({
      buffer: 'crash',
      time: now + 60,
      pid: dumper,
      tid: dumper,
      uid: 0,
      priority: 'F',
      tag: 'DEBUG',
      message,
    });
  }
  entries.push({
    buffer: 'main',
    time: now + 90,
    pid: TOMBSTONED_PID,
    tid: TOMBSTONED_PID,
    uid: 1000,
    priority: 'E',
    tag: 'tombstoned',
    message: `Tombstone written to: tombstone_${two(dev.rng.int(0, 31))}`,
  });
  dev.log.append(entries);
  dev.logSystem('I', 'ActivityManager', died);
  killPackage(dev, pkg, { reason: REASON.CRASH_NATIVE, status: 11, description: 'crash' });
}

/** An ANR: ActivityManager's report with its CPU usage, then the process killed. */
function anrOf(c: Crash): void {
  const { dev, pkg, cls, pid, uid, now, died } = c;
  const component = shortComponent(pkg, cls);
  const reason = `Input dispatching timed out (${hexId(component + now)} ${pkg}/${cls} (server) is not responding. Waited 5001ms for MotionEvent)`;
  const start = new Date(now - 5312);
  const end = new Date(now);
  const stamp = (d: Date): string =>
    `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
  const anr = [
    `ANR in ${pkg} (${component})`,
    `PID: ${pid}`,
    `Reason: ${reason}`,
    `Parent: ${component}`,
    `ErrorId: ${hexId(pkg + 'a' + now)}-${hexId(pkg + 'b' + now).slice(0, 4)}-4${hexId(pkg + 'c' + now).slice(0, 3)}-a${hexId(pkg + 'd' + now).slice(0, 3)}-${hexId(pkg + 'e' + now)}${hexId(pkg + 'f' + now).slice(0, 5)}`,
    'Frozen: false',
    'Load: 2.31 / 1.85 / 1.42',
    '----- Output from /proc/pressure/memory -----',
    'some avg10=0.00 avg60=0.00 avg300=0.00 total=3148652',
    'full avg10=0.00 avg60=0.00 avg300=0.00 total=1203377',
    '----- End output from /proc/pressure/memory -----',
    '',
    `CPU usage from 0ms to 5312ms later (${stamp(start)} to ${stamp(end)}):`,
    `  48% ${pid}/${pkg}: 41% user + 7% kernel / faults: 2134 minor`,
    '  17% 1187/system_server: 11% user + 5.8% kernel / faults: 1543 minor',
    '  6.1% 512/surfaceflinger: 3.2% user + 2.9% kernel',
    '73% TOTAL: 58% user + 14% kernel + 0.3% iowait + 0.4% irq + 0.2% softirq',
  ];
  dev.log.append(
    anr.map((message) => ({
      buffer: 'system' as const,
      time: now,
      pid: 1187,
      tid: 1342,
      uid: 1000,
      priority: 'E' as const,
      tag: 'ActivityManager',
      message,
    })),
  );
  // ActivityManagerService.addErrorToDropBox (AOSP, services/core/.../am/ActivityManagerService.java):
  // Process/PID/UID/Package/Foreground/Activity/Subject/Build headers, a blank line, the report, then
  // the traces ART wrote (`----- pid N at … -----` … `----- end N -----`, as in tests/fixtures/anr).
  const traces = [
    `----- pid ${pid} at ${stamp(new Date(now - 120))} -----`,
    `Cmd line: ${pkg}`,
    `Build fingerprint: '${fingerprint(dev.identity)}'`,
    `ABI: '${isEmulator(dev.identity) ? 'x86_64' : 'arm64'}'`,
    'Build type: optimized',
    '',
    'DALVIK THREADS (2):',
    ...(isSampleBuild(c.p)
      ? sampleAnrThreadDump(pid, c.p.info.minified)
      : genericAnrThreadDump(pid, pkg, cls)),
    '',
    `----- end ${pid} -----`,
  ];
  dev.dropbox.addAnr(now, {
    uid,
    process: pkg,
    headers: [
      `PID: ${pid}`,
      `UID: ${uid}`,
      'Frozen: false',
      `Package: ${pkg} v${c.p.info.versionCode} (${c.p.info.versionName})`,
      'Foreground: Yes',
      `Activity: ${component}`,
      `Subject: ${reason}`,
      `Build: ${fingerprint(dev.identity)}`,
    ],
    report: anr.slice(6),
    traces: traces.join('\n'),
  });
  dev.logSystem(
    'I',
    'ActivityManager',
    `Killing ${pid}:${pkg}/${appIdName(uid)} (adj 0): user request after error`,
  );
  dev.logSystem('I', 'ActivityManager', died);
  killPackage(dev, pkg, { reason: REASON.ANR, description: `user request after error: ${reason}` });
}

/**
 * Another app's ANR dump: its main thread Blocked in its activity, on a lock a worker holds — the
 * thread header, `| sysTid=` detail, frame and `- waiting to lock … held by thread N` / `- locked`
 * lines as ART prints them in the real dumps of tests/fixtures/anr (OkSocket #147, EnvayaSMS #39).
 */
function genericAnrThreadDump(pid: number, pkg: string, cls: string): string[] {
  const activity = cls.startsWith('.') ? `${pkg}${cls}` : cls;
  return [
    '"main" prio=5 tid=1 Blocked',
    `  | sysTid=${pid} nice=-10 cgrp=top-app sched=0/0 handle=0x7b8e4a14f8`,
    `  at ${activity}.onResume(Unknown Source:12)`,
    `  - waiting to lock <0x0c4d2e10> (a java.lang.Object) held by thread 12`,
    '  at android.app.Activity.performResume(Activity.java:8422)',
    '  at android.os.Looper.loop(Looper.java:294)',
    '  at android.app.ActivityThread.main(ActivityThread.java:8177)',
    '',
    '"Worker" prio=5 tid=12 Sleeping',
    `  | sysTid=${pid + 11} nice=0 cgrp=top-app sched=0/0 handle=0x7a1f3fccb0`,
    '  at java.lang.Thread.sleep(Native method)',
    `  at ${pkg}.Worker.run(Unknown Source:30)`,
    '  - locked <0x0c4d2e10> (a java.lang.Object)',
    '  at java.lang.Thread.run(Thread.java:1012)',
  ];
}

/** Makes the package crash (or hang) now, logging what a device logs; false when it is not installed. */
export function crashPackage(dev: Device, pkg: string, kind: CrashKind): boolean {
  const p = dev.packages.get(pkg);
  if (p === undefined || dev.isLauncher(pkg)) {
    return false;
  }
  const cls = activityOf(dev, p);
  const { proc } = ensureProcess(dev, pkg, 'broadcast', `${pkg}/${cls}`);
  const pid = proc.pid;
  const onTop = dev.foregroundPackage() === pkg;
  const crash: Crash = {
    dev,
    p,
    pkg,
    cls,
    pid,
    uid: p.uid,
    now: Date.now(),
    hadTask: dev.ui.taskOf(pkg) !== undefined,
    died: `Process ${pkg} (pid ${pid}) has died: ${onTop ? 'fg  TOP ' : 'cch  CEM '}`,
  };
  if (kind === 'java') {
    javaCrash(crash);
  } else if (kind === 'native') {
    nativeCrash(crash);
  } else {
    anrOf(crash);
  }
  return true;
}

function genericJavaCrash(pid: number, pkg: string, cls: string): string[] {
  return [
    'FATAL EXCEPTION: main',
    `Process: ${pkg}, PID: ${pid}`,
    'java.lang.RuntimeException: Simulated crash requested with sim crash',
    `\tat ${cls}.onClick(${cls.slice(cls.lastIndexOf('.') + 1)}.java:42)`,
    '\tat android.view.View.performClick(View.java:7659)',
    '\tat android.os.Handler.handleCallback(Handler.java:958)',
    '\tat android.os.Looper.loop(Looper.java:294)',
    '\tat android.app.ActivityThread.main(ActivityThread.java:8177)',
    '\tat java.lang.reflect.Method.invoke(Native Method)',
    '\tat com.android.internal.os.ZygoteInit.main(ZygoteInit.java:971)',
  ];
}

function genericTombstone(
  dev: Device,
  pid: number,
  uid: number,
  pkg: string,
  codePath: string,
  now: number,
): string[] {
  const abi = isEmulator(dev.identity) ? 'x86_64' : 'arm64';
  return [
    '*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***',
    `Build fingerprint: '${fingerprint(dev.identity)}'`,
    "Revision: '0'",
    `ABI: '${abi}'`,
    `Timestamp: ${tombstoneTime(now)}`,
    'Process uptime: 9s',
    `Cmdline: ${pkg}`,
    `pid: ${pid}, tid: ${pid}, name: ${pkg.slice(-15)}  >>> ${pkg} <<<`,
    `uid: ${uid}`,
    'signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0000000000000000',
    'Cause: null pointer dereference',
    '2 total frames',
    'backtrace:',
    `      #00 pc 0000000000000f3c  ${codePath}/lib/${abi}/libnative.so (crash+12)`,
    `      #01 pc 0000000000355630  /apex/com.android.art/lib64/libart.so (art_quick_generic_jni_trampoline+144)`,
  ];
}
