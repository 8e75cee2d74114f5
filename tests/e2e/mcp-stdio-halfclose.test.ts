/**
 * A client that closes stdin with a call still running (a half-close: it still reads stdout) gets
 * that call's answer before the session ends, and the process exits 0. Raw lines over a real pipe to
 * the built CLI, the call a wait on a real adb server's simulated device.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { CLI, tempDir } from '../helpers/paths.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';
import { until } from '../helpers/until.js';

const home = tempDir('droidbus-halfclose-');
let server: AdbServer;
let farm: SimFarm;

beforeAll(async () => {
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 1 });
});
afterAll(async () => {
  await farm?.stop().catch(() => undefined);
  await server?.stop().catch(() => undefined);
  home.remove();
});

it('answers a call still running when the client closes stdin, then exits 0', async () => {
  const child = spawn(process.execPath, [CLI, 'mcp', '--toolsets', 'all'], {
    env: { ...process.env, ...(server.env as Record<string, string>), DROIDBUS_HOME: home.dir },
    cwd: home.dir,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const answer = (id: number) => () =>
    out
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map(
        (l) =>
          JSON.parse(l) as { id?: unknown; result?: { isError?: boolean; content?: { text: string }[] } },
      )
      .find((m) => m.id === id);
  const send = (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n');
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  await until('the initialize answer', answer(1), 60_000);
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const serial = farm.devices[0]!.serial;
  send({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: {
      name: 'wait_for_element',
      arguments: { device_serial: serial, text: 'never on this screen', timeout_ms: 3_000 },
    },
  });
  // Closed while the 3 s wait runs: nothing has answered it yet.
  expect(answer(2)()).toBeUndefined();
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.stdin.end();
  expect(await exited, err).toBe(0);
  const waited = answer(2)();
  expect(waited?.result?.content?.[0]?.text).toMatch(/never on this screen|did not (appear|show)/i);
});
