/**
 * The host's page in a real browser: refused without its cookie, opened by the one-time login
 * link, showing the sim devices live, the sessions (with a version mismatch flagged), and the
 * storage folders the user allows. Its API checks the cookie, the Origin and the Host; no agent
 * can use the host requests behind it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as SocketClient from '../../src/bus/socket-client.js';
import { run, startAdbServer } from '../helpers/adb-server.js';
import type { AdbServer } from '../helpers/adb-server.js';
import { shortTempDir, startHostProcess, waitFor } from '../helpers/host.js';
import type { HostProcess } from '../helpers/host.js';
import { rawRequest } from '../helpers/http-host.js';
import { startMcp } from '../helpers/mcp-client.js';
import type { McpSessionHandle } from '../helpers/mcp-client.js';
import { CHROMIUM, CHROMIUM_FLAGS, saveScreenshot, startBrowser } from '../helpers/page-browser.js';
import type { TestBrowser } from '../helpers/page-browser.js';
import { fromDist, tempDir } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { startSimFarm } from '../helpers/sim-farm.js';
import type { SimFarm } from '../helpers/sim-farm.js';

const home = shortTempDir('db-pgl-');
let server: AdbServer;
let farm: SimFarm;
/** A device that has not accepted this computer's key. */
let locked: SimFarm;
let host: HostProcess;
let env: Record<string, string>;
let base: string;
let browser: TestBrowser;
let page: Page;
let mcp: McpSessionHandle;

/** The login link the host printed at start. */
function printedLink(): string {
  return /page: (\S+\/ui\/login\?t=\S+)/.exec(host.stdout())![1]!;
}

/** The device folders settings.json allows ({} when there is no settings file yet). */
function storedFolders(): Record<string, string[]> {
  try {
    return (
      (
        JSON.parse(readFileSync(path.join(home.dir, 'settings.json'), 'utf8')) as {
          device_storage?: Record<string, string[]>;
        }
      ).device_storage ?? {}
    );
  } catch {
    return {};
  }
}

async function sessionCookie(): Promise<string> {
  const cookies = await browser.context.cookies(`${base}/ui/`);
  const c = cookies.find((x) => x.name.startsWith('droidbus_page_'));
  expect(c).toBeDefined();
  return `${c!.name}=${c!.value}`;
}

