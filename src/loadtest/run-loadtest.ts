import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { trustProject } from '../project/trust.js';
import { hostSocketPath } from '../store/host-socket.js';
import { startEventLoopProbe } from '../util/event-loop.js';
import { BUILD_TASK, runAgentLoop, runBuildLoop } from './agent-loop.js';
import { plannedFaults, runFaultSchedule } from './faults.js';
import {
  faultWorld,
  readLogcatStores,
  type LoadFigures,
  type LoadWorld,
  type StoreFigures,
} from './load-world.js';
import { loadAverage, reportOf } from './report-of.js';
import { startHostProcess } from './host-process.js';
import type { HostProcess } from './host-process.js';
import { startLoadSession } from './mcp-session.js';
import type { LoadSession } from './mcp-session.js';
import type { LoadtestOptions } from './options.js';
import { measureParallel } from './parallel.js';
import { startCpuWindow } from './process-cpu.js';
import { RssSampler } from './process-memory.js';
import type { ProgressBar } from './progress.js';
import { CallRecorder } from './recorder.js';
import type { LoadtestReport } from './report.js';
import { LoadtestRefusal, prepareDevices } from './run-devices.js';

/** Attached sessions a host accepts (src/host/session-registry.ts). */
const MAX_ATTACHED = 16;
/** Sessions started at once: each `droidbus mcp` costs a few hundred ms of CPU to start. */
const START_CONCURRENCY = 4;

export { LoadtestRefusal };

/** The built CLI this module belongs to (dist/cli.js). */
export function builtCli(): string {
  return fileURLToPath(new URL('../cli.js', import.meta.url));
}

export interface LoadtestHooks {
  progress: ProgressBar;
  /** Aborting ends the agent loops early; the run still reports and cleans up. */
  signal?: AbortSignal;
  /** The CLI to start as `droidbus mcp|host|sim` (default: this build's dist/cli.js). */
  cli?: string;
}

/** Runs `fn` over `items`, at most `limit` at a time, in order of the items. */
async function mapLimited<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  });
  await Promise.all(workers);
  return out;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Which devices each session drives: an equal share, or one shared device each when sessions outnumber devices. */
export function assignDevices(serials: readonly string[], sessions: number): string[][] {
  return Array.from({ length: sessions }, (_, k) =>
    sessions <= serials.length
      ? serials.filter((_, i) => i % sessions === k)
      : [serials[k % serials.length]!],
  );
}

/** A base folder short enough for the host's socket path (unix sockets allow ~103 bytes). */
function shortTempBase(): string {
  return process.platform === 'win32' ? os.tmpdir() : '/tmp';
}

/** Starts the devices, the sample project (for builds), the host (attached) and the sessions. */
async function startWorld(
  options: LoadtestOptions,
  run: { cli: string; base: string; home: string; progress: ProgressBar; cleanups: (() => Promise<void>)[] },
): Promise<LoadWorld> {
  const { cli, base, home, progress, cleanups } = run;
  const mix = new Set(options.mix);
  // 1. The devices.
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DROIDBUS_HOME: home,
    SIM_GRADLE_LINES_PER_SEC: String(options.buildRate),
    SIM_GRADLE_DURATION_MS: String(options.buildMs),
  };
  delete env['DROIDBUS_INLINE'];
  const { serials, adbServer, sim, servers } = await prepareDevices({
    ...options,
    cli,
    env,
    progress,
    cleanups,
  });

  // 2. The sample project for the background build, trusted in this run's own home.
  let project: string | null = null;
  if (mix.has('build')) {
    project = path.join(base, 'sample');
    const { writeSampleProject } = await import('../sim/index.js');
    await writeSampleProject(project);
    await trustProject(project);
  }

  // 3. The host, when sessions attach.
  const hostSocket = hostSocketPath(home);
  const holder: { host: HostProcess | null } = { host: null };
  const startHost = options.attached
    ? () =>
        startHostProcess({
          cli,
          project,
          env: { ...env, ...(options.inline ? { DROIDBUS_INLINE: '1' } : {}) },
          socketPath: hostSocket,
          cwd: base,
        })
    : null;
  if (startHost) {
    progress.note('starting droidbus host');
    holder.host = await startHost();
    cleanups.push(async () => {
      await holder.host?.stop();
    });
  }

  // 4. The sessions.
  progress.note(`starting ${options.sessions} droidbus mcp session(s)`);
  // The agents read the screen through list_clickable_elements (ui-extras) and the logcat store's
  // figures through get_logcat_stats (inspect), which the default toolsets leave out.
  const sessionArgs = [
    '--toolsets',
    'core,ui,device-admin,ui-extras,inspect',
    ...(project ? ['--project', project] : []),
    ...(options.attached ? ['--attach-only'] : []),
    ...(options.inline && !options.attached ? ['--inline'] : []),
  ];
  const sessions: LoadSession[] = [];
  cleanups.push(async () => {
    await Promise.all(sessions.map((s) => s.close()));
  });
  await mapLimited(
    Array.from({ length: options.sessions }, (_, i) => i),
    START_CONCURRENCY,
    async (index) => {
      const session = await startLoadSession({ index, cli, args: sessionArgs, env, cwd: base });
      sessions[index] = session;
    },
  );
  return {
    serials,
    adbServer,
    sim,
    servers,
    get host() {
      return holder.host;
    },
    set host(next) {
      holder.host = next;
    },
    startHost,
    hostSocket,
    sessions,
  };
}

