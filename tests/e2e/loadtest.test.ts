/**
 * `droidbus loadtest` from the built CLI: short real runs against simulated devices, standalone and
 * attached, the refusal when the user's adb server has too few devices, and how it waits for its
 * simulated devices to be online.
 */
import type { FaultReport } from '../../src/loadtest/faults.js';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbServer } from '../helpers/adb-server.js';
import type { AdbServer } from '../helpers/adb-server.js';
import type * as Client from '../../src/adb/client.js';
import type * as SimProcess from '../../src/loadtest/sim-process.js';
import { fromDist } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';

/** Every field the last line of `--json` must carry. */
const FIELDS = [
  'droidbus_loadtest',
  'version',
  'actors',
  'attached',
  'sim',
  'devices',
  'sessions',
  'duration_s',
  'mix',
  'notes',
  'cpus',
  'load_average',
  'elapsed_s',
  'calls',
  'calls_per_s',
  'tools',
  'errors',
  'allowed_error_codes',
  'unexpected_errors',
  'event_loop_delay_p99_ms',
  'event_loop_delay_max_ms',
  'cpu_pct',
  'logcat_lines_parsed_per_s',
  'overlapping_dumps',
  'dumps',
  'parallel_efficiency',
  'parallel',
  'peak_rss_mb',
  'rss_series',
  'builds',
  'iterations',
  'adb_port',
  'faults',
  'unexplained_failures',
];

interface Report {
  [key: string]: unknown;
  actors: string;
  attached: boolean;
  calls: number;
  calls_per_s: number;
  tools: Record<string, { count: number; errors: number; p50_ms: number; p95_ms: number; p99_ms: number }>;
  errors: Record<string, number>;
  allowed_error_codes: string[];
  unexpected_errors: number;
  event_loop_delay_p99_ms: { frontends: number[]; frontend_max: number; host: number | null };
  overlapping_dumps: number;
  dumps: number;
  parallel_efficiency: number;
  peak_rss_mb: { host: number | null; frontends: number[]; sim: number | null; loadtest: number };
  rss_series: unknown[];
  builds: { completed: number; failed: number } | null;
  adb_port: number | null;
  faults: FaultReport[] | null;
  unexplained_failures: { tool: string; code: string; text: string }[] | null;
}

function lastJsonLine(stdout: string): Report {
  const lines = stdout.trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as Report;
}

