/**
 * The simulator's apps make real HTTP requests the way a phone's do (issue 72): straight to the host
 * (10.0.2.2), through `adb reverse` (the device opens a stream to the real adb server, which connects
 * on the host), and through the global proxy setting. The sample's sign-in posts to a server this
 * test starts; ui_fill_input through MCP signs in.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';
import { signInSample } from '../helpers/sample-sign-in.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let world: DeviceWorld;
let serial: string;
let api: Server;
let apiPort: number;
const seen: Seen[] = [];

/** The sample's server: 200 for ada / right, 401 otherwise. */
function startApi(): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const { password } = JSON.parse(body) as { password: string };
      res.writeHead(password === 'right' ? 200 : 401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(password === 'right' ? { token: 'tok_abc' } : { error: 'bad credentials' }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Signs in on the sample's login screen; resolves when the server has seen one more request. */
async function signIn(password: string): Promise<Seen> {
  const before = seen.length;
  await signInSample(world, serial, password);
  const r = await eventually(async () => seen[before], 10_000, 'the server to see the sign-in');
  expect(seen).toHaveLength(before + 1);
  return r;
}

beforeAll(async () => {
  api = await startApi();
  apiPort = (api.address() as AddressInfo).port;
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 20 });
  serial = world.serials[0]!;
}, 120_000);

afterAll(async () => {
  await world?.stop();
  api?.close();
});

describe("the simulator's network", () => {
  it('reaches the host at 10.0.2.2, as the emulator does', async () => {
    await world.shell(serial, `sim app-server http://10.0.2.2:${apiPort}`);
    const r = await signIn('wrong');
    expect(r).toMatchObject({ method: 'POST', url: '/auth', body: '{"username":"ada","password":"wrong"}' });
    expect(r.headers['x-api-key']).toMatch(/^sk_live_/);
  });

  it('reaches the host through adb reverse: the device opens the stream, the adb server connects', async () => {
    expect((await world.server.adb(['-s', serial, 'reverse', 'tcp:9123', `tcp:${apiPort}`])).code).toBe(0);
    await world.shell(serial, 'sim app-server http://127.0.0.1:9123');
    expect((await signIn('right')).url).toBe('/auth');
    // The right password opens the home screen.
    const deadline = Date.now() + 10_000;
    let top = '';
    while (!top.includes('HomeActivity') && Date.now() < deadline) {
      top = await world.shell(serial, 'dumpsys activity activities | grep topResumedActivity');
    }
    expect(top).toContain('HomeActivity');
  });

  it('sends plain HTTP in absolute form to the global proxy setting', async () => {
    // The "proxy" here is the API server itself, reached by adb reverse: it sees the absolute URL.
    await world.server.adb(['-s', serial, 'reverse', 'tcp:9124', `tcp:${apiPort}`]);
    await world.shell(serial, 'settings put global http_proxy 127.0.0.1:9124');
    try {
      await world.shell(serial, 'sim app-server http://api.example.test:8080');
      const r = await signIn('wrong');
      expect(r.url).toBe('http://api.example.test:8080/auth');
      expect(r.headers.host).toBe('api.example.test:8080');
    } finally {
      await world.shell(serial, 'settings put global http_proxy :0');
    }
  });

  it('shows "No connection" when nothing listens where the app connects', async () => {
    await world.shell(serial, 'sim app-server http://127.0.0.1:9999');
    await signInSample(world, serial, 'x');
    const r = await world.call('wait_for_element', {
      device_serial: serial,
      text: 'No connection',
      timeout_ms: 5000,
    });
    expect(r.isError, r.text).toBe(false);
  });
});
