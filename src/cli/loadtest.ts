import type { CliCommand } from './command.js';
import { UsageError } from './command.js';
import { parseCliArgs } from './args.js';
import {
  FAULT_KINDS,
  HOST_FAULTS,
  ONE_SERVER_FAULTS,
  MIX_PARTS,
  defaultBuildMs,
  defaultRssInterval,
} from '../loadtest/options.js';
import type { FaultKind, LoadtestOptions, MixPart } from '../loadtest/options.js';

const USAGE = `Usage: droidbus loadtest --devices N --sessions M --duration S [--sim] [--attached] [--inline | --compare]
                         [--mix ui,logcat,build,screenshot,admin] [--faults LIST] [--json] [sim and build options]

Drives M MCP sessions (real droidbus mcp processes over stdio, driven by the MCP SDK client) against
N devices for S seconds, each session running an agent loop on its share of the devices: read the
screen, find, tap, type, screenshot, read logcat and crash logs, and (build in the mix) a Gradle
build of the sample project in the background. Then prints calls/s, latency per tool, errors by
code, the event-loop delay of every frontend and of the host, overlapping UI dumps, parallel
efficiency across devices, and peak RSS of host, frontends and sim, with RSS over time.

Everything runs with a DROIDBUS_HOME of its own in a temp folder: your settings, trust and host are
never touched. The loop taps and types only inside the sample app; on other screens it only reads.

  --devices N        devices to drive (default 2)
  --sessions M       droidbus mcp sessions (default 2)
  --duration S       seconds the agent loops run (default 30)
  --sim              start a private adb server (adb -P PORT start-server, killed at the end) and N
                     simulated devices (droidbus sim); without it, N online devices of your adb server
  --adb-servers K    --sim: K private adb servers (default 1), each with its share of the devices,
                     served together (devices are then sK/serial)
  --attached         start a droidbus host and attach every session to it (at most 16)
  --inline           run the actors on the frontends' (with --attached, the host's) main thread
                     instead of worker threads: what the design would be without them
  --compare          run twice, with worker threads and inline, and print the figures side by side
  --mix LIST         what the agent loops do (default ui,logcat,build,screenshot,admin);
                     ui reads, finds, taps and types; admin relaunches the sample app every 8th round
  --faults LIST      --sim: inject these faults during the run, one after another, and report for
                     each the calls that failed (in flight, or started before it recovered), the
                     time to recover, and the logcat lines lost or read twice; the agents go on
                     until the last one recovered. device-drop (adb disconnect, back after
                     --fault-down), adb-restart (kill-server, start-server, devices connected
                     again), worker-kill (the host's device and logcat worker threads, one each;
                     --attached), host-kill (SIGKILL, started again; --attached), server-kill
                     (one of --adb-servers killed for --fault-down, then started and its devices
                     connected again; the other servers' calls are counted apart)
  --fault-down MS    how long a dropped device stays away (default 3000)
  --json             also print one JSON object with every figure on the last line of stdout
  --dump-latency MS  --sim: how long uiautomator dump takes on a device (default 700)
  --logcat-rate N    --sim: logcat lines per second per device (default 200)
  --build-rate N     lines per second the sample project's Gradle prints (default 1000)
  --build-ms MS      how long each build of the sample project lasts (default: a third of the run,
                     1,000 to 10,000)
  --parallel-rounds R  rounds of the parallel-capture measurement (default 3)
  --rss-interval MS  how often RSS is sampled (default: ~60 samples a run, at least every 1 s)

Progress goes to stderr; the report to stdout. Exit code 0 when the run completed, 1 when it could
not run (too few devices, adb missing), 2 for bad arguments.`;