/** Warms up (each session starts its device actors), then measures parallel efficiency. */
async function warmUp(
  options: LoadtestOptions,
  world: LoadWorld,
  shares: string[][],
  progress: ProgressBar,
): Promise<Awaited<ReturnType<typeof measureParallel>>> {
  const { serials, sessions } = world;
  progress.note('warming up: one capture per device and session');
  await Promise.all(
    sessions.map((s, k) =>
      Promise.all(shares[k]!.map((serial) => s.call('list_clickable_elements', { device_serial: serial }))),
    ),
  );
  progress.note(`measuring parallel efficiency on ${serials.length} device(s)`);
  return measureParallel(sessions[0]!, serials, options.parallelRounds);
}

/** Warms up, measures parallel efficiency, then runs the agent loops (and the build loop) for the duration. */
async function runLoad(
  options: LoadtestOptions,
  world: LoadWorld,
  hooks: LoadtestHooks,
): Promise<LoadFigures> {
  const { progress, signal } = hooks;
  const { serials, sessions, host } = world;
  const mix = new Set(options.mix);
  const admin = mix.has('admin');
  const shares = assignDevices(serials, options.sessions);
  const parallel = await warmUp(options, world, shares, progress);

  // 6. The load.
  // Spans: the faults classify them, and with several adb servers each server's calls are counted apart.
  const recorder = new CallRecorder({ spans: options.faults.length > 0 || world.servers !== null });
  if (mix.has('logcat')) {
    await Promise.all(
      sessions.map((s, k) =>
        Promise.all(
          shares[k]!.map((serial) => s.call('start_logcat', { device_serial: serial }, { recorder })),
        ),
      ),
    );
  }
  // Lines the logcat actors received: all sessions' stores standalone, the host's one store attached.
  const logcatReaders = mix.has('logcat') ? (options.attached ? sessions.slice(0, 1) : sessions) : [];
  const logcatStores = (): Promise<StoreFigures[]> => readLogcatStores(logcatReaders);
  const receivedBefore = (await logcatStores()).reduce((a, s) => a + s.received, 0);
  const frontendCpu = sessions.map((s) => startCpuWindow(s.pid));
  const hostCpu = host ? startCpuWindow(host.pid) : null;
  // This process mostly waits for answers: its own delay is the machine's noise floor.
  const ownLoop = startEventLoopProbe();
  let stopped = false;
  const isStopped = (): boolean => stopped;
  const t0 = performance.now();
  const loops: Promise<number>[] = sessions.flatMap((s, k) =>
    shares[k]!.map((serial, j) =>
      runAgentLoop({
        session: s,
        serial,
        mix,
        recorder,
        stopped: isStopped,
        sim: options.sim,
        admin,
        seed: k * 1000 + j + 1,
      }),
    ),
  );
  const build = mix.has('build')
    ? runBuildLoop({ session: sessions[0]!, recorder, stopped: isStopped, buildMs: options.buildMs })
    : Promise.resolve(null);
  const faults =
    options.faults.length === 0
      ? Promise.resolve([])
      : runFaultSchedule(
          faultWorld(options, world, shares),
          plannedFaults(options.faults),
          options.durationS * 1000,
          t0,
          (line) => progress.note(line),
        );
  progress.note(
    `running for ${options.durationS} s (${loops.length} agent loop(s)${mix.has('build') ? `, ${BUILD_TASK} in a loop` : ''})`,
  );
  const ticker = setInterval(
    () =>
      progress.update({
        elapsedS: (performance.now() - t0) / 1000,
        durationS: options.durationS,
        calls: recorder.calls,
        errors: recorder.errors,
      }),
    1000,
  );
  await sleep(options.durationS * 1000, signal);
  // The agents go on until the last fault has recovered.
  const injected = await faults;
  stopped = true;
  clearInterval(ticker);
  progress.update({
    elapsedS: (performance.now() - t0) / 1000,
    durationS: options.durationS,
    calls: recorder.calls,
    errors: recorder.errors,
  });
  progress.note('stopping: letting the calls in flight finish');
  const iterations = (await Promise.all(loops)).reduce((a, n) => a + n, 0);
  const builds = await build;
  const elapsedS = (performance.now() - t0) / 1000;
  const frontendShares = frontendCpu.map((w) => w.stop());
  const hostShare = hostCpu?.stop() ?? null;
  const ownDelay = ownLoop.read();
  ownLoop.stop();
  const storesAfter = await logcatStores();
  const logcatLines = storesAfter.reduce((a, s) => a + s.received, 0) - receivedBefore;

  return {
    recorder,
    parallel,
    iterations,
    builds,
    elapsedS,
    frontendShares,
    hostShare,
    ownDelay,
    storesAfter,
    logcatLines,
    faults: injected,
    loadStart: t0,
  };
}