/** One page API call made by hand, with exactly these headers. */
function api(
  route: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  return rawRequest(`${base}/ui/api/${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { host: new URL(base).host, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

beforeAll(async () => {
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 2 });
  locked = await startSimFarm(server, { devices: 1, auth: 'unauthorized' });
  env = { ...(server.env as Record<string, string>), DROIDBUS_HOME: home.dir };
  host = await startHostProcess(['--ui', '127.0.0.1:0'], { env });
  const link = await waitFor(() => /page: (\S+)/.exec(host.stdout()), 'the host to print its login link');
  base = new URL(link[1]!).origin;
  browser = await startBrowser();
  page = await browser.context.newPage();
  mcp = await startMcp([], { env });
});
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await browser?.close();
  await host?.stop();
  await farm?.stop();
  await locked?.stop();
  await server?.stop();
  home.remove();
});

describe("the host's page", () => {
  it('is refused without the login cookie: the page, its files and its API', async () => {
    const response = await page.goto(`${base}/ui/`);
    expect(response?.status()).toBe(401);
    await expect(page.locator('#refused').textContent()).resolves.toContain('droidbus ui');
    expect(await page.locator('nav').count()).toBe(0);
    expect((await api('meta', {})).status).toBe(401);
    expect((await api('events', {})).status).toBe(401);
    const refused = await api(
      'bus',
      { 'content-type': 'application/json', origin: base, 'x-droidbus-page': '1' },
      { type: 'devices.list', payload: {} },
    );
    expect(refused.status).toBe(401);
  });

  it('opens with the one-time login link, which sets an HttpOnly SameSite=Strict cookie and works once', async () => {
    const link = printedLink();
    await page.goto(link);
    await page.waitForURL(`${base}/ui/`);
    await page.locator('nav a[aria-current="page"]', { hasText: 'Devices' }).waitFor();
    const cookie = (await browser.context.cookies(`${base}/ui/`)).find((c) =>
      c.name.startsWith('droidbus_page_'),
    )!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/ui', secure: false });
    // The same link in another browser is refused: it was burned.
    const other = await startBrowser();
    try {
      const second = await other.context.newPage();
      const r = await second.goto(link);
      expect(r?.status()).toBe(401);
      await expect(second.locator('#refused').textContent()).resolves.toContain('already used');
    } finally {
      await other.close();
    }
  });

  it('shows the sim devices live with model and API level, a hint for an unauthorized one, and a screenshot on demand', async () => {
    for (const d of farm.devices) {
      const row = page.locator(`tr[data-serial="${d.serial}"]`);
      await row.waitFor();
      await expect(row.textContent()).resolves.toContain('device');
      await waitFor(
        async () => (await row.textContent())?.includes(`API ${d.sdk}`),
        `API level of ${d.serial}`,
      );
      expect(await row.textContent()).toContain(d.model);
    }
    const unauthorized = page.locator(`tr[data-serial="${locked.devices[0]!.serial}"]`);
    await unauthorized.waitFor();
    expect(await unauthorized.textContent()).toContain('unauthorized');
    expect(await unauthorized.locator('.hint').textContent()).toMatch(/allow|accept|authori[sz]e/i);
    expect(await unauthorized.getByRole('button', { name: 'Screenshot' }).count()).toBe(0);
    const first = page.locator(`tr[data-serial="${farm.devices[0]!.serial}"]`);
    await waitFor(
      async () => (await first.textContent())?.includes('com.google.android.apps.nexuslauncher'),
      'the current activity',
    );
    await first.getByRole('button', { name: 'Screenshot' }).click();
    const img = first.locator('img.screenshot');
    await img.waitFor({ timeout: 30_000 });
    expect(
      await img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth),
    ).toBeGreaterThan(100);
    await saveScreenshot(page, 'page-devices');
    // The on-device UI helper: its state per device, and Install — the person's decision.
    await waitFor(async () => (await first.textContent())?.includes('not installed'), 'the helper state');
    await first.getByRole('button', { name: 'Install' }).click();
    await waitFor(
      async () => (await first.textContent())?.includes('installed 10.6.6'),
      'the helper installed',
      60_000,
    );
    expect(
      (await server.adb(['-s', farm.devices[0]!.serial, 'shell', 'pm list packages io.appium.uiautomator2']))
        .stdout,
    ).toContain('package:io.appium.uiautomator2.server.test');
    await first.getByRole('button', { name: 'Remove' }).click();
    await waitFor(
      async () => (await first.textContent())?.includes('not installed'),
      'the helper removed',
      30_000,
    );
    // A device that leaves disappears from the list by itself (devices.changed).
    const gone = farm.devices[1]!.serial;
    await server.adb(['disconnect', gone]);
    await page.locator(`tr[data-serial="${gone}"]`).waitFor({ state: 'detached', timeout: 15_000 });
    await server.adb(['connect', gone]);
    await page.locator(`tr[data-serial="${gone}"]`).waitFor({ timeout: 15_000 });
  });

  it("checks the Origin, the page's header and the Host of every API call", async () => {
    const cookie = await sessionCookie();
    const call = { type: 'devices.list', payload: {} };
    const json = { 'content-type': 'application/json', cookie, 'x-droidbus-page': '1' };
    const ok = await api('bus', { ...json, origin: base }, call);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true });
    expect((await api('bus', { ...json, origin: 'http://evil.example' }, call)).status).toBe(403);
    expect((await api('bus', json, call)).status).toBe(403);
    expect((await api('bus', { ...json, origin: base, 'x-droidbus-page': '0' }, call)).status).toBe(403);
    expect((await api('bus', { ...json, origin: base, 'sec-fetch-site': 'same-site' }, call)).status).toBe(
      403,
    );
    const rebound = await rawRequest(`${base}/ui/api/meta`, {
      headers: { host: `evil.example:${new URL(base).port}`, cookie },
    });
    expect(rebound.status).toBe(403);
    // Only what the views need: no build.run, no device input.
    const run = await api(
      'bus',
      { ...json, origin: base },
      { type: 'build.run', payload: { root: '/x', task: 'assemble' } },
    );
    expect(JSON.parse(run.body)).toMatchObject({ ok: false, error: { code: 'INVALID' } });
  });

  it('opens from a cold browser the way a person opens the link: plain headless chromium, no script driving it', async () => {
    // `chromium --headless --dump-dom LINK` loads the link as a typed or pasted URL does (no
    // initiator, Sec-Fetch-Site none), waits for the load, and prints the DOM: the login must lead
    // straight to the page, not to an interim page or a redirect loop that never settles.
    const profile = tempDir('db-pgl-chromium-');
    try {
      const r = await runCli(['ui', '--no-open'], { env });
      const link = r.stdout.trim();
      const dom = await run(
        CHROMIUM,
        [...CHROMIUM_FLAGS, '--headless', `--user-data-dir=${profile.dir}`, '--dump-dom', link],
        process.env,
        { timeoutMs: 45_000 },
      );
      expect(dom.code, dom.stderr.slice(-500)).toBe(0);
      expect(dom.stdout).toContain('<nav');
      expect(dom.stdout).not.toContain('id="refused"');
      expect(dom.stdout).not.toContain('Logged in.');
      // The link was used: the same one again answers the refusal at once.
      const again = await run(
        CHROMIUM,
        [...CHROMIUM_FLAGS, '--headless', `--user-data-dir=${profile.dir}`, '--dump-dom', link],
        process.env,
        { timeoutMs: 45_000 },
      );
      expect(again.stdout).toContain('already used');
    } finally {
      profile.remove();
    }
  });

  it('logs in again with the link droidbus ui prints', async () => {
    const r = await runCli(['ui', '--no-open'], { env });
    expect(r.code, r.stderr).toBe(0);
    const link = r.stdout.trim();
    expect(link).toMatch(new RegExp(`^${base}/ui/login\\?t=`));
    const other = await startBrowser({ colorScheme: 'dark' });
    try {
      const p = await other.context.newPage();
      await p.goto(link);
      await p.locator(`tr[data-serial="${farm.devices[0]!.serial}"]`).waitFor();
      await saveScreenshot(p, 'page-devices-dark');
    } finally {
      await other.close();
    }
  });

  it('lists the attached session with its client, toolsets and version, and flags a version mismatch', async () => {
    const { connectSocketBus } = await fromDist<typeof SocketClient>('bus/socket-client.ts');
    const old = await connectSocketBus({
      path: path.join(home.dir, 'host.sock'),
      hello: { attach: 1, version: '0.0.9', session_id: 'old-session-1', project: null, pid: process.pid },
      timeoutMs: 2_000,
      origin: { kind: 'cli' },
    });
    try {
      await page.getByRole('link', { name: 'Sessions', exact: true }).click();
      const table = page.getByRole('table', { name: 'MCP sessions' });
      await waitFor(
        async () => (await table.textContent())?.includes('droidbus-e2e'),
        'the MCP client to be listed',
      );
      const agentRow = table.locator('tr', { hasText: 'droidbus-e2e' });
      expect(await agentRow.textContent()).toContain('attached');
      expect(await agentRow.textContent()).toContain('default');
      const flagged = table.locator('tr.flagged');
      await flagged.waitFor();
      expect(await flagged.textContent()).toContain(
        `runs droidbus 0.0.9, the host runs 0.1.0: restart the AI client that started it (pid ${process.pid})`,
      );
      await saveScreenshot(page, 'page-sessions');
    } finally {
      await old.client.close();
    }
  });

  it('refuses the host requests behind the page to an agent session, whatever origin it claims', async () => {
    const { connectSocketBus } = await fromDist<typeof SocketClient>('bus/socket-client.ts');
    const agent = await connectSocketBus({
      path: path.join(home.dir, 'host.sock'),
      hello: { attach: 1, version: '0.1.0', session_id: 'sneaky-agent', project: null, pid: process.pid },
      timeoutMs: 2_000,
      origin: { kind: 'host' },
    });
    try {
      const outcomes = await Promise.allSettled([
        agent.client.request('host.trust', { path: home.dir }),
        agent.client.request('host.page_link', {}),
        agent.client.request('host.storage_allow', {
          serial: farm.devices[0]!.serial,
          dir: '/sdcard/Download',
        }),
        agent.client.request('host.untrust', { root: home.dir }, { origin: { kind: 'host' } }),
        agent.client.request('host.activity', {}),
        agent.client.request('device.helper_install', { serial: farm.devices[0]!.serial }),
        agent.client.request('device.helper_remove', { serial: farm.devices[0]!.serial }),
      ]);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe('rejected');
        expect((outcome as PromiseRejectedResult).reason).toMatchObject({
          code: 'INVALID',
          message: expect.stringContaining('an agent cannot'),
        });
      }
      expect(storedFolders()).toEqual({});
    } finally {
      await agent.client.close();
    }
  });

  it('serves the page on loopback by default, and warns when it is bound to every interface', async () => {
    for (const [args, exposed] of [
      [[], false],
      [['--ui', '0.0.0.0:0'], true],
    ] as const) {
      const other = shortTempDir('db-pgx-');
      const h = await startHostProcess([...args], { env: { ...env, DROIDBUS_HOME: other.dir } });
      try {
        const link = new URL((await waitFor(() => /page: (\S+)/.exec(h.stdout()), 'the login link'))[1]!);
        expect(link.hostname).toBe('127.0.0.1');
        if (exposed) {
          await waitFor(() => h.stderr().includes('WARNING'), 'the warning');
          expect(h.stderr()).toContain(
            "WARNING: The droidbus host's page listens on 0.0.0.0:" +
              link.port +
              ' (every network interface), reachable from other machines.',
          );
          expect(h.stderr()).toContain('not encrypted');
        } else {
          expect(h.stderr()).not.toContain('WARNING');
        }
      } finally {
        await h.stop();
        other.remove();
      }
    }
    const both = await runCli(['host', '--ui', '8766', '--no-ui'], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('choose --ui or --no-ui');
    const noPort = await runCli(['host', '--ui', '127.0.0.1'], { env });
    expect(noPort.code).toBe(2);
    expect(noPort.stderr).toContain('names no port');
  });

  it('allows and revokes a device folder for the file tools', async () => {
    await page.getByRole('link', { name: 'Trust & approvals' }).click();
    const serial = farm.devices[0]!.serial;
    const storage = page.locator('section[aria-labelledby="storage-h"]');
    await storage.locator('select').selectOption(serial);
    await storage.getByLabel('Folder on the device').fill('/sdcard/Pictures/');
    await storage.getByRole('button', { name: 'Allow' }).click();
    const revoke = storage.getByRole('button', { name: `Revoke /sdcard/Pictures on ${serial}` });
    await revoke.waitFor();
    expect(storedFolders()).toEqual({ [serial]: ['/sdcard/Pictures'] });
    const list = await runCli(['storage', '--list'], { env });
    expect(list.stdout).toContain('/sdcard/Pictures');
    await revoke.click();
    await revoke.waitFor({ state: 'detached' });
    expect(storedFolders()).toEqual({});
  });
});