/** True when something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

function checkRun(report: Report, sessions: number): void {
  for (const field of FIELDS) {
    expect(report, `field ${field}`).toHaveProperty(field);
  }
  expect(report.overlapping_dumps).toBe(0);
  expect(report.dumps).toBeGreaterThan(0);
  expect(report.calls).toBeGreaterThan(0);
  expect(report.calls_per_s).toBeGreaterThan(0);
  for (const code of Object.keys(report.errors)) {
    expect(report.allowed_error_codes, `error code ${code}: ${JSON.stringify(report.errors)}`).toContain(
      code,
    );
  }
  expect(report.unexpected_errors).toBe(0);
  for (const tool of [
    'list_clickable_elements',
    'ui_tap_element',
    'screenshot',
    'get_logcat_entries',
    'run_gradle_task',
  ]) {
    expect(report.tools[tool]?.count ?? 0, tool).toBeGreaterThan(0);
    expect(report.tools[tool]!.p99_ms).toBeGreaterThanOrEqual(report.tools[tool]!.p50_ms);
  }
  expect(report.event_loop_delay_p99_ms.frontends).toHaveLength(sessions);
  expect(report.peak_rss_mb.frontends).toHaveLength(sessions);
  expect(report.peak_rss_mb.sim).toBeGreaterThan(0);
  expect(report.parallel_efficiency).toBeGreaterThan(0);
  expect(report.rss_series.length).toBeGreaterThan(0);
  expect(report.builds?.completed).toBeGreaterThan(0);
}

describe('droidbus loadtest', () => {
  it('runs standalone sessions against simulated devices and prints every figure as JSON on the last line', async () => {
    const r = await runCli([
      'loadtest',
      '--sim',
      '--devices',
      '2',
      '--sessions',
      '2',
      '--duration',
      '5',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const report = lastJsonLine(r.stdout);
    checkRun(report, 2);
    expect(report.actors).toBe('workers');
    expect(report.attached).toBe(false);
    expect(report.event_loop_delay_p99_ms.host).toBeNull();
    expect(r.stdout).toContain('parallel efficiency');
    // Its private adb server is gone once it has exited.
    expect(await listening(report.adb_port!)).toBe(false);
  }, 180_000);

  it('attaches the sessions to a host of its own and reports the host’s figures', async () => {
    const r = await runCli([
      'loadtest',
      '--sim',
      '--devices',
      '2',
      '--sessions',
      '2',
      '--duration',
      '5',
      '--attached',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const report = lastJsonLine(r.stdout);
    checkRun(report, 2);
    expect(report.attached).toBe(true);
    expect(report.event_loop_delay_p99_ms.host).toEqual(expect.any(Number));
    expect(report.peak_rss_mb.host).toBeGreaterThan(0);
  }, 180_000);

  it('never overlaps two dumps on a device that two sessions drive at once', async () => {
    const r = await runCli([
      'loadtest',
      '--sim',
      '--devices',
      '1',
      '--sessions',
      '2',
      '--duration',
      '5',
      '--mix',
      'ui',
      '--dump-latency',
      '200',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const report = lastJsonLine(r.stdout);
    expect(report.overlapping_dumps).toBe(0);
    expect(report.dumps).toBeGreaterThan(4);
    expect(report.unexpected_errors).toBe(0);
    expect(report.allowed_error_codes).toContain('BUSY');
  }, 180_000);
});

describe('droidbus loadtest --faults', () => {
  it('injects every fault into an attached run; each recovers, only calls it explains fail, no logcat line is lost or read twice', async () => {
    const r = await runCli([
      'loadtest',
      '--sim',
      '--devices',
      '2',
      '--sessions',
      '2',
      '--duration',
      '20',
      '--attached',
      '--mix',
      'ui,logcat',
      '--faults',
      'device-drop,adb-restart,worker-kill,host-kill',
      '--fault-down',
      '1500',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const report = lastJsonLine(r.stdout);
    const faults = report.faults!;
    // worker-kill is one injection per killed thread: the device actors' and the logcat actor's.
    expect(faults.map((f) => f.fault)).toEqual([
      'device-drop',
      'adb-restart',
      'worker-kill',
      'worker-kill',
      'host-kill',
    ]);
    expect(faults.map((f) => f.target).slice(2, 4)).toEqual(['worker devices#0', 'worker logcat#0']);
    for (const f of faults) {
      expect(f.recovered, JSON.stringify(f)).toBe(true);
      expect(f.recovery_ms).toBeGreaterThanOrEqual(0);
      // Lines the devices logged from the fault to the recovery, every one of them stored once.
      expect(f.logcat?.device_lines, f.fault).toBeGreaterThan(0);
      expect(f.logcat?.lost, f.fault).toBe(0);
      expect(f.logcat?.read_twice, f.fault).toBe(0);
      // The store as a client reads it, before the fault and after its recovery: what it lost.
      const store = f.logcat!;
      expect(store.store_before, f.fault).toBeGreaterThan(0);
      expect(store.store_lost, f.fault).toBeGreaterThanOrEqual(
        Math.max(0, store.store_before - store.store_after),
      );
      if (f.fault !== 'host-kill') {
        // The host kept running: nothing a client could read is gone.
        expect(store.store_lost, f.fault).toBe(0);
      }
    }
    // A dropped device costs its own calls only: each failure names it as offline.
    expect(Object.keys(faults[0]!.failed_by_code), JSON.stringify(faults[0]!.failed_examples)).toEqual([
      'DEVICE_OFFLINE',
    ]);
    // Attached sessions lose their host and attach to the next one: calls in the gap say so.
    expect(Object.keys(faults[4]!.failed_by_code)).toEqual(['UNAVAILABLE']);
    expect(report.unexplained_failures).toEqual([]);
    expect(report.unexpected_errors).toBe(0);
    expect(report.overlapping_dumps).toBe(0);
    expect(r.stdout).toContain('failed calls no fault explains: none');
  }, 240_000);

  it('serves two private adb servers at once; killing one costs only its devices’ calls', async () => {
    const r = await runCli([
      'loadtest',
      '--sim',
      '--adb-servers',
      '2',
      '--devices',
      '2',
      '--sessions',
      '1',
      '--duration',
      '10',
      '--mix',
      'ui,logcat',
      '--faults',
      'server-kill',
      '--fault-down',
      '1500',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const report = lastJsonLine(r.stdout) as Report & {
      adb_servers: {
        label: string;
        devices: number;
        calls: number;
        while_other_down: { calls: number; failed: number };
      }[];
    };
    expect(report.adb_servers.map((s) => [s.label, s.devices])).toEqual([
      ['s1', 1],
      ['s2', 1],
    ]);
    const [fault] = report.faults!;
    expect(fault).toMatchObject({ fault: 'server-kill', recovered: true });
    expect(fault!.target).toMatch(/^adb server s2 :\d+$/);
    expect(fault!.logcat?.lost).toBe(0);
    // The server that stayed up answered every call made while the other was down.
    expect(report.adb_servers[0]!.while_other_down.calls).toBeGreaterThan(0);
    expect(report.adb_servers[0]!.while_other_down.failed).toBe(0);
    expect(report.unexplained_failures).toEqual([]);
    expect(r.stdout).toMatch(/adb servers .*\n.*\n {2}s1 /);
  }, 180_000);

  it('refuses faults without simulated devices, and host faults without a host', async () => {
    const noSim = await runCli(['loadtest', '--faults', 'device-drop']);
    expect(noSim.code).toBe(2);
    expect(noSim.stderr).toContain('--faults needs --sim');
    const noHost = await runCli(['loadtest', '--sim', '--faults', 'host-kill,worker-kill']);
    expect(noHost.code).toBe(2);
    expect(noHost.stderr).toContain('--faults host-kill,worker-kill act on the host: add --attached');
    const unknown = await runCli(['loadtest', '--sim', '--faults', 'meteor']);
    expect(unknown.stderr).toContain("unknown fault 'meteor'");
    const oneServer = await runCli(['loadtest', '--sim', '--faults', 'server-kill']);
    expect(oneServer.stderr).toContain('server-kill needs --adb-servers 2 or more');
    const noSimServers = await runCli(['loadtest', '--adb-servers', '2']);
    expect(noSimServers.stderr).toContain('--adb-servers starts private adb servers');
  });
});

describe('droidbus loadtest without --sim', () => {
  let server: AdbServer;
  beforeAll(async () => {
    server = await startAdbServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses clearly when the adb server has fewer online devices than asked for', async () => {
    const r = await runCli(['loadtest', '--devices', '3', '--sessions', '1', '--duration', '1'], {
      env: server.env as Record<string, string>,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('3 device(s) asked for, but the adb server lists 0 online');
    expect(r.stdout).toBe('');
  });

  it('refuses bad arguments with exit 2', async () => {
    const r = await runCli(['loadtest', '--mix', 'ui,dance']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown part 'dance'");
  });
});

describe('waiting for the simulated devices', () => {
  let server: AdbServer;
  let farm: SimFarm;
  beforeAll(async () => {
    server = await startAdbServer();
    farm = await startSimFarm(server, { devices: 2 });
  }, 120_000);
  afterAll(async () => {
    await farm?.stop();
    await server?.stop();
  });

  it('connects a device the server dropped again, and gives up naming each device’s state', async () => {
    const { waitUntilOnline } = await fromDist<typeof SimProcess>('loadtest/sim-process.ts');
    const { AdbClient } = await fromDist<typeof Client>('adb/client.ts');
    const client = new AdbClient({ kind: 'tcp', host: '127.0.0.1', port: server.port, source: 'test' });
    const serials = farm.devices.map((d) => d.serial);
    const dropped = serials[1]!;
    const gone = await server.adb(['disconnect', dropped]);
    expect(gone.code).toBe(0);
    const listed = async (): Promise<string[]> =>
      (await client.devices()).filter((d) => d.state === 'device').map((d) => d.serial);
    expect(await listed()).not.toContain(dropped);
    await waitUntilOnline(client, serials, Date.now() + 20_000, 200);
    expect(await listed()).toEqual(expect.arrayContaining(serials));
    // A serial nothing listens on stays unlisted: the error says so, per device.
    const err = await waitUntilOnline(client, [serials[0]!, '127.0.0.1:1'], Date.now() + 600, 200).catch(
      (e: unknown) => e as Error,
    );
    expect(String(err)).toMatch(/lists 1 of the 2 simulated devices as online \(.*127\.0\.0\.1:1 not listed/);
  }, 60_000);
});
