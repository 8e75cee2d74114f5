/**
 * The rules live behind the bus: a raw request over the host's socket — no tool, no MCP — that
 * stop_app would refuse is refused by the device actor in the same words, before any device
 * command; the project's own package goes through.
 */
import path from 'node:path';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as SocketClient from '../../src/bus/socket-client.js';
import type { BusError } from '../../src/bus/errors.js';
import { SAMPLE_PACKAGE } from '../../src/sim/index.js';
import { VERSION } from '../../src/version.js';
import { startAdbServer } from '../helpers/adb-server.js';
import type { AdbServer } from '../helpers/adb-server.js';
import { writeSample } from '../helpers/build-project.js';
import { shortTempDir, startHostProcess, waitFor } from '../helpers/host.js';
import type { HostProcess } from '../helpers/host.js';
import { fromDist, tempDir } from '../helpers/paths.js';
import { startSimFarm } from '../helpers/sim-farm.js';
import type { SimFarm } from '../helpers/sim-farm.js';

const home = shortTempDir('db-rules-');
const work = tempDir('droidbus-rules-');
let project: string;
let server: AdbServer;
let farm: SimFarm;
let host: HostProcess;
let client: Awaited<ReturnType<typeof SocketClient.connectSocketBus>>['client'];
let serial: string;

beforeAll(async () => {
  await writeSample(path.join(work.dir, 'app'), home.dir);
  project = realpathSync(path.join(work.dir, 'app'));
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 1, commandLog: path.join(work.dir, 'commands.jsonl') });
  serial = farm.devices[0]!.serial;
  const env = { ...(server.env as Record<string, string>), DROIDBUS_HOME: home.dir };
  host = await startHostProcess(['--project', project, '--no-ui'], { env });
  const { connectSocketBus } = await fromDist<typeof SocketClient>('bus/socket-client.ts');
  const opened = await connectSocketBus({
    path: path.join(home.dir, 'host.sock'),
    hello: { attach: 1, version: VERSION, session_id: 'raw-rules', project: null, pid: process.pid },
    timeoutMs: 5_000,
    origin: { kind: 'cli' },
  });
  client = opened.client;
  // The device actor runs once the host has seen the device.
  await waitFor(
    async () =>
      (await client.request('devices.list', {})).devices.some(
        (d) => d.serial === serial && d.state === 'device',
      ),
    `the host to list ${serial}`,
    20_000,
  );
});
afterAll(async () => {
  await client?.close();
  await host?.stop();
  await farm?.stop();
  await server?.stop();
  home.remove();
  work.remove();
});

describe('the package scope behind the bus', () => {
  it('refuses a raw device.stop_app of a package outside the project, naming the project’s packages', async () => {
    const err = (await client
      .request('device.stop_app', {
        serial,
        package: 'com.android.settings',
        scope: { root: project, allow_foreign_package: false },
      })
      .then(
        () => null,
        (e: unknown) => e,
      )) as BusError | null;
    expect(err?.code).toBe('INVALID');
    expect(err?.details?.['reason']).toBe('foreign_package');
    expect(err?.message).toContain('com.android.settings');
    expect(err?.message).toContain(SAMPLE_PACKAGE);
  });

  it('refuses one without a scope, and lets the project’s own package through', async () => {
    const missing = await client
      .request('device.stop_app', { serial, package: SAMPLE_PACKAGE } as never)
      .then(
        () => null,
        (e: unknown) => e as BusError,
      );
    expect(missing?.code).toBe('INVALID');
    const stopped = await client.request('device.stop_app', {
      serial,
      package: SAMPLE_PACKAGE,
      scope: { root: project, allow_foreign_package: false },
    });
    expect(stopped.installed).toBe(true);
    // The device saw the project's force-stop, and never the refused ones (the sim's command log).
    const file = path.join(work.dir, 'commands.jsonl');
    const log = await waitFor(() => {
      const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
      return text.includes(`am force-stop ${SAMPLE_PACKAGE}`) ? text : null;
    }, "the sim's record of the force-stop");
    expect(log).not.toContain('com.android.settings');
  });

  it('refuses a raw broadcast without its scope, and one to another app', async () => {
    const refused = (request: Record<string, unknown>) =>
      client
        .request('device.send_intent', { serial, mode: 'broadcast', extras: [], ...request } as never)
        .then(
          () => null,
          (e: unknown) => e as BusError,
        );
    const bare = await refused({ action: 'com.example.PING', package: SAMPLE_PACKAGE });
    expect(bare?.message).toContain('a broadcast needs its package scope');
    const foreign = await refused({
      action: 'com.example.PING',
      package: 'com.android.settings',
      scope: { root: project, allow_foreign_package: false },
    });
    expect(foreign?.details?.['reason']).toBe('foreign_package');
    const open = await refused({
      action: 'com.example.PING',
      scope: { root: project, allow_foreign_package: false },
    });
    expect(open?.message).toContain("reaches every app's receivers");
  });
});
