/**
 * The store survives the host (issue 68): with a sim device logging 400 lines/s into a built host,
 * a client reads on with since_seq; the host is killed with SIGKILL; a new host on the same data
 * folder replays the journal the dead one left before it reads the device again, so every line the
 * client had read is there with the same seq. A clean exit, by contrast, leaves no journal behind.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as ControlClient from '../../src/host/control-client.js';
import { startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { writeSample } from '../helpers/build-project.js';
import { shortTempDir, startHostProcess, waitFor, type HostProcess } from '../helpers/host.js';
import { fromDist, tempDir } from '../helpers/paths.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';

type Client = Awaited<ReturnType<typeof ControlClient.connectControl>>['client'];

const home = shortTempDir('db-kill-');
const work = tempDir('droidbus-kill-');
let server: AdbServer;
let farm: SimFarm;
let host: HostProcess | undefined;
let serial: string;
let env: Record<string, string>;
let project: string;

async function startHost(): Promise<{ host: HostProcess; client: Client }> {
  const h = await startHostProcess(['--project', project, '--no-ui'], { env });
  const { connectControl } = await fromDist<typeof ControlClient>('host/control-client.ts');
  const client = (await connectControl(path.join(home.dir, 'host.sock'), 5_000)).client;
  return { host: h, client };
}

beforeAll(async () => {
  project = path.join(work.dir, 'app');
  await writeSample(project, home.dir);
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 1, logcatRate: 400 });
  serial = farm.devices[0]!.serial;
  env = { ...(server.env as Record<string, string>), DROIDBUS_HOME: home.dir };
}, 120_000);

afterAll(async () => {
  await host?.stop();
  await farm?.stop();
  await server?.stop();
  home.remove();
  work.remove();
});

describe('the logcat store across a killed host', () => {
  it('gives a new host every line a client read before the kill, with the same seqs', async () => {
    const first = await startHost();
    host = first.host;
    await waitFor(
      async () =>
        (await first.client.request('devices.list', {})).devices.some(
          (d) => d.serial === serial && d.state === 'device',
        ),
      `the host to list ${serial}`,
      20_000,
    );
    await first.client.request('logcat.start', { serial, from_now: true, resume: false });
    // Read on as an agent would, until a few thousand lines went by.
    const read = new Map<number, string>();
    let since = 0;
    await waitFor(
      async () => {
        const r = await first.client.request('logcat.entries', { since_seq: since, count: 10_000 });
        for (const e of r.entries) {
          read.set(e.seq, e.message);
          since = Math.max(since, e.seq);
        }
        return read.size >= 2_000;
      },
      'the client to read 2,000 lines',
      60_000,
    );
    first.host.proc.kill('SIGKILL');
    await first.host.exited;
    await first.client.close().catch(() => undefined);

    const second = await startHost();
    host = second.host;
    const stats = await waitFor(
      async () => (await second.client.request('logcat.stats', {}).catch(() => null))?.store,
      'the new host to answer logcat.stats',
      30_000,
    );
    expect(stats.oldest_seq).toBeLessThanOrEqual(Math.min(...read.keys()));
    const missing: number[] = [];
    const oldestRead = Math.min(...read.keys());
    const back = await second.client.request('logcat.entries', {
      since_seq: oldestRead - 1,
      before_seq: since + 1,
      count: 10_000,
    });
    const restored = new Map(back.entries.map((e) => [e.seq, e.message]));
    for (const [seq, message] of read) {
      if (restored.get(seq) !== message) {
        missing.push(seq);
      }
    }
    expect(missing).toEqual([]);
    // The new host reads the device on after what it replayed: new lines take later seqs.
    await waitFor(
      async () => (await second.client.request('logcat.stats', {})).store.newest_seq > since,
      'new lines after the replayed ones',
      30_000,
    );

    // A clean exit takes the journal with it.
    await second.client.close();
    await second.host.stop('SIGTERM');
    host = undefined;
    const journals = path.join(home.dir, 'logcat-journal');
    expect(existsSync(journals) ? readdirSync(journals) : []).toEqual([]);
  });
});
