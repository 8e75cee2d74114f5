import { AdbClient } from '../adb/client.js';
import { startPrivateAdbServer } from './private-adb.js';
import type { PrivateAdbServer } from './private-adb.js';
import type { ProgressBar } from './progress.js';
import { startSimProcess } from './sim-process.js';
import type { SimProcess } from './sim-process.js';

/** A load test that cannot run as asked (too few devices, too many attached sessions). */
export class LoadtestRefusal extends Error {}

/** The devices of a run: simulated ones behind a private adb server, or the user's online ones. */
export interface RunDevices {
  serials: string[];
  adbServer: PrivateAdbServer | null;
  sim: SimProcess | null;
}

/**
 * With `sim`: starts a private adb server and `droidbus sim` with that many devices (their stop
 * functions go to `cleanups`; `env` gets the server's port and HOME). Without: takes the first
 * `devices` online devices of the user's adb server, or refuses when it lists fewer.
 */
export async function prepareDevices(options: {
  sim: boolean;
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
    return { serials: online.slice(0, options.devices), adbServer: null, sim: null };
  }
  options.progress.note(`starting a private adb server and ${options.devices} simulated device(s)`);
  const adbServer = await startPrivateAdbServer();
  options.cleanups.push(() => adbServer.stop());
  Object.assign(options.env, adbServer.env);
  const sim = await startSimProcess({
    cli: options.cli,
    adbPort: adbServer.port,
    client: adbServer.client,
    devices: options.devices,
    dumpLatencyMs: options.dumpLatencyMs,
    logcatRate: options.logcatRate,
    env: options.env,
  });
  options.cleanups.push(() => sim.stop());
  return { serials: sim.serials, adbServer, sim };
}