/**
 * Runs one load test: the devices (simulated, or the user's online ones), an optional host, M MCP
 * sessions each driving its devices with an agent loop (and one building in the background), and
 * the figures: throughput, latency per tool, errors by code, event-loop delay of every frontend
 * and the host, overlapping dumps, parallel efficiency, peak RSS and its series over time.
 * Everything it starts runs with a DROIDBUS_HOME of its own and is stopped before it returns.
 */
export async function runLoadtest(options: LoadtestOptions, hooks: LoadtestHooks): Promise<LoadtestReport> {
  const { progress } = hooks;
  const cli = hooks.cli ?? builtCli();
  if (options.attached && options.sessions > MAX_ATTACHED) {
    throw new LoadtestRefusal(
      `a droidbus host accepts at most ${MAX_ATTACHED} attached sessions; ask for --sessions ${MAX_ATTACHED} or fewer, or drop --attached`,
    );
  }
  const cleanups: (() => Promise<void>)[] = [];
  const base = mkdtempSync(path.join(shortTempBase(), 'dbl-'));
  const home = path.join(base, 'home');
  mkdirSync(home, { mode: 0o700 });
  const previousHome = process.env['DROIDBUS_HOME'];
  // This process trusts the sample project and reaches the host's socket through the same home.
  process.env['DROIDBUS_HOME'] = home;
  const loadStart = loadAverage();
  try {
    const world = await startWorld(options, { cli, base, home, progress, cleanups });
    const sampler = new RssSampler(() => ({
      host: world.host?.pid ?? null,
      frontends: world.sessions.map((s) => s.pid),
      sim: world.sim?.pid ?? null,
    }));
    sampler.start(options.rssIntervalMs);
    const figures = await runLoad(options, world, hooks);
    return await reportOf(options, world, figures, sampler, loadStart);
  } finally {
    progress.note('cleaning up');
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch(() => undefined);
    }
    if (previousHome === undefined) {
      delete process.env['DROIDBUS_HOME'];
    } else {
      process.env['DROIDBUS_HOME'] = previousHome;
    }
    rmSync(base, { recursive: true, force: true });
  }
}
