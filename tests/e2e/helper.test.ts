/**
 * The on-device helper end to end: `droidbus helper install` (the built CLI) puts the real APKs of
 * the npm package appium-uiautomator2-server on a `droidbus sim` device through the real adb server;
 * `am instrument` starts the simulated server; `adb forward` reaches it over HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADB_BINARY } from '../helpers/adb-server.js';
import { startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';
import { runCli } from '../helpers/run-cli.js';
import { until } from '../helpers/until.js';

const INSTRUMENTATION = 'io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner';

/** What the server answers: `{"sessionId": …, "value": …}`. */
interface Hub {
  sessionId: string | null;
  value: { error?: string; [k: string]: unknown } & Record<string, unknown>;
}

let world: DeviceWorld;
let serial: string;
let env: Record<string, string>;
let instrumentation: ChildProcess | undefined;

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 20, logcatRate: 0 });
  serial = world.serials[0]!;
  env = { ...(world.server.env as Record<string, string>), DROIDBUS_HOME: world.home };
  await world.shell(serial, 'sim latency helper-start 0; sim latency helper 0');
}, 120_000);
afterAll(async () => {
  instrumentation?.kill();
  await world?.stop();
});

async function helper(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runCli(['helper', ...args, '--serial', serial], { env });
}

async function hub(
  port: number,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Hub }> {
  const r = await fetch(`http://127.0.0.1:${port}/wd/hub${path}`, {
    method,
    ...(body !== undefined
      ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
      : {}),
  });
  const text = await r.text();
  return { status: r.status, json: (text === '' ? null : JSON.parse(text)) as Hub };
}

describe('droidbus helper and the simulated UiAutomator2 server', () => {
  it('installs the real APKs, runs as an instrumentation on tcp:6790, serves every window, and stops with force-stop', async () => {
    expect((await helper('status')).stdout).toBe(`${serial}: not installed\n`);
    const installed = await helper('install');
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toBe(`${serial}: installed, version 10.6.6, not running\n`);

    // The real start command; -w keeps it until the server ends.
    let output = '';
    instrumentation = spawn(
      ADB_BINARY,
      ['-s', serial, 'shell', 'am', 'instrument', '-w', '-e', 'disableAnalytics', 'true', INSTRUMENTATION],
      { env: world.server.env },
    );
    instrumentation.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    const ended = new Promise<number | null>((r) => instrumentation!.once('exit', (code) => r(code)));

    const forwarded = await world.server.adb(['-s', serial, 'forward', 'tcp:0', 'tcp:6790']);
    const port = Number(forwarded.stdout.trim());
    expect(port).toBeGreaterThan(0);
    const status = await until('the helper to answer', async () => {
      const r = await hub(port, 'GET', '/status').catch(() => undefined);
      return r?.status === 200 ? r : undefined;
    });
    expect(status.json).toMatchObject({
      sessionId: 'None',
      value: { ready: true, message: 'UiAutomator2 Server is ready to accept commands' },
    });
    expect((await helper('status')).stdout).toBe(`${serial}: installed, version 10.6.6, running\n`);

    // While it runs it is the device's UiAutomation client: uiautomator dump is refused.
    expect(await world.shell(serial, 'uiautomator dump /dev/tty 2>&1')).toContain('already registered');

    expect((await hub(port, 'POST', '/session', {})).json.value.error).toBe('session not created');
    const session = await hub(port, 'POST', '/session', {
      capabilities: { alwaysMatch: {}, firstMatch: [{}] },
    });
    const id = session.json.sessionId as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await world.shell(serial, 'am start -W -n com.droidbus.sample/.LoginActivity');
    await world.shell(serial, "sim dialog 'Allow access?' 'The app wants your location' Allow Deny");
    // The active window only, by default: the dialog.
    const single = (await hub(port, 'GET', `/session/${id}/source`)).json.value as unknown as string;
    expect(single).toContain('text="Allow"');
    expect(single).not.toContain('com.droidbus.sample:id/username');
    // Every window with enableMultiWindows, top-most first: the bars, the dialog, the app under them.
    expect(
      (
        await hub(port, 'POST', `/session/${id}/appium/settings`, {
          settings: { enableMultiWindows: true, waitForIdleTimeout: 0 },
        })
      ).status,
    ).toBe(200);
    expect((await hub(port, 'GET', `/session/${id}/appium/settings`)).json.value).toMatchObject({
      enableMultiWindows: true,
      waitForIdleTimeout: 0,
    });
    const multi = (await hub(port, 'GET', `/session/${id}/source`)).json.value as unknown as string;
    expect(
      multi.startsWith(
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\r\n<hierarchy index=\"0\" class=\"hierarchy\"",
      ),
    ).toBe(true);
    expect(multi.indexOf('com.droidbus.sample:id/username')).toBeGreaterThan(0);
    expect(multi.indexOf('com.android.systemui:id/clock')).toBeGreaterThan(0);
    expect(multi.indexOf('com.android.systemui:id/clock')).toBeLessThan(multi.indexOf('text="Allow"'));
    expect(multi.indexOf('text="Allow"')).toBeLessThan(multi.indexOf('com.droidbus.sample:id/username'));
    expect((await hub(port, 'GET', `/session/nope/source`)).json.value.error).toBe('invalid session id');
    const unknown = await hub(port, 'GET', '/nothing');
    expect([unknown.status, unknown.json.value.error]).toEqual([404, 'unknown command']);
    // Required fields, as the server's models check them.
    const noKey = await hub(port, 'POST', `/session/${id}/appium/device/press_keycode`, {});
    expect([noKey.status, noKey.json.value.message]).toEqual([
      400,
      "KeyCodeModel: The mandatory field 'keycode' is not present in JSON",
    ]);
    // `/keys` needs a focused element; the dialog has none.
    const noFocus = await hub(port, 'POST', `/session/${id}/keys`, { text: 'x' });
    expect([noFocus.status, noFocus.json.value.error]).toEqual([404, 'no such element']);

    // force-stop ends the instrumentation; the forward then reaches nothing.
    await world.shell(serial, 'am force-stop io.appium.uiautomator2.server');
    expect(await ended).toBe(0);
    expect(output).toContain('INSTRUMENTATION_RESULT: shortMsg=Process crashed.');
    await expect(hub(port, 'GET', '/status')).rejects.toThrow();
    expect(await world.shell(serial, 'uiautomator dump /dev/tty')).toContain(
      'UI hierchary dumped to: /dev/tty',
    );

    const removed = await helper('remove');
    expect(removed.stdout).toBe(`${serial}: not installed\n`);
  }, 120_000);

  it('refuses an instrumentation that is not installed', async () => {
    expect(await world.shell(serial, `am instrument -w ${INSTRUMENTATION} 2>&1`)).toContain(
      `Unable to find instrumentation info for: ComponentInfo{${INSTRUMENTATION}}`,
    );
  });
});