function intFlag(
  name: string,
  value: string | undefined,
  min: number,
  max: number,
  fallback: number,
): number {
  if (value === undefined) {
    return fallback;
  }
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not '${value}'`);
  }
  return Number(value);
}

function parseFaults(
  value: string | undefined,
  sim: boolean,
  attached: boolean,
  adbServers: number,
): FaultKind[] {
  if (value === undefined) {
    return [];
  }
  const faults = value.split(',').map((f) => f.trim());
  for (const fault of faults) {
    if (!(FAULT_KINDS as readonly string[]).includes(fault)) {
      throw new UsageError(`--faults: unknown fault '${fault}' (the faults are ${FAULT_KINDS.join(', ')})`);
    }
  }
  if (!sim) {
    throw new UsageError('--faults needs --sim: faults act on the load test’s own adb server and devices');
  }
  const perServer = faults.filter((f) => (ONE_SERVER_FAULTS as readonly string[]).includes(f));
  if (adbServers > 1 && perServer.length > 0) {
    throw new UsageError(
      `--faults ${perServer.join(',')} act on one adb server: with --adb-servers use server-kill`,
    );
  }
  if (adbServers < 2 && faults.includes('server-kill')) {
    throw new UsageError('--faults server-kill needs --adb-servers 2 or more');
  }
  const onHost = faults.filter((f) => (HOST_FAULTS as readonly string[]).includes(f));
  if (onHost.length > 0 && !attached) {
    throw new UsageError(`--faults ${onHost.join(',')} act on the host: add --attached`);
  }
  return faults as FaultKind[];
}

function parseMix(value: string | undefined): MixPart[] {
  if (value === undefined) {
    return [...MIX_PARTS];
  }
  const parts = value.split(',').map((p) => p.trim());
  for (const part of parts) {
    if (!(MIX_PARTS as readonly string[]).includes(part)) {
      throw new UsageError(`--mix: unknown part '${part}' (the parts are ${MIX_PARTS.join(', ')})`);
    }
  }
  if (parts.length === 0 || parts.every((p) => p === '')) {
    throw new UsageError('--mix needs at least one part');
  }
  return MIX_PARTS.filter((p) => parts.includes(p));
}

/** Reads `droidbus loadtest` arguments into options; `compare` asks for both modes. */
export function parseLoadtestArgs(argv: string[]): { options: LoadtestOptions; compare: boolean } {
  const { values } = parseCliArgs(argv, {
    devices: { type: 'string' },
    sessions: { type: 'string' },
    duration: { type: 'string' },
    sim: { type: 'boolean' },
    attached: { type: 'boolean' },
    inline: { type: 'boolean' },
    compare: { type: 'boolean' },
    mix: { type: 'string' },
    json: { type: 'boolean' },
    'dump-latency': { type: 'string' },
    'logcat-rate': { type: 'string' },
    'build-rate': { type: 'string' },
    'build-ms': { type: 'string' },
    'parallel-rounds': { type: 'string' },
    'rss-interval': { type: 'string' },
    faults: { type: 'string' },
    'fault-down': { type: 'string' },
    'adb-servers': { type: 'string' },
  });
  if (values.faults !== undefined && values.compare) {
    throw new UsageError('--faults goes with one mode: leave out --compare');
  }
  if (values.inline && values.compare) {
    throw new UsageError('--compare runs both modes; leave out --inline');
  }
  const sim = values.sim === true;
  const adbServers = intFlag('adb-servers', values['adb-servers'], 1, 8, 1);
  if (adbServers > 1 && !sim) {
    throw new UsageError('--adb-servers starts private adb servers with simulated devices: it needs --sim');
  }
  if (!sim && (values['dump-latency'] !== undefined || values['logcat-rate'] !== undefined)) {
    throw new UsageError('--dump-latency and --logcat-rate set up simulated devices: they need --sim');
  }
  const durationS = intFlag('duration', values.duration, 1, 86_400, 30);
  return {
    compare: values.compare === true,
    options: {
      devices: intFlag('devices', values.devices, 1, 512, 2),
      sessions: intFlag('sessions', values.sessions, 1, 64, 2),
      durationS,
      sim,
      adbServers,
      attached: values.attached === true,
      inline: values.inline === true,
      mix: parseMix(values.mix),
      json: values.json === true,
      dumpLatencyMs: intFlag('dump-latency', values['dump-latency'], 0, 60_000, 700),
      logcatRate: intFlag('logcat-rate', values['logcat-rate'], 0, 100_000, 200),
      buildRate: intFlag('build-rate', values['build-rate'], 0, 1_000_000, 1000),
      buildMs: intFlag('build-ms', values['build-ms'], 100, 3_600_000, defaultBuildMs(durationS)),
      parallelRounds: intFlag('parallel-rounds', values['parallel-rounds'], 1, 100, 3),
      rssIntervalMs: intFlag(
        'rss-interval',
        values['rss-interval'],
        100,
        3_600_000,
        defaultRssInterval(durationS),
      ),
      faults: parseFaults(values.faults, sim, values.attached === true, adbServers),
      faultDownMs: intFlag('fault-down', values['fault-down'], 0, 600_000, 3_000),
    },
  };
}

async function run(argv: string[]): Promise<number> {
  const { options, compare } = parseLoadtestArgs(argv);
  const { runLoadtest, LoadtestRefusal } = await import('../loadtest/run-loadtest.js');
  const { ProgressBar } = await import('../loadtest/progress.js');
  const { renderReport } = await import('../loadtest/report.js');
  const controller = new AbortController();
  const onSignal = (): void => {
    if (controller.signal.aborted) {
      process.exit(130);
    }
    process.stderr.write('\ndroidbus loadtest: stopping early (again to quit at once)\n');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const first = await runLoadtest(options, {
      progress: new ProgressBar(process.stderr, compare ? 'loadtest [workers]' : 'loadtest'),
      signal: controller.signal,
    });
    if (compare && !controller.signal.aborted) {
      first.inline = await runLoadtest(
        { ...options, inline: true },
        { progress: new ProgressBar(process.stderr, 'loadtest [inline]'), signal: controller.signal },
      );
    }
    process.stdout.write(renderReport(first) + '\n');
    if (options.json) {
      process.stdout.write(JSON.stringify(first) + '\n');
    }
    return 0;
  } catch (err) {
    if (err instanceof LoadtestRefusal) {
      process.stderr.write(`droidbus loadtest: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`droidbus loadtest: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

export const command: CliCommand = {
  name: 'loadtest',
  summary: 'Drive many MCP sessions against many devices and report throughput, latency and event-loop lag.',
  usage: USAGE,
  run,
};
