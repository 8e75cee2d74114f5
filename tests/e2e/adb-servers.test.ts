import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbServer } from '../helpers/adb-server.js';
import type { AdbServer } from '../helpers/adb-server.js';
import { shortTempDir, startHostProcess } from '../helpers/host.js';
import type { HostProcess } from '../helpers/host.js';
import { EVERY_TOOLSET, startMcp } from '../helpers/mcp-client.js';
import type { McpSessionHandle } from '../helpers/mcp-client.js';
import { startSimFarm } from '../helpers/sim-farm.js';
import type { SimFarm } from '../helpers/sim-farm.js';
import { runCli } from '../helpers/run-cli.js';
import { until } from '../helpers/until.js';

// One droidbus host serving the devices of two real adb servers (Debian's adb, on their own ports),
// sim devices behind each, one device connected to both (the same serial on both servers): every device
// listed with its server, a UI read and a logcat stream on each server, one server killed and brought back.

const home = shortTempDir('db-as-');
let a: AdbServer;
let b: AdbServer;
let farmA: SimFarm;
let farmB: SimFarm;
let host: HostProcess;
let mcp: McpSessionHandle;

interface Entry {
  serial: string;
  server: string | null;
  state: string;
}
interface ServerState {
  label: string;
  up: boolean;
  devices: number;
}

async function call(name: string, args: Record<string, unknown> = {}) {
  const raw = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
  const text = raw.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return {
    text,
    structured: (raw.structuredContent ?? {}) as Record<string, unknown>,
    isError: raw.isError === true,
  };
}

async function listed(): Promise<{ devices: Entry[]; servers: ServerState[] }> {
  const r = await call('list_devices');
  return {
    devices: r.structured['devices'] as Entry[],
    servers: r.structured['adb_servers'] as ServerState[],
  };
}

/** Asks again (every 200 ms) until `accept` holds, or fails after `ms`. */
function poll<T>(what: string, probe: () => Promise<T>, accept: (v: T) => boolean, ms: number): Promise<T> {
  return until(
    what,
    async () => {
      const v = await probe();
      return accept(v) ? v : undefined;
    },
    ms,
    { everyMs: 200 },
  );
}

let shared: string;
let onlyA: string;
let onlyB: string;

beforeAll(async () => {
  a = await startAdbServer();
  b = await startAdbServer();
  farmA = await startSimFarm(a, { devices: 2, dumpLatencyMs: 50 });
  farmB = await startSimFarm(b, { devices: 1, dumpLatencyMs: 50 });
  // The first device of A is connected to B as well: one serial on both servers.
  shared = farmA.devices[0]!.serial;
  onlyA = farmA.devices[1]!.serial;
  onlyB = farmB.devices[0]!.serial;
  const connected = await b.adb(['connect', shared]);
  expect(connected.stdout).toMatch(/connected to/);
  const env = { ...(a.env as Record<string, string>), DROIDBUS_HOME: home.dir };
  host = await startHostProcess(
    ['--no-ui', '--adb-server', `a=tcp:${a.port}`, '--adb-server', `b=tcp:${b.port}`],
    { env, cwd: home.dir },
  );
  mcp = await startMcp([...EVERY_TOOLSET, '--attach-only'], { env, cwd: home.dir });
}, 120_000);

afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await host?.stop().catch(() => undefined);
  await farmA?.stop().catch(() => undefined);
  await farmB?.stop().catch(() => undefined);
  await a?.stop().catch(() => undefined);
  await b?.stop().catch(() => undefined);
  home.remove();
});

