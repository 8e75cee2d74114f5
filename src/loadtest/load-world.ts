/**
 * What a load test run started (its world) and what its load phase measured (its figures), and
 * what the faults it injects act on.
 */
import type { startEventLoopProbe } from '../util/event-loop.js';
import type { runBuildLoop } from './agent-loop.js';
import type { FaultWorld, Injected } from './faults.js';
import type { HostProcess } from './host-process.js';
import type { LoadSession } from './mcp-session.js';
import type { LoadtestOptions } from './options.js';
import type { measureParallel } from './parallel.js';
import type { startCpuWindow } from './process-cpu.js';
import type { CallRecorder } from './recorder.js';
import { LoadtestRefusal, type prepareDevices } from './run-devices.js';

/** What a run started: the devices, the host when sessions attach, the sessions. */
export interface LoadWorld {
  serials: string[];
  adbServer: Awaited<ReturnType<typeof prepareDevices>>['adbServer'];
  sim: Awaited<ReturnType<typeof prepareDevices>>['sim'];
  servers: Awaited<ReturnType<typeof prepareDevices>>['servers'];
  /** The host (a new one after a host-kill fault). */
  host: HostProcess | null;
  /** Starts the host again as the run first did (the host-kill fault). */
  startHost: (() => Promise<HostProcess>) | null;
  hostSocket: string;
  sessions: LoadSession[];
}

/** What the load phase measured. */
export interface LoadFigures {
  recorder: CallRecorder;
  parallel: Awaited<ReturnType<typeof measureParallel>>;
  iterations: number;
  builds: Awaited<ReturnType<typeof runBuildLoop>> | null;
  elapsedS: number;
  frontendShares: ReturnType<ReturnType<typeof startCpuWindow>['stop']>[];
  hostShare: ReturnType<ReturnType<typeof startCpuWindow>['stop']> | null;
  ownDelay: ReturnType<ReturnType<typeof startEventLoopProbe>['read']>;
  storesAfter: StoreFigures[];
  logcatLines: number;
  faults: Injected[];
  /** When the load began, on the calls' clock (performance.now()). */
  loadStart: number;
}

/** What the faults act on, in this run. */
export function faultWorld(options: LoadtestOptions, world: LoadWorld, shares: string[][]): FaultWorld {
  if (world.adbServer === null) {
    throw new LoadtestRefusal('faults need --sim: they act on the load test’s own adb server and devices');
  }
  const owner = new Map(
    shares.flatMap((list, k) => list.map((serial) => [serial, world.sessions[k]!] as const)),
  );
  const startHost = world.startHost;
  return {
    serials: world.serials,
    adbServer: world.adbServer,
    servers: world.servers,
    sessionOf: (serial) => owner.get(serial) ?? world.sessions[0]!,
    logcat: options.mix.includes('logcat'),
    downMs: options.faultDownMs,
    host:
      startHost === null
        ? null
        : {
            socketPath: world.hostSocket,
            pid: () => world.host?.pid ?? -1,
            async killAndRestart() {
              await world.host?.kill();
              world.host = await startHost();
            },
          },
  };
}

/** A logcat store's figures at one moment (`get_logcat_stats`). */
export interface StoreFigures {
  received: number;
  entries: number;
  bytes: number;
}

/** The logcat stores' figures, read through `readers` (every session standalone, one attached). */
export function readLogcatStores(readers: readonly LoadSession[]): Promise<StoreFigures[]> {
  return Promise.all(
    readers.map(async (s) => {
      const r = await s.call('get_logcat_stats', {});
      const store = r.structured['store'] as Partial<StoreFigures> | undefined;
      return { received: store?.received ?? 0, entries: store?.entries ?? 0, bytes: store?.bytes ?? 0 };
    }),
  );
}
