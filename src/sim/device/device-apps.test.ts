import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { writeApk } from '../../util/apk.js';
import type { SimDevice } from '../device-api.js';
import { runOn } from './collect-io.js';
import { createSimDevice } from '../control/index.js';
import { testIdentity } from '../../../tests/helpers/sim-identity.js';

const identity = testIdentity(7003);

let dev: SimDevice;
function device(sdk = 34): SimDevice {
  dev = createSimDevice({ identity: { ...identity, sdk }, logcatRate: 0, dumpLatencyMs: 5 });
  return dev;
}
afterEach(() => dev?.close());

function demoApk(versionCode = 7, debuggable = true): Uint8Array {
  return writeApk({
    packageName: 'com.droidbus.sample.demo.debug',
    versionCode,
    versionName: `1.0.${versionCode}`,
    minSdk: 24,
    targetSdk: 34,
    label: 'Sample (demo)',
    debuggable,
    activities: [
      { name: 'com.droidbus.sample.LoginActivity', launcher: true, exported: true },
      { name: 'com.droidbus.sample.HomeActivity' },
      { name: 'com.droidbus.sample.DetailActivity' },
    ],
    permissions: ['android.permission.INTERNET', 'android.permission.CAMERA'],
  });
}

describe('activities', () => {
  it('reports COLD, then HOT, then delivered-to-top launches like am start -W', async () => {
    const d = device();
    const cold = await runOn(d, 'am start -W -n com.droidbus.sample/.LoginActivity');
    expect(cold.stdout).toMatch(
      /^Starting: Intent \{ cmp=com\.droidbus\.sample\/\.LoginActivity \}\nStatus: ok\nLaunchState: COLD\nActivity: com\.droidbus\.sample\/\.LoginActivity\nTotalTime: \d+\nWaitTime: \d+\nComplete\n$/,
    );
    await runOn(d, 'input keyevent HOME');
    const hot = await runOn(d, 'am start -W -n com.droidbus.sample/.LoginActivity');
    expect(hot.stdout).toContain(
      'Warning: Activity not started, its current task has been brought to the front\nStatus: ok\nLaunchState: HOT\n',
    );
    const top = await runOn(d, 'am start -W -n com.droidbus.sample/.LoginActivity');
    expect(top.stdout).toContain(
      'Warning: Activity not started, intent has been delivered to currently running top-most instance.\nStatus: ok\nLaunchState: UNKNOWN (0)\n',
    );
    expect(top.stdout).not.toContain('TotalTime');
    await runOn(d, 'input keyevent BACK');
    const warm = await runOn(d, 'am start -W -n com.droidbus.sample/.LoginActivity');
    expect(warm.stdout).toContain('LaunchState: WARM');
  });

  it('logs the Displayed line with the launch time', async () => {
    const d = device();
    const r = await runOn(d, 'am start -W -n com.droidbus.sample/.LoginActivity');
    const total = /TotalTime: (\d+)/.exec(r.stdout)?.[1];
    const log = (await runOn(d, 'logcat -d -s ActivityTaskManager')).stdout;
    expect(log).toContain(
      `I ActivityTaskManager: Displayed com.droidbus.sample/.LoginActivity for user 0: +${total}ms`,
    );
    const old = device(28);
    await runOn(old, 'am start -n com.droidbus.sample/.LoginActivity');
    expect((await runOn(old, 'logcat -d -s ActivityManager')).stdout).toMatch(
      /I ActivityManager: Displayed com\.droidbus\.sample\/\.LoginActivity: \+\d+ms/,
    );
  });

  it('answers an unknown component with the real error text and exit status 0', async () => {
    const r = await runOn(device(), 'am start -W -n com.droidbus.sample/.Nope');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'Starting: Intent { cmp=com.droidbus.sample/.Nope }\nError type 3\nError: Activity class {com.droidbus.sample/com.droidbus.sample.Nope} does not exist.\n',
    );
  });

  it('opens deep links, app settings and the launcher intent', async () => {
    const d = device();
    expect((await runOn(d, 'am start -a android.intent.action.VIEW -d https://example.com/a/b')).stdout).toBe(
      'Starting: Intent { act=android.intent.action.VIEW dat=https://example.com/... }\n',
    );
    expect((await runOn(d, 'dumpsys activity activities | grep ResumedActivity:')).stdout).toContain(
      'com.android.chrome/com.google.android.apps.chrome.Main',
    );
    await runOn(
      d,
      'am start -a android.settings.APPLICATION_DETAILS_SETTINGS -d package:com.droidbus.sample',
    );
    expect((await runOn(d, 'uiautomator dump /dev/tty')).stdout).toContain('text="App info"');
    const none = await runOn(d, 'am start -a android.intent.action.VIEW -d nosuch://x');
    expect(none.stderr).toBe(
      'Error: Activity not started, unable to resolve Intent { act=android.intent.action.VIEW dat=nosuch://x flg=0x10000000 }\n',
    );
    const monkey = await runOn(d, 'monkey -p com.droidbus.sample -c android.intent.category.LAUNCHER 1');
    expect(monkey.stdout).toContain('Events injected: 1\n');
    expect((await runOn(d, 'dumpsys activity top | head -n 2')).stdout).toMatch(
      /^TASK \d+:com\.droidbus\.sample id=\d+ userId=0\n {2}ACTIVITY com\.droidbus\.sample\/\.LoginActivity [0-9a-f]+ pid=\d+\n$/,
    );
  });

  it('force-stops an app, killing its process and recording the exit', async () => {
    const d = device();
    await runOn(d, 'am start -n com.droidbus.sample/.LoginActivity');
    const pid = (await runOn(d, 'pidof com.droidbus.sample')).stdout.trim();
    expect(pid).toMatch(/^\d+$/);
    await runOn(d, 'am force-stop com.droidbus.sample');
    expect((await runOn(d, 'pidof com.droidbus.sample')).code).toBe(1);
    const info = (await runOn(d, 'dumpsys activity exit-info com.droidbus.sample')).stdout;
    expect(info).toContain(`pid=${pid} realUid=`);
    expect(info).toContain('reason=10 (USER REQUESTED) subreason=21 (FORCE STOP)');
    expect((await runOn(d, 'ps -A | grep com.droidbus.sample')).code).toBe(1);
  });
});

