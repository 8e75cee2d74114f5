/**
 * What Appium's UiAutomator2 driver asks a device at session start, answered by a sim device as a
 * phone answers: the Appium Settings app's foreground service after its launcher intent, `appops`,
 * `pm list instrumentation`.
 */
import { readFileSync } from 'node:fs';
import { SERVER_APK_PATH, TEST_APK_PATH } from 'appium-uiautomator2-server';
import { afterEach, describe, expect, it } from 'vitest';
import { writeApk } from '../../util/apk.js';
import type { SimDevice } from '../device-api.js';
import { runOn } from './collect-io.js';
import { createSimDevice } from '../control/index.js';
import { testIdentity } from '../../../tests/helpers/sim-identity.js';

const identity = testIdentity(7004);

let dev: SimDevice;
afterEach(() => dev?.close());

function settingsApk(): Uint8Array {
  return writeApk({
    packageName: 'io.appium.settings',
    versionCode: 1,
    versionName: '5',
    minSdk: 21,
    targetSdk: 34,
    activities: [{ name: 'io.appium.settings.Settings', launcher: true, exported: true }],
  });
}

async function install(d: SimDevice, apk: Uint8Array): Promise<void> {
  const r = await runOn(d, `cmd package install -S ${apk.length}`, { stdin: apk });
  expect(r.stdout).toContain('Success');
}

describe("a sim device answering Appium's setup", () => {
  it("runs Appium Settings' foreground service once its launcher intent starts it, until the app is stopped", async () => {
    dev = createSimDevice({ identity, logcatRate: 0, dumpLatencyMs: 5 });
    await install(dev, settingsApk());
    expect((await runOn(dev, 'dumpsys activity services io.appium.settings')).stdout).toBe(
      'ACTIVITY MANAGER SERVICES (dumpsys activity services)\n  (nothing)\n',
    );
    await runOn(
      dev,
      'am start -W -n io.appium.settings/.Settings -a android.intent.action.MAIN -c android.intent.category.LAUNCHER',
    );
    const services = (await runOn(dev, 'dumpsys activity services io.appium.settings')).stdout;
    expect(services).toContain('  * ServiceRecord{');
    expect(services).toContain(' u0 io.appium.settings/.ForegroundService}');
    expect(services).toMatch(/\n {4}isForeground=true foregroundId=1 types=0x00000000\n/);
    // Another package's services are not listed under this one.
    expect((await runOn(dev, 'dumpsys activity services com.droidbus.sample')).stdout).toContain('(nothing)');
    await runOn(dev, 'am force-stop io.appium.settings');
    expect((await runOn(dev, 'dumpsys activity services io.appium.settings')).stdout).toContain('(nothing)');
  });

  it('starts no foreground service on Android 7 (startForegroundService is Android 8+)', async () => {
    dev = createSimDevice({
      identity: { ...identity, sdk: 25, release: '7.1' },
      logcatRate: 0,
      dumpLatencyMs: 5,
    });
    await install(dev, settingsApk());
    await runOn(dev, 'am start -W -n io.appium.settings/.Settings');
    expect((await runOn(dev, 'dumpsys activity services io.appium.settings')).stdout).not.toContain(
      'isForeground=true',
    );
  });

  it('keeps app-op modes per package and refuses unknown ops and packages as AppOpsService.Shell does', async () => {
    dev = createSimDevice({ identity, logcatRate: 0, dumpLatencyMs: 5 });
    await install(dev, settingsApk());
    expect((await runOn(dev, 'appops get io.appium.settings')).stdout).toBe('No operations.\n');
    const set = await runOn(dev, 'appops set io.appium.settings PROJECT_MEDIA allow');
    expect([set.code, set.stdout, set.stderr]).toEqual([0, '', '']);
    expect((await runOn(dev, 'appops get io.appium.settings PROJECT_MEDIA')).stdout).toBe(
      'PROJECT_MEDIA: allow\n',
    );
    expect((await runOn(dev, 'appops set io.appium.settings NOT_AN_OP allow')).stdout).toBe(
      'Error: Unknown operation string: NOT_AN_OP\n',
    );
    expect((await runOn(dev, 'appops set no.such.pkg PROJECT_MEDIA allow')).stderr).toBe(
      'Error: No UID for no.such.pkg in user 0\n',
    );
  });

  it("lists installed instrumentations with their targets, as the driver polls for the server's", async () => {
    dev = createSimDevice({ identity, logcatRate: 0, dumpLatencyMs: 5 });
    expect((await runOn(dev, 'pm list instrumentation')).stdout).toBe('');
    await install(dev, readFileSync(SERVER_APK_PATH));
    await install(dev, readFileSync(TEST_APK_PATH));
    const listed = (await runOn(dev, 'pm list instrumentation')).stdout;
    expect(listed).toBe(
      'instrumentation:io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner (target=io.appium.uiautomator2.server)\n',
    );
    expect((await runOn(dev, 'pm list instrumentation com.other')).stdout).toBe('');
    expect((await runOn(dev, 'pm list instrumentation -f')).stdout).toMatch(
      /^instrumentation:\/data\/app\/.+\/base\.apk=io\.appium\.uiautomator2\.server\.test\/androidx\.test\.runner\.AndroidJUnitRunner \(target=io\.appium\.uiautomator2\.server\)\n$/,
    );
  });

  it('reads and switches location as cmd location does, and serves cmd appops as appops', async () => {
    dev = createSimDevice({ identity, logcatRate: 0, dumpLatencyMs: 5 });
    expect((await runOn(dev, 'cmd location is-location-enabled')).stdout).toBe('true\n');
    await runOn(dev, 'cmd location set-location-enabled false');
    expect((await runOn(dev, 'cmd location is-location-enabled')).stdout).toBe('false\n');
    expect((await runOn(dev, 'settings get secure location_mode')).stdout).toBe('0\n');
    await install(dev, settingsApk());
    await runOn(dev, 'cmd appops set io.appium.settings PROJECT_MEDIA allow');
    expect((await runOn(dev, 'appops get io.appium.settings')).stdout).toBe('PROJECT_MEDIA: allow\n');
  });

  it('keeps the Doze allow-list as dumpsys deviceidle whitelist edits it', async () => {
    dev = createSimDevice({ identity, logcatRate: 0, dumpLatencyMs: 5 });
    await install(dev, settingsApk());
    expect((await runOn(dev, 'dumpsys deviceidle whitelist +io.appium.settings')).stdout).toBe(
      'Added: io.appium.settings\n',
    );
    const listed = (await runOn(dev, 'dumpsys deviceidle whitelist')).stdout.trim().split('\n');
    expect(listed[0]).toMatch(/^system,com\.android\.shell,\d+$/);
    expect(listed).toContainEqual(expect.stringMatching(/^user,io\.appium\.settings,\d+$/));
    expect((await runOn(dev, 'dumpsys deviceidle whitelist -io.appium.settings')).stdout).toBe(
      'Removed: io.appium.settings\n',
    );
    expect((await runOn(dev, 'dumpsys deviceidle whitelist -io.appium.settings')).stdout).toBe('');
    expect((await runOn(dev, 'dumpsys deviceidle whitelist +no.such.pkg')).stdout).toBe(
      'Unknown package: no.such.pkg\n',
    );
  });
});

