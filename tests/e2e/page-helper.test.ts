/**
 * The host's page installs and removes the on-device UI helper through the device actor, over the adb
 * server the host was given with `--adb-server` — not the one its environment names (here a port
 * where no server listens), which the page's own adb client used before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { shortTempDir, startHostProcess, waitFor, type HostProcess } from '../helpers/host.js';
import { rawRequest } from '../helpers/http-host.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';

let server: AdbServer;
let farm: SimFarm;
let host: HostProcess;
let base: string;
let cookie: string;
const home = shortTempDir('db-pgh-');

beforeAll(async () => {
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 1 });
  const env = {
    ...(server.env as Record<string, string>),
    DROIDBUS_HOME: home.dir,
    // Nothing listens here: only --adb-server leads to the devices.
    ANDROID_ADB_SERVER_PORT: String(await freePort()),
  };
  host = await startHostProcess(['--ui', '127.0.0.1:0', '--adb-server', `tcp:127.0.0.1:${server.port}`], {
    env,
  });
  const link = (
    await waitFor(() => /page: (\S+\/ui\/login\?t=\S+)/.exec(host.stdout()), 'the login link')
  )[1]!;
  base = new URL(link).origin;
  const login = await rawRequest(link, { headers: { host: new URL(base).host } });
  const set = [login.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('droidbus_page_'));
  expect(set, `login answered ${login.status}`).toBeDefined();
  cookie = set!.split(';')[0]!;
}, 60_000);
afterAll(async () => {
  await host?.stop();
  await farm?.stop();
  await server?.stop();
  home.remove();
});

/** One bus request as the page sends it. */
async function pageBus(
  type: string,
  payload: unknown,
): Promise<{ ok: boolean; value?: unknown; error?: unknown }> {
  const r = await rawRequest(`${base}/ui/api/bus`, {
    method: 'POST',
    headers: {
      host: new URL(base).host,
      origin: base,
      cookie,
      'content-type': 'application/json',
      'x-droidbus-page': '1',
    },
    body: JSON.stringify({ type, payload }),
  });
  expect(r.status, r.body).toBe(200);
  return JSON.parse(r.body) as { ok: boolean; value?: unknown; error?: unknown };
}

describe("the page's helper install", () => {
  it('reaches the device over --adb-server: status, install and removal', async () => {
    const serial = farm.devices[0]!.serial;
    const before = await pageBus('device.helper', { serial });
    expect(before).toMatchObject({ ok: true, value: { serial, installed: false } });
    const installed = await pageBus('device.helper_install', { serial });
    expect(installed, JSON.stringify(installed)).toMatchObject({
      ok: true,
      value: { installed: true, current: true },
    });
    const listed = await server.adb(['-s', serial, 'shell', 'pm list packages io.appium.uiautomator2']);
    expect(listed.stdout).toContain('package:io.appium.uiautomator2.server');
    const removed = await pageBus('device.helper_remove', { serial });
    expect(removed).toMatchObject({ ok: true, value: { installed: false } });
  }, 240_000);
});
