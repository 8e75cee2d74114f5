import { AdbClient } from '../adb/client.js';
import { ADB_SERVERS_ENV } from '../adb/servers.js';
import { startPrivateAdbServer } from '../adb/private-server.js';
import type { PrivateAdbServer } from '../adb/private-server.js';
import type { ProgressBar } from './progress.js';
import { startSimProcess } from './sim-process.js';
import type { SimProcess } from './sim-process.js';

/** A load test that cannot run as asked (too few devices, too many attached sessions). */
export class LoadtestRefusal extends Error {}

/** One private adb server of a run with several (`--adb-servers`): its label and its share of the devices. */
export interface ServerGroup {
  label: string;
  server: PrivateAdbServer;
  /** The devices' serials on that server. */
  serials: string[];
  /** The same devices as droidbus names them (`label/serial`). */
  ids: string[];
}

/** The devices of a run: simulated ones behind a private adb server, or the user's online ones. */
export interface RunDevices {
  serials: string[];
  adbServer: PrivateAdbServer | null;
  sim: SimProcess | null;
  /** With --adb-servers 2 or more: every server and its devices (`serials` are then their ids). */
  servers: ServerGroup[] | null;
}

/**
 * With `sim`: starts a private adb server and `droidbus sim` with that many devices (their stop
 * functions go to `cleanups`; `env` gets the server's port and HOME). Without: takes the first
 * `devices` online devices of the user's adb server, or refuses when it lists fewer.
 */
export async function prepareDevices(options: {
  sim: boolean;
  adbServers: number;
  devices: number;
  dumpLatencyMs: number;
  logcatRate: number;
  cli: string;
  env: Record<string, string>;
  progress: ProgressBar;
  cleanups: (() => Promise<void>)[];
}): Promise<RunDevices> {
  if (!options.sim) {
    const listed = await new AdbClient().devices();
    const online = listed.filter((d) => d.state === 'device').map((d) => d.serial);
    if (online.length < options.devices) {
      throw new LoadtestRefusal(
        `${options.devices} device(s) asked for, but the adb server lists ${online.length} online${online.length > 0 ? ` (${online.join(', ')})` : ''}; connect more, ask for --devices ${Math.max(1, online.length)}, or use --sim`,
      );
    }
    return { serials: online.slice(0, options.devices), adbServer: null, sim: null, servers: null };
  }
  if (options.adbServers > 1) {
    return prepareServerGroups(options);
  }
  options.progress.note(`starting a private adb server and ${options.devices} simulated device(s)`);
  const { server: adbServer, sim } = await startServerWithSim(options, options.devices);
  Object.assign(options.env, adbServer.env);
  return { serials: sim.serials, adbServer, sim, servers: null };
}

/** One private adb server with `devices` simulated devices behind it (both stopped by the cleanups). */
async function startServerWithSim(
  options: Parameters<typeof prepareDevices>[0],
  devices: number,
): Promise<{ server: PrivateAdbServer; sim: SimProcess }> {
  const server = await startPrivateAdbServer('droidbus loadtest');
  options.cleanups.push(() => server.stop());
  const sim = await startSimProcess({
    cli: options.cli,
    adbPort: server.port,
    client: server.client,
    devices,
    dumpLatencyMs: options.dumpLatencyMs,
    logcatRate: options.logcatRate,
    env: { ...options.env, ...server.env },
  });
  options.cleanups.push(() => sim.stop());
  return { server, sim };
}

/**
 * `--adb-servers K`: K private adb servers, each with its share of the simulated devices (one
 * `droidbus sim` each), named s1…sK for every droidbus process of the run (DROIDBUS_ADB_SERVERS).
 */
async function prepareServerGroups(options: Parameters<typeof prepareDevices>[0]): Promise<RunDevices> {
  const k = options.adbServers;
  if (options.devices < k) {
    throw new LoadtestRefusal(`--adb-servers ${k} needs at least ${k} devices, one per server`);
  }
  options.progress.note(`starting ${k} private adb servers and ${options.devices} simulated device(s)`);
  const groups: ServerGroup[] = [];
  const sims: SimProcess[] = [];
  for (let i = 0; i < k; i++) {
    const share = Math.floor(options.devices / k) + (i < options.devices % k ? 1 : 0);
    const { server, sim } = await startServerWithSim(options, share);
    sims.push(sim);
    const label = `s${i + 1}`;
    groups.push({ label, server, serials: sim.serials, ids: sim.serials.map((s) => `${label}/${s}`) });
  }
  Object.assign(options.env, groups[0]!.server.env, {
    [ADB_SERVERS_ENV]: groups.map((g) => `${g.label}=tcp:127.0.0.1:${g.server.port}`).join(','),
  });
  const sim: SimProcess = {
    pid: sims[0]!.pid,
    serials: groups.flatMap((g) => g.ids),
    async stats() {
      const all = await Promise.all(sims.map((s) => s.stats()));
      return {
        dumps: all.reduce((a, s) => a + s.dumps, 0),
        overlapping_dumps: all.reduce((a, s) => a + s.overlapping_dumps, 0),
        devices_read: all.reduce((a, s) => a + s.devices_read, 0),
      };
    },
    async stop() {
      await Promise.all(sims.map((s) => s.stop()));
    },
  };
  return { serials: sim.serials, adbServer: groups[0]!.server, sim, servers: groups };
}
