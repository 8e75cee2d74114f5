/**
 * appium-adb's `ADB` class — the device layer of Appium's Android drivers, from npm (the version the
 * pinned appium-uiautomator2-driver depends on) — against `droidbus sim` devices through the real adb
 * server (issue 55). One row per public method that talks to a device, grouped as the issue names
 * them; each row calls the method as appium-adb's users do and checks the answer against what a real
 * phone answers, read back through a second path where the method changes something. The evidence a
 * row relies on is named beside it (AOSP, adb's source, or a real capture quoted in public code).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeApk } from '../../src/util/apk.js';
import { ADB_BINARY, startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { APPIUM_DIR, installAppium, sdkWithAdb } from '../helpers/appium-client.js';
import { tempDir } from '../helpers/paths.js';
import { readCommandLog } from '../helpers/command-log.js';
import { runCli } from '../helpers/run-cli.js';
import { startSimFarm, type SimFarm, type SimFarmDevice } from '../helpers/sim-farm.js';
import { until } from '../helpers/until.js';

const APPIUM_ADB = path.join(
  APPIUM_DIR,
  'node_modules/appium-uiautomator2-driver/node_modules/appium-adb/build/lib/index.js',
);

// appium-adb is plain JS to this test: its methods are called by name, as a table.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Adb = any;

const PKG = 'io.droidbus.adbtable';
const SAMPLE = 'com.droidbus.sample';
const CAMERA = 'android.permission.CAMERA';
const FINE_LOCATION = 'android.permission.ACCESS_FINE_LOCATION';

let server: AdbServer;
let farm: SimFarm;
const work = tempDir('droidbus-appium-adb-');
let createAdb: (serial: string) => Promise<Adb>;
let phone: SimFarmDevice;
let older: SimFarmDevice;
let emulator: SimFarmDevice;
let adb: Adb;
let apk: string;

beforeAll(async () => {
  await installAppium();
  server = await startAdbServer();
  farm = await startSimFarm(server, {
    devices: 4,
    emulators: 1,
    logcatRate: 0,
    commandLog: path.join(work.dir, 'commands.jsonl'),
  });
  phone = farm.devices.find((d) => d.model === 'Pixel 8')!;
  older = farm.devices.find((d) => d.sdk === 31)!;
  emulator = farm.devices.find((d) => d.serial.startsWith('emulator-'))!;
  const sdkRoot = sdkWithAdb(path.join(work.dir, 'sdk'), ADB_BINARY);
  // appium-adb reads an APK's version with build-tools' aapt2 (Debian's aapt package has it).
  mkdirSync(path.join(sdkRoot, 'build-tools/34.0.0'), { recursive: true });
  symlinkSync('/usr/bin/aapt2', path.join(sdkRoot, 'build-tools/34.0.0/aapt2'));
  const { ADB } = (await import(pathToFileURL(APPIUM_ADB).href)) as {
    ADB: { createADB(opts: object): Promise<Adb> };
  };
  createAdb = async (serial) => {
    const a = await ADB.createADB({ sdkRoot, adbPort: server.port, adbExecTimeout: 20_000 });
    a.setDeviceId(serial);
    return a;
  };
  adb = await createAdb(phone.serial);
  apk = path.join(work.dir, 'table.apk');
  writeFileSync(
    apk,
    writeApk({
      packageName: PKG,
      versionCode: 3,
      versionName: '1.0.3',
      minSdk: 24,
      targetSdk: 34,
      activities: [{ name: '.MainActivity', launcher: true, exported: true }],
      permissions: [CAMERA, FINE_LOCATION, 'android.permission.INTERNET'],
    }),
  );
}, 700_000);

afterAll(async () => {
  await farm?.stop();
  await server?.stop();
  work.remove();
});

/** What the device answers to a command line, read around appium-adb (the test's own path). */
async function sh(command: string, serial = phone.serial): Promise<string> {
  return (await server.adb(['-s', serial, 'shell', command])).stdout;
}

async function focused(): Promise<string> {
  const out = await sh('dumpsys window displays');
  return /mCurrentFocus=Window\{\S+ u0 ([^}\s]+)\}/.exec(out)?.[1] ?? '';
}

interface Row {
  /** The ADB method. */
  method: string;
  /** Where the answer comes from on a phone. */
  evidence: string;
  test: () => Promise<void>;
}