describe('several adb servers', () => {
  it('lists every device of both servers as LABEL/serial, with its server', async () => {
    const { devices, servers } = await poll(
      'both servers listing their devices',
      listed,
      (v) => v.devices.filter((d) => d.state === 'device').length === 4,
      30_000,
    );
    expect(devices.map((d) => [d.serial, d.server]).sort()).toEqual(
      [
        [`a/${shared}`, 'a'],
        [`a/${onlyA}`, 'a'],
        [`b/${shared}`, 'b'],
        [`b/${onlyB}`, 'b'],
      ].sort(),
    );
    expect(servers.map((s) => [s.label, s.up, s.devices])).toEqual([
      ['a', true, 2],
      ['b', true, 2],
    ]);
    const info = await call('get_device_info', { device_serial: `b/${onlyB}` });
    expect(info.structured).toMatchObject({ serial: `b/${onlyB}`, adb_server: 'b' });
  });

  it('droidbus status lists each server with its state and devices', async () => {
    const r = await runCli(['status'], { env: { DROIDBUS_HOME: home.dir } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`adb: +a 127\\.0\\.0\\.1:${a.port}: up, protocol \\d+, 2 devices`));
    expect(r.stdout).toMatch(new RegExp(`adb: +b 127\\.0\\.0\\.1:${b.port}: up, protocol \\d+, 2 devices`));
  });

  it('refuses a server on another machine without --allow-remote-adb-server, saying why', async () => {
    const r = await runCli(['host', '--no-ui', '--adb-server', 'lab=tcp:192.0.2.7:5037'], {
      env: { DROIDBUS_HOME: home.dir },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/lab=192\.0\.2\.7:5037 is not on this machine.*no authentication.*ssh -N -L/s);
  });

  it('takes a plain serial that one server has, and names both ids for one that two have', async () => {
    const plain = await call('get_device_info', { device_serial: onlyA });
    expect(plain.structured).toMatchObject({ serial: `a/${onlyA}`, adb_server: 'a' });
    const ambiguous = await call('get_device_info', { device_serial: shared });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.text).toContain(`a/${shared}`);
    expect(ambiguous.text).toContain(`b/${shared}`);
  });

  it('reads the screen and streams logcat on a device of each server, the shared one included', async () => {
    for (const id of [`a/${onlyA}`, `b/${onlyB}`, `b/${shared}`]) {
      const ui = await call('list_clickable_elements', { device_serial: id });
      expect(ui.isError, ui.text).toBe(false);
    }
    for (const id of [`a/${onlyA}`, `b/${onlyB}`]) {
      expect((await call('start_logcat', { device_serial: id })).isError).toBe(false);
    }
    for (const id of [`a/${onlyA}`, `b/${onlyB}`]) {
      await poll(
        `logcat lines from ${id}`,
        () => call('get_logcat_entries', { device_serial: id, count: 5 }),
        (r) => !r.isError && ((r.structured['entries'] as unknown[]) ?? []).length > 0,
        30_000,
      );
    }
  });

  it("losing one server takes only its devices away; the other's calls all succeed; it comes back", async () => {
    await b.adb(['kill-server'], { timeoutMs: 15_000 });
    const down = await poll(
      'server b down',
      listed,
      (v) => v.servers.find((s) => s.label === 'b')?.up === false,
      30_000,
    );
    expect(down.devices.map((d) => d.serial).sort()).toEqual([`a/${onlyA}`, `a/${shared}`].sort());
    const refused = await call('get_device_info', { device_serial: `b/${onlyB}` });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/adb server b/);
    const onA = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(i % 2 === 0 ? 'get_device_info' : 'list_clickable_elements', {
          device_serial: i < 3 ? `a/${onlyA}` : `a/${shared}`,
        }),
      ),
    );
    expect(onA.filter((r) => r.isError).map((r) => r.text)).toEqual([]);

    // Back: the same port, its devices connected again (a restarted server knows no TCP device).
    const restarted = await b.adb(['start-server'], { timeoutMs: 30_000 });
    expect(restarted.code).toBe(0);
    for (const serial of [onlyB, shared]) {
      await b.adb(['connect', serial]);
    }
    await poll(
      'server b and its devices back',
      listed,
      (v) =>
        v.servers.find((s) => s.label === 'b')?.up === true &&
        v.devices.filter((d) => d.server === 'b' && d.state === 'device').length === 2,
      60_000,
    );
    expect((await call('list_clickable_elements', { device_serial: `b/${onlyB}` })).isError).toBe(false);
    // Its logcat stream resumes by itself: a line logged now reaches droidbus.
    const marker = `droidbus-servers-${Date.now()}`;
    await b.adb(['-s', onlyB, 'shell', `log -t DroidbusTest ${marker}`]);
    await poll(
      'the marker line from the server that came back',
      () => call('get_logcat_entries', { device_serial: `b/${onlyB}`, query: `tag:DroidbusTest`, count: 20 }),
      (r) => r.text.includes(marker),
      60_000,
    );
  });
});
