/**
 * A network capture as a new user tries it (issue 72), MCP client → built droidbus → real adb
 * server → sim device: start a capture, sign in with a wrong password, and the request is in
 * get_network_log with its API key masked; the device's proxy setting is given back at stop.
 */
import { createServer, type Server } from 'node:http';
import { generateCACertificate, getLocal } from 'mockttp';
import { networkInterfaces } from 'node:os';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_PACKAGE } from '../../src/sim/index.js';
import { eventually, startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';
import { startMcp } from '../helpers/mcp-client.js';
import { startHostProcess } from '../helpers/host.js';
import { signInSample } from '../helpers/sample-sign-in.js';
import { isProcessAlive } from '../../src/util/process-info.js';

let world: DeviceWorld;
let serial: string;
let api: Server;
let apiPort: number;

beforeAll(async () => {
  api = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { password } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { password: string };
      res.writeHead(password === 'right' ? 200 : 401, {
        'Content-Type': 'application/json',
        'Set-Cookie': 'session=s3cr3t; HttpOnly',
      });
      res.end(JSON.stringify(password === 'right' ? { token: 'tok_abc123' } : { error: 'bad credentials' }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiPort = (api.address() as AddressInfo).port;
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 20 });
  serial = world.serials[0]!;
  // Seen from the proxy on this machine, the app's server is this machine's.
  await world.shell(serial, `sim app-server http://127.0.0.1:${apiPort}`);
}, 120_000);

afterAll(async () => {
  await world?.stop();
  api?.close();
});

async function proxySetting(): Promise<string> {
  return (await world.shell(serial, 'settings get global http_proxy')).trim();
}

function signIn(password: string): Promise<string> {
  return signInSample(world, serial, password);
}

/** Polls get_network_log until it lists `n` requests (the app's request is asynchronous). */
async function logWith(n: number): Promise<{ text: string; structured: Record<string, unknown> }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await world.call('get_network_log', { device_serial: serial });
    expect(r.isError, r.text).toBe(false);
    const list = r.structured as { requests: { status: number | null }[] };
    if (
      (list.requests.length >= n && list.requests.every((e) => e.status !== null)) ||
      Date.now() > deadline
    ) {
      return r;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a network capture', () => {
  it('records the sign-in through the proxy, masks its secrets, and gives the proxy setting back', async () => {
    expect(await proxySetting()).toBe('null');
    const started = await world.call('start_network_capture', { device_serial: serial });
    expect(started.isError, started.text).toBe(false);
    const port = started.structured['port'] as number;
    expect(await proxySetting()).toBe(`127.0.0.1:${port}`);

    // The proxy listens on the loopback only: another interface of this machine is refused.
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal);
    if (external !== undefined) {
      const refused = await new Promise<boolean>((resolve) => {
        const s = connect({ host: external.address, port }, () => {
          s.destroy();
          resolve(false);
        });
        s.on('error', () => resolve(true));
      });
      expect(refused).toBe(true);
    }

    // The tap's answer names the request it caused.
    expect(await signIn('wrong')).toMatch(
      new RegExp(`Network: POST 127\\.0\\.0\\.1:${apiPort}/auth → 401, \\d+ ms\\.`),
    );
    const log = await logWith(1);
    const [entry] = (
      log.structured as { requests: { id: string; method: string; url: string; status: number }[] }
    ).requests;
    expect(entry).toMatchObject({ method: 'POST', url: `http://127.0.0.1:${apiPort}/auth`, status: 401 });
    expect(log.text).toContain(`POST 127.0.0.1:${apiPort}/auth → 401`);

    const one = await world.call('get_network_request', { device_serial: serial, id: entry!.id });
    expect(one.isError, one.text).toBe(false);
    expect(one.text).toContain('X-Api-Key: [redacted]');
    expect(one.text).toContain('Set-Cookie: [redacted]');
    expect(one.text).toContain('"password": "[redacted]"');
    expect(one.text).toContain('"error": "bad credentials"');
    expect(one.text).not.toContain('sk_live_');
    const unmasked = await world.call('get_network_request', {
      device_serial: serial,
      id: entry!.id,
      unmask: true,
    });
    expect(unmasked.text).toContain('sk_live_');

    const filtered = await world.call('get_network_log', { device_serial: serial, status: 2 });
    expect((filtered.structured as { matched: number }).matched).toBe(0);

    const stopped = await world.call('stop_network_capture', { device_serial: serial });
    expect(stopped.isError, stopped.text).toBe(false);
    expect(stopped.structured).toMatchObject({ restored: true, proxy_now: null, requests: 1 });
    expect(await proxySetting()).toBe('null');
    // Still readable after the stop.
    expect((await world.call('get_network_log', { device_serial: serial })).text).toContain(
      'capture stopped',
    );
  }, 60_000);

  it('gives back the setting the device had before', async () => {
    await world.shell(serial, 'settings put global http_proxy 10.0.2.2:3128');
    try {
      const started = await world.call('start_network_capture', { device_serial: serial });
      expect(started.structured['previous_proxy']).toBe('10.0.2.2:3128');
      await world.call('stop_network_capture', { device_serial: serial });
      expect(await proxySetting()).toBe('10.0.2.2:3128');
    } finally {
      await world.shell(serial, 'settings put global http_proxy :0');
    }
  }, 60_000);

  it('gives the setting back after a kill -9 mid-capture, when the next droidbus starts', async () => {
    const env = { ...(world.server.env as Record<string, string>), DROIDBUS_HOME: world.home };
    const before = await proxySetting();
    const doomed = await startMcp(['--toolsets', 'all'], { env });
    const started = await doomed.client.callTool({
      name: 'start_network_capture',
      arguments: { device_serial: serial },
    });
    expect(started.isError).not.toBe(true);
    const routed = await proxySetting();
    expect(routed).toMatch(/^127\.0\.0\.1:\d+$/);
    process.kill(doomed.pid, 'SIGKILL');
    await eventually(async () => (isProcessAlive(doomed.pid) ? undefined : true), 10_000, 'the kill');
    // Nothing gave it back: the phone points at a proxy that is gone, and the health check says so.
    expect(await proxySetting()).toBe(routed);
    const health = await world.call('run_health_check');
    expect(health.text).toContain(`FAIL network routes: ${serial} → ${routed} (left)`);
    const next = await startMcp(['--toolsets', 'all'], { env });
    try {
      await eventually(
        async () => ((await proxySetting()) === before ? true : undefined),
        20_000,
        'the restore',
      );
    } finally {
      await next.close();
      await doomed.close().catch(() => undefined);
    }
  }, 60_000);

  it("records an app's refusal of the proxy's certificate: the host, and why HTTPS cannot be read", async () => {
    // The app's server speaks HTTPS with a certificate of its own CA (another mockttp).
    const upstreamCa = await generateCACertificate();
    const upstream = getLocal({ https: upstreamCa });
    await upstream.start();
    await upstream.forPost('/auth').thenJson(401, { error: 'bad credentials' });
    try {
      await world.shell(serial, `sim app-server https://localhost:${upstream.port}`);
      const started = await world.call('start_network_capture', {
        device_serial: serial,
        package: SAMPLE_PACKAGE,
      });
      expect(started.isError, started.text).toBe(false);
      // The preinstalled sample is a release build targeting API 35: it trusts the system's CAs only.
      expect(started.structured['https']).toMatchObject({ readable: 'no' });
      expect(started.text).toContain('is a release build targeting API 35: it trusts system CAs only');
      await signIn('wrong');
      const log = await eventually(
        async () => {
          const r = await world.call('get_network_log', { device_serial: serial });
          return (r.structured as { requests: unknown[] }).requests.length > 0 ? r : undefined;
        },
        10_000,
        'the refused handshake',
      );
      expect(log.text).toMatch(/CONNECT localhost\/ → TLS handshake refused by the app/);
      expect(
        await world.call('wait_for_element', {
          device_serial: serial,
          text: 'No connection',
          timeout_ms: 5000,
        }),
      ).toMatchObject({ isError: false });
      await world.call('stop_network_capture', { device_serial: serial });
    } finally {
      await upstream.stop();
      await world.shell(serial, `sim app-server http://127.0.0.1:${apiPort}`);
    }
  }, 60_000);

  it('stops the capture of a session attached to the host when that session ends', async () => {
    const env = { ...(world.server.env as Record<string, string>), DROIDBUS_HOME: world.home };
    const before = await proxySetting();
    const host = await startHostProcess(['--no-ui'], { env });
    try {
      const attached = await startMcp(['--toolsets', 'all'], { env });
      expect(attached.client.getServerVersion()?.title).toContain('attached');
      const started = await attached.client.callTool({
        name: 'start_network_capture',
        arguments: { device_serial: serial },
      });
      expect(started.isError).not.toBe(true);
      expect(await proxySetting()).toMatch(/^127\.0\.0\.1:\d+$/);
      await attached.close();
      // The host runs on; the session is gone, and with it the capture.
      await eventually(
        async () => ((await proxySetting()) === before ? true : undefined),
        20_000,
        'the stop',
      );
      expect(host.proc.exitCode).toBeNull();
    } finally {
      await host.stop();
    }
  }, 60_000);

  it('owes a device that was away at the stop its setting, and gives it back when it is online', async () => {
    const before = await proxySetting();
    const started = await world.call('start_network_capture', { device_serial: serial });
    expect(started.isError, started.text).toBe(false);
    expect((await world.server.adb(['disconnect', serial])).code).toBe(0);
    const stopped = await world.call('stop_network_capture', { device_serial: serial });
    expect(stopped.isError).toBe(true);
    expect(stopped.text).toContain('droidbus gives it back when the device is online again');
    expect((await world.server.adb(['connect', serial])).code).toBe(0);
    await eventually(
      async () => ((await proxySetting()) === before ? true : undefined),
      30_000,
      'the owed restore',
    );
  }, 60_000);

  it('refuses a bad regex and an unknown request clearly', async () => {
    const bad = await world.call('get_network_log', { device_serial: serial, url_regex: '(a' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('url_regex');
    const missing = await world.call('get_network_request', { device_serial: serial, id: 'nope' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('no request nope');
  });
});