const rows: [area: string, Row[]][] = [
  [
    'general',
    [
      {
        method: 'getApiLevel',
        evidence: 'getprop ro.build.version.sdk (a Pixel 8 on Android 14 reports 34)',
        test: async () => expect(await adb.getApiLevel()).toBe(phone.sdk),
      },
      {
        method: 'getPlatformVersion',
        evidence: 'getprop ro.build.version.release',
        test: async () => expect(await adb.getPlatformVersion()).toBe('14'),
      },
      {
        method: 'isDeviceConnected',
        evidence: 'adb devices',
        test: async () => expect(await adb.isDeviceConnected()).toBe(true),
      },
      {
        method: 'getConnectedDevices',
        evidence: 'adb devices: every device of the server, state device',
        test: async () => {
          const listed = (await adb.getConnectedDevices()) as { udid: string; state: string }[];
          expect(listed.map((d) => d.udid).sort()).toEqual(farm.devices.map((d) => d.serial).sort());
          expect(new Set(listed.map((d) => d.state))).toEqual(new Set(['device']));
        },
      },
      {
        method: 'listFeatures',
        evidence: "adb features: the CNXN banner's features (adb's transport.cpp)",
        test: async () => expect(await adb.listFeatures()).toEqual(['shell_v2', 'cmd', 'stat_v2', 'ls_v2']),
      },
      {
        method: 'isStreamedInstallSupported',
        evidence: "the `cmd` feature (adb's install.cpp picks streamed install with it)",
        test: async () => expect(await adb.isStreamedInstallSupported()).toBe(true),
      },
      {
        method: 'isIncrementalInstallSupported',
        evidence: 'needs abb_exec, which this adbd does not advertise',
        test: async () => expect(await adb.isIncrementalInstallSupported()).toBe(false),
      },
      {
        method: 'shell',
        evidence: 'shell_v2 exit codes',
        test: async () => {
          expect(await adb.shell(['echo', 'one two'])).toBe('one two');
          await expect(adb.shell(['false'])).rejects.toThrow(/code 1/);
        },
      },
      {
        method: 'getModel',
        evidence: 'getprop ro.product.model',
        test: async () => expect(await adb.getModel()).toBe(phone.model),
      },
      {
        method: 'getManufacturer',
        evidence: 'getprop ro.product.manufacturer',
        test: async () => expect(await adb.getManufacturer()).toBe('Google'),
      },
      {
        method: 'getScreenSize',
        evidence: 'wm size (a Pixel 8: 1080x2400)',
        test: async () => expect(await adb.getScreenSize()).toBe('1080x2400'),
      },
      {
        method: 'getScreenDensity',
        evidence: 'wm density (a Pixel 8: 420)',
        test: async () => expect(await adb.getScreenDensity()).toBe(420),
      },
      {
        method: 'getDeviceProperty',
        evidence: 'getprop NAME',
        test: async () => expect(await adb.getDeviceProperty('ro.build.version.sdk')).toBe('34'),
      },
      {
        method: 'setDeviceProperty',
        evidence: "setprop as the shell user on a user build is refused by init's property permissions",
        test: async () => {
          await expect(
            adb.setDeviceProperty('persist.sys.droidbus', '1', { privileged: false }),
          ).rejects.toThrow();
          expect((await sh('getprop persist.sys.droidbus')).trim()).toBe('');
        },
      },
      {
        method: 'getTimeZone',
        evidence: 'getprop persist.sys.timezone',
        test: async () =>
          expect(await adb.getTimeZone()).toBe((await sh('getprop persist.sys.timezone')).trim()),
      },
      {
        method: 'getDeviceLanguage',
        evidence: 'persist.sys.locale (Android 7+ keeps the locale there, en-US)',
        test: async () => expect(await adb.getDeviceLanguage()).toBe('en'),
      },
      {
        method: 'getDeviceLocale',
        evidence: 'persist.sys.locale',
        test: async () => expect(await adb.getDeviceLocale()).toBe('en-US'),
      },
      {
        method: 'getDeviceSysLanguage',
        evidence: 'persist.sys.language is unset since Android 5 moved to persist.sys.locale',
        test: async () => expect(await adb.getDeviceSysLanguage()).toBe(''),
      },
      {
        method: 'getDeviceCountry',
        evidence: 'persist.sys.country and ro.product.country are unset on a Pixel (ro.product.locale=en-US)',
        test: async () => expect(await adb.getDeviceCountry()).toBe(''),
      },
      {
        method: 'takeScreenshot',
        evidence: 'screencap -p: a PNG of the display',
        test: async () => {
          const png = (await adb.takeScreenshot()) as Buffer;
          expect(png.subarray(1, 4).toString()).toBe('PNG');
          expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1080, 2400]);
        },
      },
    ],
  ],
  [
    'process',
    [
      {
        method: 'listProcessStatus',
        evidence: 'ps -A (toybox: `ps --help` lists -A, so appium-adb passes it)',
        test: async () => {
          const ps = (await adb.listProcessStatus()) as string;
          expect(ps.split('\n')[0]).toMatch(/^USER\s+PID\s+PPID/);
          expect(ps).toContain('system_server');
          expect(ps).toContain('com.android.systemui');
        },
      },
      {
        method: 'getProcessIdsByName',
        evidence: 'pgrep/pidof',
        test: async () => {
          const pids = (await sh('pidof com.android.systemui')).trim().split(/\s+/).map(Number);
          expect(await adb.getProcessIdsByName('com.android.systemui')).toEqual(pids);
        },
      },
      {
        method: 'getProcessNameById',
        evidence: 'ps -p PID',
        test: async () => {
          const pid = Number((await sh('pidof com.android.systemui')).trim());
          expect(await adb.getProcessNameById(pid)).toBe('com.android.systemui');
        },
      },
      {
        method: 'processExists',
        evidence: 'ps -A',
        test: async () => {
          expect(await adb.processExists('com.android.systemui')).toBe(true);
          expect(await adb.processExists('no.such.process')).toBe(false);
        },
      },
      {
        method: 'killProcessesByName',
        evidence:
          "kill PID as shell: an app process is not the shell user's (EPERM), and a user build has no su to retry with",
        test: async () => {
          await sh(`am start -W -n ${SAMPLE}/.LoginActivity`);
          const before = (await sh(`pidof ${SAMPLE}`)).trim();
          expect(before).not.toBe('');
          await expect(adb.killProcessesByName(SAMPLE)).rejects.toThrow(/su/);
          expect((await sh(`pidof ${SAMPLE}`)).trim()).toBe(before);
        },
      },
      {
        method: 'killProcessByPID',
        evidence: 'the same EPERM; as root (an emulator after adb root) the app dies, REASON_SIGNALED',
        test: async () => {
          const pid = Number((await sh(`pidof ${SAMPLE}`)).trim());
          await expect(adb.killProcessByPID(pid)).rejects.toThrow();
          expect(Number((await sh(`pidof ${SAMPLE}`)).trim())).toBe(pid);
        },
      },
    ],
  ],
  [
    'package',
    [
      {
        method: 'listInstalledPackages',
        evidence: 'cmd package list packages --show-versioncode',
        test: async () => {
          const list = (await adb.listInstalledPackages()) as { appPackage: string; versionCode: string }[];
          expect(list).toContainEqual({ appPackage: SAMPLE, versionCode: '42' });
          expect(list.map((p) => p.appPackage)).toContain('com.android.settings');
        },
      },
      {
        method: 'isAppInstalled',
        evidence: 'cmd package list packages PKG',
        test: async () => {
          expect(await adb.isAppInstalled(SAMPLE)).toBe(true);
          expect(await adb.isAppInstalled(PKG)).toBe(false);
        },
      },
      {
        method: 'install',
        evidence: "adb install (streamed: `cmd package install -S SIZE`), pm's `Success`",
        test: async () => {
          await adb.install(apk);
          expect(await sh(`pm path ${PKG}`)).toMatch(/^package:\/data\/app\/.+\/base\.apk/);
        },
      },
      {
        method: 'getApplicationInstallState',
        evidence: "dumpsys package PKG's versionCode against the APK's",
        test: async () => expect(await adb.getApplicationInstallState(apk, PKG)).toBe('sameVersionInstalled'),
      },
      {
        method: 'installOrUpgrade',
        evidence: 'the same version installed is left as it is',
        test: async () =>
          expect(await adb.installOrUpgrade(apk, PKG)).toMatchObject({
            wasUninstalled: false,
            appState: 'sameVersionInstalled',
          }),
      },
      {
        method: 'getPackageInfo',
        evidence: 'dumpsys package PKG: versionName, versionCode',
        test: async () =>
          expect(await adb.getPackageInfo(PKG)).toMatchObject({
            name: PKG,
            isInstalled: true,
            versionName: '1.0.3',
            versionCode: 3,
          }),
      },
      {
        method: 'getReqPermissions',
        evidence: 'dumpsys package PKG: requested permissions',
        test: async () =>
          expect(((await adb.getReqPermissions(PKG)) as string[]).sort()).toEqual(
            [CAMERA, FINE_LOCATION, 'android.permission.INTERNET'].sort(),
          ),
      },
      {
        method: 'grantPermission',
        evidence: 'pm grant; dumpsys package runtime permissions granted=true',
        test: async () => {
          await adb.grantPermission(PKG, CAMERA);
          expect(await sh(`dumpsys package ${PKG}`)).toMatch(/android\.permission\.CAMERA: granted=true/);
        },
      },
      {
        method: 'getGrantedPermissions',
        evidence: 'granted=true lines (install-time INTERNET is granted at install)',
        test: async () =>
          expect(await adb.getGrantedPermissions(PKG)).toEqual(
            expect.arrayContaining([CAMERA, 'android.permission.INTERNET']),
          ),
      },
      {
        method: 'revokePermission',
        evidence: 'pm revoke',
        test: async () => {
          await adb.revokePermission(PKG, CAMERA);
          expect(await sh(`dumpsys package ${PKG}`)).toMatch(/android\.permission\.CAMERA: granted=false/);
        },
      },
      {
        method: 'getDeniedPermissions',
        evidence: 'granted=false lines',
        test: async () =>
          expect(await adb.getDeniedPermissions(PKG)).toEqual(
            expect.arrayContaining([CAMERA, FINE_LOCATION]),
          ),
      },
      {
        method: 'grantAllPermissions',
        evidence: 'pm grant for each requested runtime permission (targetSdk 34)',
        test: async () => {
          await adb.grantAllPermissions(PKG);
          expect(await adb.getDeniedPermissions(PKG)).toEqual([]);
        },
      },
      {
        method: 'pullApk',
        evidence: 'pm path PKG, then adb pull of base.apk: the bytes installed',
        test: async () => {
          const pulled = (await adb.pullApk(PKG, work.dir)) as string;
          const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
          expect(sha(pulled)).toBe(sha(apk));
        },
      },
      {
        method: 'clear',
        evidence: 'pm clear PKG prints Success',
        test: async () => {
          expect(await adb.clear(PKG)).toContain('Success');
        },
      },
      {
        method: 'uninstallApk',
        evidence: 'adb uninstall prints Success',
        test: async () => {
          expect(await adb.uninstallApk(PKG)).toBe(true);
          expect(await adb.uninstallApk(PKG)).toBe(false);
          expect(await sh(`pm list packages ${PKG}`)).toBe('');
        },
      },
      {
        method: 'installFromDevicePath',
        evidence: 'pm install /data/local/tmp/X.apk',
        test: async () => {
          await server.adb(['-s', phone.serial, 'push', apk, '/data/local/tmp/table.apk']);
          await adb.installFromDevicePath('/data/local/tmp/table.apk');
          expect(await adb.isAppInstalled(PKG)).toBe(true);
        },
      },
      {
        method: 'cacheApk',
        evidence: "appium's cache folder on the device: /data/local/tmp/appium_cache/SHA1.apk",
        test: async () => {
          const remote = (await adb.cacheApk(apk)) as string;
          expect(remote).toMatch(/^\/data\/local\/tmp\/appium_cache\/[0-9a-f]{40}\.apk$/);
          expect(Number((await sh(`stat -c %s ${remote}`)).trim())).toBe(readFileSync(apk).length);
        },
      },
    ],
  ],
  [
    'activity',
    [
      {
        method: 'resolveLaunchableActivity',
        evidence: 'cmd package resolve-activity --brief -c android.intent.category.LAUNCHER PKG',
        test: async () =>
          expect(await adb.resolveLaunchableActivity(SAMPLE)).toBe(`${SAMPLE}/.LoginActivity`),
      },
      {
        method: 'isValidClass',
        evidence: 'a Java class name check, local',
        test: async () => {
          expect(await adb.isValidClass(`${SAMPLE}.LoginActivity`)).toBe(true);
          expect(await adb.isValidClass('1 bad')).toBe(false);
        },
      },
      {
        method: 'startApp',
        evidence: 'am start -W -n PKG/ACTIVITY: Status: ok, then the activity has focus',
        test: async () => {
          const out = (await adb.startApp({ pkg: 'com.android.settings', activity: '.Settings' })) as string;
          expect(out).toContain('Status: ok');
          expect(await focused()).toBe('com.android.settings/com.android.settings.Settings');
        },
      },
      {
        method: 'getFocusedPackageAndActivity',
        evidence: 'dumpsys window displays: mCurrentFocus / mFocusedApp',
        test: async () =>
          expect(await adb.getFocusedPackageAndActivity()).toEqual({
            appPackage: 'com.android.settings',
            appActivity: '.Settings',
          }),
      },
      {
        method: 'waitForActivity',
        evidence: 'polls the focused activity',
        test: async () => {
          await adb.waitForActivity('com.android.settings', '.Settings', 5_000);
          await expect(adb.waitForActivity(SAMPLE, '.HomeActivity', 600)).rejects.toThrow();
        },
      },
      {
        method: 'dumpWindows',
        evidence: 'dumpsys window windows',
        test: async () => expect(await adb.dumpWindows()).toContain('mCurrentFocus=Window{'),
      },
      {
        method: 'listAppProcessIds',
        evidence: 'dumpsys activity processes: ProcessRecord{… PID:PKG/1000} for a system-uid app',
        test: async () =>
          expect(await adb.listAppProcessIds('com.android.settings')).toEqual([
            Number((await sh('pidof com.android.settings')).trim()),
          ]),
      },
      {
        method: 'isAppRunning',
        evidence: 'the same ProcessRecord lines',
        test: async () => {
          expect(await adb.isAppRunning('com.android.settings')).toBe(true);
          expect(await adb.isAppRunning('com.android.chrome')).toBe(false);
        },
      },
      {
        method: 'forceStop',
        evidence: 'am force-stop kills the process',
        test: async () => {
          await adb.forceStop('com.android.settings');
          expect(await sh('pidof com.android.settings')).toBe('');
        },
      },
      {
        method: 'activateApp',
        evidence: 'monkey -p PKG -c android.intent.category.LAUNCHER 1 brings the launcher activity',
        test: async () => {
          await adb.activateApp(SAMPLE);
          expect(await focused()).toBe(`${SAMPLE}/${SAMPLE}.LoginActivity`);
        },
      },
      {
        method: 'killPackage',
        evidence: 'am kill PKG only kills a background process: the focused app survives',
        test: async () => {
          const pid = (await sh(`pidof ${SAMPLE}`)).trim();
          await adb.killPackage(SAMPLE);
          expect((await sh(`pidof ${SAMPLE}`)).trim()).toBe(pid);
        },
      },
      {
        method: 'stopAndClear',
        evidence: 'am force-stop then pm clear',
        test: async () => {
          await adb.stopAndClear(SAMPLE);
          expect(await sh(`pidof ${SAMPLE}`)).toBe('');
        },
      },
      {
        method: 'startUri',
        evidence: 'am start -W -a android.intent.action.VIEW -d URI PKG',
        test: async () => {
          await adb.startUri('https://example.com/a', 'com.android.chrome');
          expect(await focused()).toMatch(/^com\.android\.chrome\//);
        },
      },
      {
        method: 'waitForNotActivity',
        evidence: 'polls the focused activity until it is another',
        test: async () => {
          await sh('input keyevent KEYCODE_HOME');
          await adb.waitForNotActivity('com.android.chrome', '*', 5_000);
        },
      },
      {
        method: 'broadcast',
        evidence: 'am broadcast -a ACTION prints "Broadcast completed: result=0"',
        test: async () => {
          await adb.broadcast('io.droidbus.TABLE');
          await expect(adb.broadcast('bad action;')).rejects.toThrow(/Invalid intent/);
        },
      },
    ],
  ],
  [
    'input',
    [
      {
        method: 'keyevent',
        evidence: 'input keyevent 3 (KEYCODE_HOME): the launcher has focus',
        test: async () => {
          await sh(`am start -W -n ${SAMPLE}/.LoginActivity`);
          await adb.keyevent(3);
          expect(await focused()).toMatch(/launcher/);
        },
      },
      {
        method: 'goToHome',
        evidence: 'input keyevent 3',
        test: async () => {
          await sh(`am start -W -n ${SAMPLE}/.LoginActivity`);
          await adb.goToHome();
          expect(await focused()).toMatch(/launcher/);
        },
      },
      {
        method: 'back',
        evidence: 'input keyevent 4 finishes the top activity',
        test: async () => {
          await sh(`am start -W -n ${SAMPLE}/.LoginActivity`);
          await adb.back();
          expect(await focused()).not.toMatch(/LoginActivity/);
        },
      },
      {
        method: 'inputText',
        evidence: 'input text (spaces as %s): the focused field gets the text',
        test: async () => {
          await sh(`am start -W -n ${SAMPLE}/.LoginActivity`);
          const dump = await sh('uiautomator dump /dev/tty');
          const field =
            /resource-id="com\.droidbus\.sample:id\/username"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"/.exec(
              dump,
            );
          expect(field).not.toBeNull();
          const [x1, y1, x2, y2] = field!.slice(1).map(Number) as [number, number, number, number];
          await sh(`input tap ${(x1 + x2) >> 1} ${(y1 + y2) >> 1}`);
          await adb.inputText('ann lee');
          expect(await sh('uiautomator dump /dev/tty')).toContain('text="ann lee"');
        },
      },
      {
        method: 'clearTextField',
        evidence: 'input keyevent 67 (DEL) × length',
        test: async () => {
          await adb.clearTextField(4);
          expect(await sh('uiautomator dump /dev/tty')).toContain('text="ann"');
        },
      },
      {
        method: 'isSoftKeyboardPresent',
        evidence: "dumpsys input_method: mInputShown, and the IME's own mIsInputViewShown",
        test: async () =>
          expect(await adb.isSoftKeyboardPresent()).toEqual({
            isKeyboardShown: true,
            canCloseKeyboard: true,
          }),
      },
      {
        method: 'hideKeyboard',
        evidence:
          'ESCAPE first, which the IME ignores, then BACK, which InputMethodService handles by hiding itself',
        test: async () => {
          expect(await adb.hideKeyboard()).toBe(true);
          expect(await sh('dumpsys input_method')).toContain('mInputShown=false');
        },
      },
      {
        method: 'availableIMEs',
        evidence: 'ime list -a -s',
        test: async () =>
          expect(await adb.availableIMEs()).toEqual([
            'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME',
            'com.android.adbkeyboard/.AdbIME',
          ]),
      },
      {
        method: 'enableIME',
        evidence: 'ime enable ID',
        test: async () => {
          await adb.enableIME('com.android.adbkeyboard/.AdbIME');
          expect(await adb.enabledIMEs()).toContain('com.android.adbkeyboard/.AdbIME');
        },
      },
      {
        method: 'enabledIMEs',
        evidence: 'ime list -s',
        test: async () => expect((await adb.enabledIMEs()).length).toBe(2),
      },
      {
        method: 'setIME',
        evidence: 'ime set ID; settings secure default_input_method',
        test: async () => {
          await adb.setIME('com.android.adbkeyboard/.AdbIME');
          expect((await sh('settings get secure default_input_method')).trim()).toBe(
            'com.android.adbkeyboard/.AdbIME',
          );
        },
      },
      {
        method: 'defaultIME',
        evidence: 'settings get secure default_input_method',
        test: async () => expect(await adb.defaultIME()).toBe('com.android.adbkeyboard/.AdbIME'),
      },
      {
        method: 'disableIME',
        evidence: 'ime disable ID; the default falls back to an enabled one',
        test: async () => {
          await adb.setIME('com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME');
          await adb.disableIME('com.android.adbkeyboard/.AdbIME');
          expect(await adb.enabledIMEs()).not.toContain('com.android.adbkeyboard/.AdbIME');
        },
      },
    ],
  ],
  [
    'network',
    [
      {
        method: 'forwardPort',
        evidence: 'adb forward tcp:L tcp:R',
        test: async () => {
          await adb.forwardPort(18_201, 8_201);
          expect(await adb.getForwardList()).toContain(`${phone.serial} tcp:18201 tcp:8201`);
        },
      },
      {
        method: 'getForwardList',
        evidence: 'adb forward --list: SERIAL LOCAL REMOTE',
        test: async () => expect((await adb.getForwardList()).length).toBeGreaterThan(0),
      },
      {
        method: 'removePortForward',
        evidence: 'adb forward --remove',
        test: async () => {
          await adb.removePortForward(18_201);
          expect(await adb.getForwardList()).not.toContain(`${phone.serial} tcp:18201 tcp:8201`);
        },
      },
      {
        method: 'forwardAbstractPort',
        evidence: 'adb forward tcp:L localabstract:NAME',
        test: async () => {
          await adb.forwardAbstractPort(18_202, 'chrome_devtools_remote');
          expect(await adb.getForwardList()).toContain(
            `${phone.serial} tcp:18202 localabstract:chrome_devtools_remote`,
          );
          await adb.removePortForward(18_202);
        },
      },
      {
        method: 'reversePort',
        evidence: "adbd's reverse:forward: (adb.cpp handle_forward_request), as React Native's Metro uses it",
        test: async () => {
          await adb.reversePort(8_081, 8_081);
          expect(await adb.getReverseList()).toEqual(['UsbFfs tcp:8081 tcp:8081']);
        },
      },
      {
        method: 'getReverseList',
        evidence: 'reverse:list-forward: one line per listener, the transport name first',
        test: async () => {
          await adb.reversePort(8_097, 8_097);
          expect(await adb.getReverseList()).toEqual([
            'UsbFfs tcp:8081 tcp:8081',
            'UsbFfs tcp:8097 tcp:8097',
          ]);
        },
      },
      {
        method: 'removePortReverse',
        evidence: "reverse:killforward: (FAIL listener 'tcp:N' not found the second time)",
        test: async () => {
          await adb.removePortReverse(8_081);
          expect(await adb.getReverseList()).toEqual(['UsbFfs tcp:8097 tcp:8097']);
          await expect(adb.removePortReverse(8_081)).rejects.toThrow(/listener 'tcp:8081' not found/);
        },
      },
      {
        method: 'ping',
        evidence: 'echo ping',
        test: async () => expect(await adb.ping()).toBe(true),
      },
      {
        method: 'listPorts',
        evidence:
          '/proc/net/tcp6: the UiAutomator2 server (a Java server on ::) listens on 6790 while it runs',
        test: async () => {
          expect(await adb.listPorts('6')).toEqual([]);
          expect(await adb.listPorts('4')).toEqual([]);
          const installed = await runCli(['helper', 'install', '--serial', phone.serial], {
            env: { ...(server.env as Record<string, string>), DROIDBUS_HOME: path.join(work.dir, 'home') },
          });
          expect(installed.code, installed.stderr).toBe(0);
          await sh(
            'nohup am instrument -w io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner > /dev/null 2>&1 &',
          );
          await until('the helper to listen', async () =>
            (await adb.listPorts('6')).some((p: { port: number }) => p.port === 6790) ? true : undefined,
          );
          expect(await adb.listPorts('6')).toEqual([{ port: 6790, family: '6', state: 0x0a }]);
          await sh('am force-stop io.appium.uiautomator2.server');
        },
      },
    ],
  ],
  [
    'settings',
    [
      {
        method: 'setSetting',
        evidence: 'settings put NAMESPACE KEY VALUE',
        test: async () => {
          await adb.setSetting('system', 'screen_off_timeout', 600_000);
          expect((await sh('settings get system screen_off_timeout')).trim()).toBe('600000');
        },
      },
      {
        method: 'getSetting',
        evidence: 'settings get NAMESPACE KEY',
        test: async () => expect(await adb.getSetting('system', 'screen_off_timeout')).toBe('600000'),
      },
      {
        method: 'isAirplaneModeOn',
        evidence: 'settings get global airplane_mode_on',
        test: async () => expect(await adb.isAirplaneModeOn()).toBe(false),
      },
      {
        method: 'setAirplaneMode',
        evidence: 'cmd connectivity airplane-mode enable (Android 11+)',
        test: async () => {
          await adb.setAirplaneMode(true);
          expect(await adb.isAirplaneModeOn()).toBe(true);
          expect(await sh('dumpsys wifi')).toContain('Wi-Fi is disabled');
          await adb.setAirplaneMode(false);
          expect(await adb.isAirplaneModeOn()).toBe(false);
        },
      },
      {
        method: 'isWifiOn',
        evidence: 'settings get global wifi_on',
        test: async () => expect(await adb.isWifiOn()).toBe(true),
      },
      {
        method: 'setWifiState',
        evidence: 'svc wifi disable (cmd wifi set-wifi-enabled on 11+)',
        test: async () => {
          await adb.setWifiState(false);
          expect(await adb.isWifiOn()).toBe(false);
          await adb.setWifiState(true);
          expect(await sh('dumpsys wifi')).toContain('Wi-Fi is enabled');
        },
      },
      {
        method: 'isDataOn',
        evidence: 'settings get global mobile_data',
        test: async () => expect(await adb.isDataOn()).toBe(true),
      },
      {
        method: 'setDataState',
        evidence: 'svc data disable',
        test: async () => {
          await adb.setDataState(false);
          expect(await adb.isDataOn()).toBe(false);
          await adb.setDataState(true);
          expect(await adb.isDataOn()).toBe(true);
        },
      },
      {
        method: 'isAnimationOn',
        evidence: 'the three *_animation_scale / animator_duration_scale global settings',
        test: async () => expect(await adb.isAnimationOn()).toBe(true),
      },
      {
        method: 'setAnimationScale',
        evidence:
          'settings put global … 0 stores "0"; isAnimationOn compares with "0.0" (what Developer options writes), so it still says on',
        test: async () => {
          await adb.setAnimationScale(0);
          expect((await sh('settings get global window_animation_scale')).trim()).toBe('0');
          expect(await adb.isAnimationOn()).toBe(true);
          await sh(
            'for k in animator_duration_scale transition_animation_scale window_animation_scale; do settings put global $k 0.0; done',
          );
          expect(await adb.isAnimationOn()).toBe(false);
          await adb.setAnimationScale(1);
        },
      },
      {
        method: 'setHttpProxy',
        evidence: 'settings put global http_proxy HOST:PORT',
        test: async () => {
          await adb.setHttpProxy('10.0.2.2', 8888);
          expect((await sh('settings get global http_proxy')).trim()).toBe('10.0.2.2:8888');
        },
      },
      {
        method: 'deleteHttpProxy',
        evidence: 'settings delete global http_proxy and its global_http_proxy_* keys',
        test: async () => {
          await adb.deleteHttpProxy();
          expect((await sh('settings get global http_proxy')).trim()).toBe('null');
        },
      },
      {
        method: 'setHiddenApiPolicy',
        evidence: 'settings put global hidden_api_policy* 1',
        test: async () => {
          await adb.setHiddenApiPolicy(1);
          expect((await sh('settings get global hidden_api_policy')).trim()).toBe('1');
        },
      },
      {
        method: 'setDefaultHiddenApiPolicy',
        evidence: 'settings delete global hidden_api_policy*',
        test: async () => {
          await adb.setDefaultHiddenApiPolicy();
          expect((await sh('settings get global hidden_api_policy')).trim()).toBe('null');
        },
      },
      {
        method: 'getLocationProviders',
        evidence: 'settings get secure location_providers_allowed / cmd location (Android 12+)',
        test: async () => expect(await adb.getLocationProviders()).toEqual(['gps']),
      },
      {
        method: 'toggleGPSLocationProvider',
        evidence: 'cmd location set-location-enabled false: no provider allowed after',
        test: async () => {
          await adb.toggleGPSLocationProvider(false);
          expect(await adb.getLocationProviders()).toEqual([]);
          await adb.toggleGPSLocationProvider(true);
          expect(await adb.getLocationProviders()).toEqual(['gps']);
        },
      },
      {
        method: 'getDeviceIdleWhitelist',
        evidence: 'dumpsys deviceidle whitelist: TYPE,PKG,UID lines',
        test: async () =>
          expect(await adb.getDeviceIdleWhitelist()).toEqual(
            expect.arrayContaining([expect.stringMatching(/^system,com\.android\.shell,2000$/)]),
          ),
      },
      {
        method: 'addToDeviceIdleWhitelist',
        evidence: 'dumpsys deviceidle whitelist +PKG prints "Added: PKG"',
        test: async () => {
          expect(await adb.addToDeviceIdleWhitelist(SAMPLE)).toBe(true);
          expect(await adb.getDeviceIdleWhitelist()).toEqual(
            expect.arrayContaining([expect.stringMatching(new RegExp(`^user,${SAMPLE},\\d+$`))]),
          );
        },
      },
      {
        method: 'getScreenOrientation',
        evidence:
          'dumpsys input: `SurfaceOrientation: N` through Android 12L, `InputDeviceOrientation` on 13+ (MaaFramework DeviceInfo.cpp), so appium-adb reads nothing on 14',
        test: async () => {
          expect(await adb.getScreenOrientation()).toBeNull();
          const old = await createAdb(older.serial);
          expect(await old.getScreenOrientation()).toBe(0);
          await sh(
            'settings put system accelerometer_rotation 0; settings put system user_rotation 1',
            older.serial,
          );
          expect(await old.getScreenOrientation()).toBe(1);
          await sh('settings put system user_rotation 0', older.serial);
        },
      },
    ],
  ],
  [
    'lock',
    [
      {
        method: 'isLockManagementSupported',
        evidence: 'locksettings help (Android 8.1+)',
        test: async () => expect(await adb.isLockManagementSupported()).toBe(true),
      },
      {
        method: 'isLockEnabled',
        evidence:
          'get-disabled prints false for a Swipe lock screen, which appium-adb counts as a lock; true only for None',
        test: async () => {
          expect(await adb.isLockEnabled()).toBe(true);
          expect(await sh('locksettings set-disabled true')).toBe('Lock screen disabled set to true\n');
          expect(await adb.isLockEnabled()).toBe(false);
          await sh('locksettings set-disabled false');
        },
      },
      {
        method: 'setLockCredential',
        evidence: "LockSettingsShellCommand: set-pin prints Pin set to '1234'; a 3-digit PIN is TOO_SHORT(4)",
        test: async () => {
          await expect(adb.setLockCredential('pin', '123')).rejects.toThrow(/TOO_SHORT/);
          await adb.setLockCredential('pin', '1234');
          expect(await adb.isLockEnabled()).toBe(true);
        },
      },
      {
        method: 'verifyLockCredential',
        evidence: "verify --old X: verified successfully, or Old password 'X' didn't match",
        test: async () => {
          expect(await adb.verifyLockCredential('1234')).toBe(true);
          expect(await adb.verifyLockCredential('0000')).toBe(false);
        },
      },
      {
        method: 'isScreenLocked',
        evidence: 'dumpsys window: KeyguardStateMonitor mIsShowing / screenState; dumpsys power',
        test: async () => expect(await adb.isScreenLocked()).toBe(false),
      },
      {
        method: 'lock',
        evidence: 'KEYCODE_POWER: the screen goes off and the keyguard comes up',
        test: async () => {
          await adb.lock();
          expect(await adb.isScreenLocked()).toBe(true);
          expect(await sh('dumpsys window policy')).toMatch(/mIsShowing=true[\s\S]*mInputRestricted=true/);
        },
      },
      {
        method: 'cycleWakeUp',
        evidence: 'KEYCODE_POWER then KEYCODE_WAKEUP: the screen is on, the keyguard still shows',
        test: async () => {
          await adb.cycleWakeUp();
          expect(await sh('dumpsys power')).toContain('mWakefulness=Awake');
          expect(await adb.isScreenLocked()).toBe(true);
        },
      },
      {
        method: 'dismissKeyguard',
        evidence: 'wm dismiss-keyguard shows the bouncer while a PIN is set, and unlocks once it is cleared',
        test: async () => {
          await adb.dismissKeyguard();
          expect(await adb.isScreenLocked()).toBe(true);
          await adb.clearLockCredential('1234');
          await adb.dismissKeyguard();
          expect(await adb.isScreenLocked()).toBe(false);
        },
      },
      {
        method: 'clearLockCredential',
        evidence: "clear: Lock credential cleared; with none set, --old X is 'user has no password'",
        test: async () => {
          await adb.clearLockCredential();
          expect(await adb.verifyLockCredential()).toBe(true);
          await expect(adb.verifyLockCredential('1234')).rejects.toThrow(/user has no password/);
          // The tool exits 0 whatever the service said (LockSettingsCmd drops the result); cmd does not.
          expect(
            (await server.adb(['-s', phone.serial, 'shell', 'cmd lock_settings verify --old 1'])).code,
          ).toBe(255);
        },
      },
    ],
  ],
  [
    'root',
    [
      {
        method: 'isRoot',
        evidence: 'whoami',
        test: async () => expect(await adb.isRoot()).toBe(false),
      },
      {
        method: 'root',
        evidence:
          "adbd's restart_root_service: a user build answers 'adbd cannot run as root in production builds'; a userdebug emulator restarts adbd as root",
        test: async () => {
          // appium-adb 16 reads that answer from adbExec's string as `{ stdout }`, so it reports success;
          // the phone is not rooted all the same.
          await adb.root();
          expect(await adb.isRoot()).toBe(false);
          expect((await server.adb(['-s', phone.serial, 'root'])).stdout).toBe(
            'adbd cannot run as root in production builds\n',
          );
          const emu = await createAdb(emulator.serial);
          expect(await emu.root()).toEqual({ isSuccessful: true, wasAlreadyRooted: false });
          await until(
            'the emulator back as root',
            async () => ((await emu.isRoot()) ? true : undefined),
            20_000,
            {
              retryErrors: true,
            },
          );
          expect((await sh('id', emulator.serial)).trim()).toMatch(/^uid=0\(root\).*context=u:r:su:s0$/);
          // Root may signal an app's process; it dies.
          await sh(`am start -W -n ${SAMPLE}/.LoginActivity`, emulator.serial);
          const pid = Number((await sh(`pidof ${SAMPLE}`, emulator.serial)).trim());
          await emu.killProcessByPID(pid);
          expect(await sh(`pidof ${SAMPLE}`, emulator.serial)).toBe('');
        },
      },
      {
        method: 'unroot',
        evidence: "restart_unroot_service: 'restarting adbd as non root'",
        test: async () => {
          const emu = await createAdb(emulator.serial);
          expect(await emu.unroot()).toEqual({ isSuccessful: true, wasAlreadyRooted: true });
          await until(
            'the emulator back as shell',
            async () => ((await emu.isRoot()) ? undefined : true),
            20_000,
            {
              retryErrors: true,
            },
          );
        },
      },
    ],
  ],
  [
    'fs',
    [
      {
        method: 'mkdir',
        evidence: 'mkdir -p',
        test: async () => {
          await adb.mkdir('/data/local/tmp/table/sub');
          expect(await adb.fileExists('/data/local/tmp/table/sub')).toBe(true);
        },
      },
      {
        method: 'push',
        evidence: 'adb push (sync SEND)',
        test: async () => {
          await adb.push(apk, '/data/local/tmp/table/sub/a.apk');
          expect(Number((await sh('stat -c %s /data/local/tmp/table/sub/a.apk')).trim())).toBe(
            readFileSync(apk).length,
          );
        },
      },
      {
        method: 'fileExists',
        evidence: 'ls PATH',
        test: async () => {
          expect(await adb.fileExists('/data/local/tmp/table/sub/a.apk')).toBe(true);
          expect(await adb.fileExists('/data/local/tmp/table/nope')).toBe(false);
        },
      },
      {
        method: 'ls',
        evidence: 'ls PATH',
        test: async () => expect(await adb.ls('/data/local/tmp/table/sub')).toEqual(['a.apk']),
      },
      {
        method: 'fileSize',
        evidence: 'ls -la PATH: the size column',
        test: async () =>
          expect(await adb.fileSize('/data/local/tmp/table/sub/a.apk')).toBe(readFileSync(apk).length),
      },
      {
        method: 'pull',
        evidence: 'adb pull (sync RECV): the same bytes',
        test: async () => {
          const to = path.join(work.dir, 'pulled.apk');
          await adb.pull('/data/local/tmp/table/sub/a.apk', to);
          expect(readFileSync(to).equals(readFileSync(apk))).toBe(true);
        },
      },
      {
        method: 'rimraf',
        evidence: 'rm -rf',
        test: async () => {
          await adb.rimraf('/data/local/tmp/table');
          expect(await adb.fileExists('/data/local/tmp/table')).toBe(false);
        },
      },
    ],
  ],
  [
    'logcat',
    [
      {
        method: 'startLogcat',
        evidence: 'adb logcat -v threadtime',
        test: async () => {
          await adb.startLogcat();
          expect((adb as unknown as { logcat: unknown }).logcat).toBeDefined();
        },
      },
      {
        method: 'setLogcatListener',
        evidence: 'every new line reaches the listener',
        test: async () => {
          const seen: string[] = [];
          const listener = (entry: { message: string }) => seen.push(entry.message);
          await adb.setLogcatListener(listener);
          await sh('log -t DroidbusTable "table line one"');
          await until('the line to reach the listener', () =>
            seen.some((m) => m.includes('table line one')) ? true : undefined,
          );
          await adb.removeLogcatListener(listener);
          await sh('log -t DroidbusTable "table line two"');
          await until('the line in the collected logs', () =>
            ((adb.getLogcatLogs as unknown as () => { message: string }[])() ?? []).some((e) =>
              e.message.includes('table line two'),
            )
              ? true
              : undefined,
          );
          expect(seen.some((m) => m.includes('table line two'))).toBe(false);
        },
      },
      {
        method: 'removeLogcatListener',
        evidence: 'checked above: the second line is not seen',
        test: async () => expect(typeof adb.removeLogcatListener).toBe('function'),
      },
      {
        method: 'getLogcatLogs',
        evidence: 'the lines collected since startLogcat, in threadtime form',
        test: async () => {
          await sh('log -t DroidbusTable "table line three"');
          const line = await until('the third line in the collected logs', () =>
            ((adb.getLogcatLogs as () => { message: string }[])() ?? []).find((e) =>
              e.message.includes('table line three'),
            ),
          );
          expect(line.message).toMatch(
            /^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+\d+\s+\d+ I DroidbusTable: table line three$/,
          );
        },
      },
      {
        method: 'stopLogcat',
        evidence: 'the adb logcat child ends',
        test: async () => {
          await adb.stopLogcat();
          expect((adb as unknown as { logcat?: unknown }).logcat).toBeUndefined();
        },
      },
    ],
  ],
];

