/**
 * Appium's own client against the simulator (issue 54): appium 3 with appium-uiautomator2-driver and
 * webdriverio, all from npm, make a UiAutomator2 session with default capabilities on a `droidbus sim`
 * device through the real adb server, then read, find, click, type, screenshot and end it — each
 * effect checked on the simulator's side.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADB_BINARY, startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import {
  installAppium,
  sdkWithAdb,
  startAppium,
  wdioRemote,
  type AppiumServer,
  type WdioBrowser,
} from '../helpers/appium-client.js';
import { tempDir } from '../helpers/paths.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';
import { readCommandLog } from '../helpers/command-log.js';

let server: AdbServer;
let farm: SimFarm;
let appium: AppiumServer;
let serial: string;
const sdk = tempDir('droidbus-appium-sdk-');
const commandLog = path.join(sdk.dir, 'commands.jsonl');

beforeAll(async () => {
  await installAppium();
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 1, logcatRate: 0, commandLog });
  serial = farm.devices[0]!.serial;
  appium = await startAppium({
    ...server.env,
    ANDROID_HOME: sdkWithAdb(path.join(sdk.dir, 'sdk'), ADB_BINARY),
  });
}, 700_000);
afterAll(async () => {
  await appium?.stop();
  await farm?.stop();
  await server?.stop();
  sdk.remove();
});

const shell = async (command: string): Promise<string> =>
  (await server.adb(['-s', serial, 'shell', command])).stdout;

describe('an Appium UiAutomator2 session on a sim device', () => {
  it('starts with default capabilities, reads, finds, clicks, types, screenshots and ends', async () => {
    const timings: [string, number][] = [];
    const started = performance.now();
    let browser: WdioBrowser;
    try {
      browser = await wdioRemote({
        hostname: '127.0.0.1',
        port: appium.port,
        logLevel: 'warn',
        connectionRetryTimeout: 120_000,
        capabilities: {
          platformName: 'Android',
          'appium:automationName': 'UiAutomator2',
          'appium:udid': serial,
          'appium:adbPort': server.port,
        },
      });
    } catch (err) {
      throw new Error(`${String(err)}\n--- appium log ---\n${appium.log().slice(-6000)}`);
    }
    timings.push(['session (default capabilities)', Math.round(performance.now() - started)]);
    const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      try {
        return await run();
      } catch (err) {
        throw new Error(`${name}: ${String(err)}\n--- appium log ---\n${appium.log().slice(-4000)}`);
      } finally {
        timings.push([name, Math.round(performance.now() - started)]);
      }
    };
    // The driver's setup, as the device keeps it: Appium Settings' foreground service, its app op,
    // and the UiAutomator2 server's process.
    expect(await shell('dumpsys activity services io.appium.settings')).toContain('isForeground=true');
    expect(await shell('appops get io.appium.settings PROJECT_MEDIA')).toBe('PROJECT_MEDIA: allow\n');
    expect((await shell('pidof io.appium.uiautomator2.server')).trim()).toMatch(/^\d+$/);
    await shell('am start -W -n com.droidbus.sample/.LoginActivity');
    const source = await step('page source', () => browser.getPageSource());
    expect(source).toContain('com.droidbus.sample:id/username');
    // Find by id, type into it: the field's text on the sim.
    const username = await step('find by id', () => browser.$('id=com.droidbus.sample:id/username'));
    expect(await username.isExisting()).toBe(true);
    await step('type', () => username.setValue('ada'));
    const stats = async (): Promise<{ last_input: unknown[] | null }> =>
      JSON.parse(await shell('sim stats')) as { last_input: unknown[] | null };
    expect((await stats()).last_input?.[0]).toMatch(/^helper-/);
    expect(await browser.getPageSource()).toContain('text="ada"');
    // Find by xpath, click: the sign-in button's action ran.
    const signIn = await step('find by xpath', () =>
      browser.$('//*[@resource-id="com.droidbus.sample:id/sign_in"]'),
    );
    await step('click', () => signIn.click());
    // No password: the sample app shows its error under the form (a view of the top activity).
    expect(await shell('dumpsys activity top')).toContain('app:id/error');
    await step('back', () => browser.back());
    // BACK finished the login screen.
    expect(await shell('dumpsys activity top')).not.toContain('LoginActivity');
    const size = await step('window size', () => browser.getWindowSize());
    const wm = /(\d+)x(\d+)/.exec(await shell('wm size'))!;
    expect([size.width, size.height]).toEqual([Number(wm[1]), Number(wm[2])]);
    const png = Buffer.from(await step('screenshot', () => browser.takeScreenshot()), 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // IHDR: the picture is the display's size.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size.width, size.height]);
    // The driver's adb screenshot path: the displays SurfaceFlinger lists, each screencap'd.
    const shots = (await step('screenshots (adb)', () => browser.execute('mobile: screenshots'))) as Record<
      string,
      { isDefault: boolean; payload: string }
    >;
    const shot = Object.values(shots);
    expect(shot).toHaveLength(1);
    expect(shot[0]!.isDefault).toBe(true);
    const adbPng = Buffer.from(shot[0]!.payload, 'base64');
    expect([adbPng.readUInt32BE(16), adbPng.readUInt32BE(20)]).toEqual([size.width, size.height]);
    await step('delete session', () => browser.deleteSession());
    // The server stops with its session, as the real one does when the driver deletes it.
    expect((await shell('pidof io.appium.uiautomator2.server')).trim()).toBe('');
    // The figures the closing note reports (stderr: vitest shows it with the test).
    process.stderr.write(`${timings.map(([n, ms]) => `${n}: ${ms} ms`).join('\n')}\n`);
  });

  it('ran nothing the device lacks: every command the driver sent is one a phone has', async () => {
    // The session above is over; the device logged every command and stream the driver opened.
    const log = await readCommandLog(commandLog);
    // A refused stream is only the server's port before it listens (the driver polls it), as on a phone.
    expect(log.refused).toEqual([]);
    // 127 is the shell's "not found": nothing the driver runs may be missing from the device.
    expect(log.missing).toEqual([]);
    process.stderr.write(
      `the driver ran ${log.entries.length} commands, ${log.programs.length} programs: ${log.programs.join(' ')}\n`,
    );
  });
});
