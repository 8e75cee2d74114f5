/**
 * A phone where Appium's driver already installed a newer UiAutomator2 server: `droidbus helper
 * install` keeps it (installing ours over it is INSTALL_FAILED_VERSION_DOWNGRADE, which the
 * simulator's package manager answers as a device does) and droidbus reads through it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeApk } from '../../src/util/apk.js';
import { HELPER_VERSION } from '../../src/device/uiautomator2-helper.js';
import { startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';
import { runCli } from '../helpers/run-cli.js';

let world: DeviceWorld;
let serial: string;
let env: Record<string, string>;
const dir = mkdtempSync(path.join(tmpdir(), 'droidbus-newer-helper-'));

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 40, logcatRate: 0 });
  serial = world.serials[0]!;
  env = { ...(world.server.env as Record<string, string>), DROIDBUS_HOME: world.home };
  await world.shell(serial, 'sim latency helper-start 300; sim latency helper 20');
}, 60_000);
afterAll(async () => {
  await world?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a newer UiAutomator2 server already on the phone', () => {
  it('is kept by droidbus helper install and used to read the screen', async () => {
    const [major, minor] = HELPER_VERSION.split('.').map(Number);
    const newer = `${major}.${minor! + 1}.0`;
    const apk = path.join(dir, 'server.apk');
    writeFileSync(
      apk,
      writeApk({
        packageName: 'io.appium.uiautomator2.server',
        versionCode: 9_999,
        versionName: newer,
        minSdk: 21,
        targetSdk: 34,
        activities: [{ name: '.Settings' }],
      }),
    );
    expect((await world.server.adb(['-s', serial, 'install', apk])).stdout).toContain('Success');
    const installed = await runCli(['helper', 'install', '--serial', serial], { env });
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stderr).toContain(`kept the installed server ${newer}, newer than ${HELPER_VERSION}`);
    const status = await runCli(['helper', 'status', '--serial', serial, '--json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ installed: true, version: newer, current: true });
    const r = await world.call('get_ui_hierarchy', { device_serial: serial });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured['reader']).toBe('helper');
  });

  it('still fails, saying why, when what is there is of another major version', async () => {
    await world.shell(serial, 'am force-stop io.appium.uiautomator2.server');
    const apk = path.join(dir, 'major.apk');
    writeFileSync(
      apk,
      writeApk({
        packageName: 'io.appium.uiautomator2.server',
        versionCode: 99_999,
        versionName: `${Number(HELPER_VERSION.split('.')[0]) + 1}.0.0`,
        minSdk: 21,
        targetSdk: 34,
        activities: [{ name: '.Settings' }],
      }),
    );
    expect((await world.server.adb(['-s', serial, 'install', '-r', apk])).stdout).toContain('Success');
    const installed = await runCli(['helper', 'install', '--serial', serial], { env });
    expect(installed.code).toBe(1);
    expect(installed.stderr).toContain('INSTALL_FAILED_VERSION_DOWNGRADE');
  });
});