describe('packages', () => {
  it('installs an APK streamed on stdin by cmd package install -S, as adb install does', async () => {
    const d = device();
    const apk = demoApk();
    const r = await runOn(d, `cmd package install -S ${apk.length}`, { stdin: apk });
    expect(r).toMatchObject({ code: 0, stdout: 'Success\n' });
    const path = (await runOn(d, 'pm path com.droidbus.sample.demo.debug')).stdout.trim();
    expect(path).toMatch(
      /^package:\/data\/app\/~~[A-Za-z0-9_-]{22}==\/com\.droidbus\.sample\.demo\.debug-[A-Za-z0-9_-]{22}==\/base\.apk$/,
    );
    const sha = (await runOn(d, `sha256sum ${path.slice('package:'.length)}`)).stdout.split(' ')[0];
    expect(sha).toBe(createHash('sha256').update(apk).digest('hex'));
    expect((await runOn(d, 'pm list packages -3')).stdout).toBe(
      'package:com.android.adbkeyboard\npackage:com.droidbus.sample\npackage:com.droidbus.sample.demo.debug\n',
    );
    const dumped = (await runOn(d, 'dumpsys package com.droidbus.sample.demo.debug')).stdout;
    expect(dumped).toContain('    versionCode=7 minSdk=24 targetSdk=34\n');
    expect(dumped).toContain('    versionName=1.0.7\n');
    expect(dumped).toMatch(/ {6}firstInstallTime=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\n/);
    expect(
      (await runOn(d, 'am start -W -n com.droidbus.sample.demo.debug/com.droidbus.sample.LoginActivity'))
        .stdout,
    ).toContain('LaunchState: COLD');
    expect((await runOn(d, 'uiautomator dump /dev/tty')).stdout).toContain(
      'resource-id="com.droidbus.sample.demo.debug:id/username"',
    );
  });

  it('installs through a session (install-create, install-write, install-commit) as adb install-multiple does', async () => {
    const d = device();
    const apk = demoApk(11);
    const created = await runOn(d, 'cmd package install-create -S ' + String(apk.length));
    const id = /\[(\d+)\]/.exec(created.stdout)?.[1] ?? '';
    expect(created.stdout).toBe(`Success: created install session [${id}]\n`);
    expect(
      (await runOn(d, `cmd package install-write -S ${apk.length} ${id} base.apk -`, { stdin: apk })).stdout,
    ).toBe(`Success: streamed ${apk.length} bytes\n`);
    expect((await runOn(d, `cmd package install-commit ${id}`)).stdout).toBe('Success\n');
    expect((await runOn(d, 'pm list packages --show-versioncode demo')).stdout).toBe(
      'package:com.droidbus.sample.demo.debug versionCode:11\n',
    );
  });

  it('installs from a pushed file, refuses downgrades and replaces the running app', async () => {
    const d = device();
    d.fs.write('/data/local/tmp/v9.apk', demoApk(9), 0o100644, 0);
    d.fs.write('/data/local/tmp/v3.apk', demoApk(3), 0o100644, 0);
    expect((await runOn(d, 'pm install -r -t /data/local/tmp/v9.apk')).stdout).toBe('Success\n');
    await runOn(d, 'am start -n com.droidbus.sample.demo.debug/com.droidbus.sample.LoginActivity');
    const down = await runOn(d, 'pm install -r /data/local/tmp/v3.apk');
    expect(down.code).toBe(1);
    expect(down.stderr).toBe(
      'Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code 3 is older than current 9]\n',
    );
    expect((await runOn(d, 'pm install -r -d /data/local/tmp/v3.apk')).stdout).toBe('Success\n');
    expect((await runOn(d, 'pidof com.droidbus.sample.demo.debug')).code).toBe(1);
    expect((await runOn(d, 'dumpsys activity exit-info com.droidbus.sample.demo.debug')).stdout).toContain(
      'reason=16 (PACKAGE UPDATED)',
    );
    const bad = await runOn(d, 'echo notanapk > /data/local/tmp/bad.apk; pm install /data/local/tmp/bad.apk');
    expect(bad.stderr).toMatch(/^Failure \[INSTALL_PARSE_FAILED_NOT_APK: /);
  });

  it('grants and revokes runtime permissions, refusing what the real package manager refuses', async () => {
    const d = device();
    expect((await runOn(d, 'pm grant com.droidbus.sample android.permission.CAMERA')).code).toBe(0);
    expect((await runOn(d, 'dumpsys package com.droidbus.sample | grep CAMERA')).stdout).toContain(
      'android.permission.CAMERA: granted=true',
    );
    const notRequested = await runOn(d, 'pm grant com.droidbus.sample android.permission.READ_CONTACTS');
    expect(notRequested.code).toBe(255);
    expect(notRequested.stderr).toContain(
      "Exception occurred while executing 'grant':\njava.lang.SecurityException: Package com.droidbus.sample has not requested permission android.permission.READ_CONTACTS\n",
    );
    expect((await runOn(d, 'pm grant com.droidbus.sample android.permission.INTERNET')).stderr).toContain(
      'is not a changeable permission type',
    );
    expect((await runOn(d, 'pm grant com.nope android.permission.CAMERA')).stderr).toContain(
      'java.lang.IllegalArgumentException: Unknown package: com.nope',
    );
    await runOn(d, 'pm revoke com.droidbus.sample android.permission.CAMERA');
    expect((await runOn(d, 'dumpsys package com.droidbus.sample | grep CAMERA')).stdout).toContain(
      'android.permission.CAMERA: granted=false',
    );
  });

  it('uninstalls, clears and refuses run-as like a release build', async () => {
    const d = device();
    expect((await runOn(d, 'run-as com.droidbus.sample ls')).stderr).toBe(
      'run-as: package not debuggable: com.droidbus.sample\n',
    );
    expect((await runOn(d, 'run-as com.nope ls')).stderr).toBe('run-as: unknown package: com.nope\n');
    expect((await runOn(d, 'pm clear com.droidbus.sample')).stdout).toBe('Success\n');
    expect((await runOn(d, 'pm uninstall com.droidbus.sample')).stdout).toBe('Success\n');
    expect((await runOn(d, 'pm uninstall com.droidbus.sample')).stderr).toBe(
      'Failure [DELETE_FAILED_INTERNAL_ERROR]\n',
    );
    expect((await runOn(d, 'pm path com.droidbus.sample')).code).toBe(1);
    expect((await runOn(d, 'pm clear com.droidbus.sample')).stdout).toBe('Failed\n');
  });

  it('answers query-activities as PackageManagerShellCommand prints it: every launcher app, or none', async () => {
    const d = device();
    const launcher =
      'cmd package query-activities -a android.intent.action.MAIN -c android.intent.category.LAUNCHER';
    const all = (await runOn(d, launcher)).stdout;
    const packages = all
      .split('\n')
      .filter((l) => l.trim().startsWith('packageName='))
      .map((l) => l.trim().slice('packageName='.length));
    expect(packages).toContain('com.droidbus.sample');
    expect(packages).toContain('com.android.settings');
    expect(all.startsWith(`${packages.length} activities found:\n  Activity #0:\n    priority=0 `)).toBe(
      true,
    );
    expect(all).toContain(
      '    ActivityInfo:\n      name=com.droidbus.sample.LoginActivity\n      packageName=com.droidbus.sample\n',
    );
    expect((await runOn(d, `${launcher} --components -p com.droidbus.sample`)).stdout).toBe(
      'com.droidbus.sample/.LoginActivity\n',
    );
    await runOn(d, 'pm disable-user com.droidbus.sample');
    expect((await runOn(d, `${launcher} -p com.droidbus.sample`)).stdout).toBe('No activities found\n');
  });

  it('lets run-as work for a debuggable build', async () => {
    const d = device();
    const apk = demoApk(5, true);
    await runOn(d, `cmd package install -S ${apk.length}`, { stdin: apk });
    expect((await runOn(d, 'run-as com.droidbus.sample.demo.debug pwd')).stdout).toBe(
      '/data/data/com.droidbus.sample.demo.debug\n',
    );
  });
});

describe('device state commands', () => {
  it('reflects svc and airplane mode in settings, dumpsys and cmd', async () => {
    const d = device();
    expect(
      (await runOn(d, 'settings get global wifi_on; svc wifi disable; settings get global wifi_on')).stdout,
    ).toBe('1\n0\n');
    expect((await runOn(d, 'cmd wifi status')).stdout).toMatch(/^Wifi is disabled/);
    await runOn(d, 'svc wifi enable; cmd connectivity airplane-mode enable');
    expect(
      (
        await runOn(
          d,
          'cmd connectivity airplane-mode; settings get global airplane_mode_on; dumpsys wifi | head -n 1',
        )
      ).stdout,
    ).toBe('enabled\n1\nWi-Fi is disabled\n');
    expect((await runOn(d, 'settings get secure nosuch')).stdout).toBe('null\n');
    expect(
      (
        await runOn(
          d,
          'settings put system user_rotation 1; settings put system accelerometer_rotation 0; wm size; uiautomator dump /dev/tty | head -c 120',
        )
      ).stdout,
    ).toContain('<hierarchy rotation="1">');
  });

  it('lists and sets properties like getprop/setprop', async () => {
    const d = device();
    const all = (await runOn(d, 'getprop')).stdout;
    expect(all).toMatch(/^\[dalvik\.vm\.heapgrowthlimit\]: \[256m\]\n/m);
    expect(all).toContain('[ro.product.model]: [Pixel 7]\n');
    expect((await runOn(d, 'getprop ro.nope; getprop ro.nope dflt')).stdout).toBe('\ndflt\n');
    const ro = await runOn(d, 'setprop ro.debuggable 1');
    expect(ro).toMatchObject({
      code: 1,
      stderr: "Failed to set property 'ro.debuggable' to '1'.\nSee dmesg for error reason.\n",
    });
    expect((await runOn(d, 'setprop debug.sim.flag on; getprop debug.sim.flag')).stdout).toBe('on\n');
  });

  it('prints ps -A in toybox columns and dumps meminfo for a running app only', async () => {
    const d = device();
    const ps = (await runOn(d, 'ps -A')).stdout.split('\n');
    expect(ps[0]).toBe(
      'USER           PID  PPID     VSZ    RSS WCHAN            ADDR S NAME                       ',
    );
    expect(ps.some((l) => /^system\s+\d+\s+\d+ .* system_server$/.test(l))).toBe(true);
    expect((await runOn(d, 'dumpsys meminfo com.droidbus.sample')).stdout).toBe(
      'No process found for: com.droidbus.sample\n',
    );
    await runOn(d, 'am start -n com.droidbus.sample/.LoginActivity');
    expect((await runOn(d, 'dumpsys meminfo com.droidbus.sample')).stdout).toMatch(
      /\*\* MEMINFO in pid \d+ \[com\.droidbus\.sample\] \*\*/,
    );
  });

  it("prints toybox ps's usage for --help, naming -A, as appium-adb reads it before listing with ps -A", async () => {
    const help = await runOn(device(), 'ps --help');
    expect(help.stdout.split('\n')[0]).toBe(
      'usage: ps [-AadefLlnwZ] [-gG GROUP,] [-k FIELD,] [-o FIELD,] [-p PID,] [-t TTY,] [-uU USER,]',
    );
    // appium-adb's own test of the output (process-commands.js listProcessStatus).
    expect(/^-A\b/m.test(help.stdout)).toBe(true);
    expect(help.stdout).not.toMatch(/system_server/);
  });

  it('shows posted notifications unredacted only with --noredact', async () => {
    const d = device();
    expect(
      (await runOn(d, "sim notify com.droidbus.sample 'Order shipped' 'Arrives Tuesday' --action Track"))
        .stdout,
    ).toMatch(/^0\|com\.droidbus\.sample\|\d+\|null\|\d+\n$/);
    const open = (await runOn(d, 'dumpsys notification --noredact')).stdout;
    expect(open).toContain('android.title=String (Order shipped)');
    expect(open).toContain('[0] "Track" -> PendingIntent{');
    expect((await runOn(d, 'dumpsys notification')).stdout).toContain('android.title=String [length=13]');
  });

  it('reports a geo fix in dumpsys location', async () => {
    const d = device();
    d.setLocation(-122.084, 37.421998, 5);
    expect((await runOn(d, 'dumpsys location | grep "gps provider" -A 2')).stdout).toContain(
      'last location=Location[gps 37.421998,-122.084000 hAcc=5.0',
    );
  });
});