describe("appium-adb's ADB methods on a sim device", () => {
  it('names only public methods the ADB class has, each once', async () => {
    const { ADB } = (await import(pathToFileURL(APPIUM_ADB).href)) as { ADB: { prototype: object } };
    const names = rows.flatMap(([, r]) => r.map((row) => row.method));
    expect(new Set(names).size).toBe(names.length);
    const missing = names.filter(
      (n) =>
        typeof (ADB.prototype as Record<string, unknown>)[n] !== 'function' &&
        typeof (adb as Record<string, unknown>)[n] !== 'function',
    );
    expect(missing).toEqual([]);
    process.stderr.write(`appium-adb table: ${names.length} methods\n`);
  });
  for (const [area, list] of rows) {
    describe(area, () => {
      for (const row of list) {
        it(`${row.method} — ${row.evidence}`, row.test, 60_000);
      }
    });
  }
  it('ran nothing a phone lacks, but for su, which a user build does not have', async () => {
    const log = await readCommandLog(path.join(work.dir, 'commands.jsonl'), ['su']);
    expect(log.missing).toEqual([]);
    expect(log.refused).toEqual([]);
    process.stderr.write(
      `appium-adb ran ${log.entries.length} commands, ${log.programs.length} programs: ${log.programs.join(' ')}\n`,
    );
  });
});