describe('location_providers_allowed, as the settings provider writes it', () => {
  // SettingsProvider.updateLocationProvidersAllowedLocked (Android 10/11); issue 80.
  it('below API 31 applies +/- updates to the enabled list and ignores a plain value; from 31 stores what it is given', async () => {
    dev = createSimDevice({ identity: testIdentity(7005, { sdk: 30, release: '11' }), logcatRate: 0 });
    const get = async (): Promise<string> =>
      (await runOn(dev, 'settings get secure location_providers_allowed')).stdout.trim();
    await runOn(dev, 'settings put secure location_providers_allowed -gps');
    expect(await get()).toBe('network');
    await runOn(dev, 'settings put secure location_providers_allowed +gps,+fused');
    // An ArraySet, in String.hashCode order: gps 102570, fused 97798435, network 1843485230.
    expect(await get()).toBe('gps,fused,network');
    const before = await get();
    await runOn(dev, 'settings put secure location_providers_allowed gps');
    expect(await get()).toBe(before);
    dev.close();
    dev = createSimDevice({ identity: testIdentity(7006), logcatRate: 0 });
    await runOn(dev, 'settings put secure location_providers_allowed +gps');
    expect(await get()).toBe('+gps');
  });
});

describe("a reboot as root, as appium-adb's reboot does it (setprop sys.boot_completed 0; stop; start)", () => {
  // system/core/toolbox/start.cpp (root only; the default services through ctl.start / ctl.stop);
  // property_service.cpp (root sets any property but a ro. one already set); issue 80.
  it('refuses the shell user, and as root stops and starts the framework, which completes its boot again', async () => {
    // An emulator (ro.debuggable=1): adb root works there.
    dev = createSimDevice({ identity: testIdentity(7007, { serial: 'emulator-5570' }), logcatRate: 0 });
    const getprop = async (name: string): Promise<string> =>
      (await runOn(dev, `getprop ${name}`)).stdout.trim();
    const asShell = await runOn(dev, 'stop');
    expect([asShell.code, asShell.stderr]).toEqual([1, 'Must be root\n']);
    expect((await runOn(dev, 'setprop sys.boot_completed 0')).code).toBe(1);
    expect(dev.adbRoot?.(true)).toBe('restarting adbd as root\n');
    expect((await runOn(dev, 'setprop sys.boot_completed 0')).code).toBe(0);
    expect(await getprop('sys.boot_completed')).toBe('0');
    expect((await runOn(dev, 'setprop ro.debuggable 0')).code).toBe(1);
    expect((await runOn(dev, 'stop')).code).toBe(0);
    expect(await getprop('init.svc.zygote')).toBe('stopped');
    expect(await getprop('sys.boot_completed')).toBe('0');
    expect((await runOn(dev, 'start')).code).toBe(0);
    expect(await getprop('init.svc.zygote')).toBe('running');
    expect(await getprop('sys.boot_completed')).toBe('1');
  });
});
