/**
 * droidbus side by side with mobile-mcp (npm @mobilenext/mobile-mcp, pinned below and installed on first run), the
 * most-used TypeScript Android MCP server, in its two modes: mobilecli (its default) and legacy adb
 * (MOBILEMCP_LEGACY_ROBOT=1). Every server is a real stdio MCP server driven by the official SDK
 * client, against the same simulated devices behind one adb server (Debian's adb), the same work per
 * row, interleaved (each round calls the servers in a rotated order) so the machine's drift cancels.
 *
 * Per row and server: median and p90 call time, the host time beyond the device (the call minus the
 * time the device spent on its commands, from the sim's command log), device commands per call, and
 * droidbus's host time over the best peer's; then the parallel efficiency of reading the screen on 4
 * and 16 devices at once (one device's time over N devices' time).
 *
 * mobilecli reaches only adb's default port, so the adb server runs on 5037 when it is free (with a
 * home of its own); when it is taken the mobilecli column says so.
 *
 *   npm run build && npx tsx bench/peers.ts [--rounds 15] [--json]
 */
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { runProcess } from '../src/util/exec.js';
import { startSimProcess } from '../src/loadtest/sim-process.js';
import { AdbClient } from '../src/adb/client.js';
import { deviceTime, now, readLog } from './lib/device-time.js';
import {
  CLI,
  peerBenchHome,
  mobilecliProblem,
  startServer,
  stopMobilecliDaemon,
  type ServerName,
} from './lib/peer.js';
import { quantile } from './stats.js';
import { numberFlag } from './lib/flags.js';

const argv = process.argv.slice(2);
const ROUNDS = numberFlag('rounds', 15);
const DUMP_LATENCY_MS = numberFlag('dump-latency', 700);
const DEVICES = 16;
const SAMPLE = 'com.droidbus.sample';

interface Server {
  name: ServerName;
  client: Client | null;
  /** Why it could not run, when it could not. */
  problem: string | null;
}

/** One row: what each server is asked, for a device (null for server-wide rows). */
interface Row {
  name: string;
  droidbus: (serial: string) => [string, Record<string, unknown>];
  peer: (serial: string) => [string, Record<string, unknown>];
}

const ROWS: Row[] = [
  {
    name: 'list devices',
    droidbus: () => ['list_devices', {}],
    peer: () => ['mobile_list_available_devices', {}],
  },
  {
    name: 'list elements',
    droidbus: (d) => ['list_clickable_elements', { device_serial: d }],
    peer: (d) => ['mobile_list_elements_on_screen', { device: d }],
  },
  {
    name: 'screenshot',
    droidbus: (d) => ['screenshot', { device_serial: d }],
    peer: (d) => ['mobile_take_screenshot', { device: d }],
  },
  {
    name: 'tap',
    droidbus: (d) => ['ui_tap', { device_serial: d, x: 540, y: 1200 }],
    peer: (d) => ['mobile_click_on_screen_at_coordinates', { device: d, x: 540, y: 1200 }],
  },
  {
    name: 'type',
    droidbus: (d) => ['ui_type_text', { device_serial: d, text: 'hello' }],
    peer: (d) => ['mobile_type_keys', { device: d, text: 'hello', submit: false }],
  },
  {
    name: 'swipe',
    droidbus: (d) => ['ui_swipe', { device_serial: d, x1: 540, y1: 1800, x2: 540, y2: 600 }],
    peer: (d) => ['mobile_swipe_on_screen', { device: d, direction: 'up' }],
  },
  {
    name: 'list apps',
    droidbus: (d) => ['list_apps', { device_serial: d }],
    peer: (d) => ['mobile_list_apps', { device: d }],
  },
  {
    name: 'launch',
    droidbus: (d) => ['launch_app', { device_serial: d, package: SAMPLE }],
    peer: (d) => ['mobile_launch_app', { device: d, packageName: SAMPLE }],
  },
  {
    name: 'terminate',
    droidbus: (d) => ['stop_app', { device_serial: d, package: SAMPLE, allow_foreign_package: true }],
    peer: (d) => ['mobile_terminate_app', { device: d, packageName: SAMPLE }],
  },
  {
    name: 'screen size',
    droidbus: (d) => ['get_device_info', { device_serial: d }],
    peer: (d) => ['mobile_get_screen_size', { device: d }],
  },
];

interface Sample {
  ms: number;
  hostMs: number;
  commands: number;
  error: boolean;
}

async function start(name: ServerName, env: Record<string, string>): Promise<Server> {
  const client = await startServer(
    name,
    env,
    ['--toolsets', 'core,ui,device-admin,ui-extras,device-extras'],
    'droidbus-bench-peers',
  );
  return { name, client, problem: null };
}

/** The first failure of each server and tool, to show in the table. */
const firstErrors = new Map<string, string>();

async function call(server: Server, tool: string, args: Record<string, unknown>) {
  const t0 = now();
  let error: string | null = null;
  try {
    const r = (await server.client!.callTool({ name: tool, arguments: args }, undefined, {
      timeout: 30_000,
    })) as CallToolResult;
    if (r.isError === true) {
      error = r.content.map((c) => (c.type === 'text' ? c.text : '')).join(' ');
    }
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  if (error !== null && !firstErrors.has(`${server.name} ${tool}`)) {
    firstErrors.set(`${server.name} ${tool}`, error.slice(0, 160));
  }
  return { t0, t1: now(), error: error !== null };
}

/** Each row, `ROUNDS` times, the servers in a rotated order each round, on one device. */
async function rows(
  servers: Server[],
  serial: string,
  logFile: string,
): Promise<Map<string, Map<ServerName, Sample[]>>> {
  const out = new Map<string, Map<ServerName, Sample[]>>();
  const live = servers.filter((s) => s.client !== null);
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const row of ROWS) {
      const order = live.map((_, i) => live[(i + round) % live.length]!);
      for (const server of order) {
        const [tool, args] = server.name === 'droidbus' ? row.droidbus(serial) : row.peer(serial);
        const r = await call(server, tool, args);
        process.stderr.write(
          `round ${round} ${row.name} ${server.name}: ${Math.round(r.t1 - r.t0)} ms${r.error ? ' (failed)' : ''}\n`,
        );
        if (round === 0) {
          continue; // warm-up: each server's first call of a row starts its own machinery
        }
        // The sim writes its log within 50 ms; read it once the call is done.
        await new Promise((res) => setTimeout(res, 60));
        const device = deviceTime(readLog(logFile), serial, r.t0, r.t1);
        const byServer = out.get(row.name) ?? new Map<ServerName, Sample[]>();
        const list = byServer.get(server.name) ?? [];
        list.push({
          ms: r.t1 - r.t0,
          hostMs: r.t1 - r.t0 - device.busy,
          commands: device.commands,
          error: r.error,
        });
        byServer.set(server.name, list);
        out.set(row.name, byServer);
      }
    }
  }
  return out;
}

/**
 * One device's screen read alone, then N at once: efficiency = one's time / all N's time. Reads
 * that fail make the figure meaningless (a timed-out read is fast), so they are counted instead.
 */
async function parallel(server: Server, serials: string[], n: number): Promise<Parallel> {
  const read = (serial: string) =>
    server.name === 'droidbus'
      ? call(server, 'list_clickable_elements', { device_serial: serial })
      : call(server, 'mobile_list_elements_on_screen', { device: serial });
  await Promise.all(serials.slice(0, n).map(read));
  const one = await read(serials[0]!);
  const t0 = now();
  const all = await Promise.all(serials.slice(0, n).map(read));
  const failed = all.filter((r) => r.error).length;
  return { efficiency: (one.t1 - one.t0) / (now() - t0), failed, of: n, single_failed: one.error };
}

interface Parallel {
  efficiency: number;
  /** Reads that failed of the `of` at once. */
  failed: number;
  of: number;
  single_failed: boolean;
}

const showParallel = (p: Parallel): string =>
  p.single_failed
    ? 'the single read failed'
    : p.failed > 0
      ? `${p.failed} of ${p.of} failed`
      : p.efficiency.toFixed(2);

const fmt = (v: number): string =>
  Number.isFinite(v) ? (v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en')) : '—';

function table(results: Map<string, Map<ServerName, Sample[]>>, servers: Server[]) {
  const json: Record<string, Record<string, unknown>> = {};
  const lines = [
    `| work | ${servers.map((s) => `${s.name} median / p90 ms (host) · cmds`).join(' | ')} | droidbus host / best peer host |`,
    `|---|${servers.map(() => '---').join('|')}|---|`,
  ];
  for (const row of ROWS) {
    const byServer = results.get(row.name);
    const cells: string[] = [];
    const host: Partial<Record<ServerName, number>> = {};
    json[row.name] = {};
    for (const s of servers) {
      const samples = (byServer?.get(s.name) ?? []).filter((x) => !x.error);
      const errors = (byServer?.get(s.name) ?? []).length - samples.length;
      if (s.problem !== null || samples.length === 0) {
        cells.push(s.problem ?? `failed (${errors})`);
        continue;
      }
      const ms = samples.map((x) => x.ms);
      const h = quantile(
        samples.map((x) => x.hostMs),
        0.5,
      );
      host[s.name] = h;
      const cmds = quantile(
        samples.map((x) => x.commands),
        0.5,
      );
      cells.push(
        `${fmt(quantile(ms, 0.5))} / ${fmt(quantile(ms, 0.9))} (${fmt(h)}) · ${cmds}${errors ? ` [${errors} failed]` : ''}`,
      );
      json[row.name]![s.name] = {
        median_ms: quantile(ms, 0.5),
        p90_ms: quantile(ms, 0.9),
        host_ms: h,
        commands: cmds,
        errors,
      };
    }
    const peers = (['mobilecli', 'legacy'] as const)
      .map((p) => host[p])
      .filter((v): v is number => v !== undefined);
    const best = peers.length > 0 ? Math.min(...peers) : NaN;
    const ratio = host.droidbus !== undefined ? host.droidbus / best : NaN;
    json[row.name]!['ratio_host'] = ratio;
    lines.push(`| ${row.name} | ${cells.join(' | ')} | ${Number.isFinite(ratio) ? ratio.toFixed(2) : '—'} |`);
  }
  return { lines, json };
}

async function main(): Promise<void> {
  const { home, port, onDefault, env } = await peerBenchHome('droidbus-peers-');
  const started = await runProcess('adb', ['-P', String(port), 'start-server'], { env, timeoutMs: 30_000 });
  if (started.code !== 0) {
    throw new Error(`adb start-server failed: ${started.stderr}`);
  }
  const logFile = path.join(home, 'commands.jsonl');
  const servers: Server[] = [];
  let sim: Awaited<ReturnType<typeof startSimProcess>> | null = null;
  try {
    sim = await startSimProcess({
      cli: CLI,
      adbPort: port,
      client: new AdbClient({ kind: 'tcp', host: '127.0.0.1', port, source: 'bench' }),
      devices: DEVICES,
      dumpLatencyMs: DUMP_LATENCY_MS,
      logcatRate: 0,
      env,
      extraArgs: ['--command-log', logFile],
    });
    for (const name of ['droidbus', 'mobilecli', 'legacy'] as const) {
      const problem = name === 'mobilecli' ? mobilecliProblem(onDefault) : null;
      if (problem !== null) {
        servers.push({ name, client: null, problem });
        continue;
      }
      servers.push(await start(name, env));
    }
    const serial = sim.serials[0]!;
    const results = await rows(servers, serial, logFile);
    const { lines, json } = table(results, servers);
    const eff: Record<string, Record<number, Parallel>> = {};
    for (const s of servers.filter((x) => x.client !== null)) {
      eff[s.name] = { 4: await parallel(s, sim.serials, 4), 16: await parallel(s, sim.serials, 16) };
    }
    lines.push(
      `| list elements on 4 / 16 devices at once, parallel efficiency | ${servers
        .map((s) =>
          eff[s.name]
            ? `${showParallel(eff[s.name]![4]!)} / ${showParallel(eff[s.name]![16]!)}`
            : (s.problem ?? '—'),
        )
        .join(' | ')} | |`,
    );
    console.log(
      `bench/peers: ${DEVICES} sim devices (uiautomator dump ${DUMP_LATENCY_MS} ms) behind adb on port ${port}, ${ROUNDS} rounds, load average ${os
        .loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')}`,
    );
    console.log(lines.join('\n'));
    for (const [key, text] of firstErrors) {
      console.log(`failed: ${key}: ${text}`);
    }
    if (argv.includes('--json')) {
      console.log(
        JSON.stringify({
          rows: json,
          parallel_efficiency: eff,
          rounds: ROUNDS,
          dump_latency_ms: DUMP_LATENCY_MS,
        }),
      );
    }
  } finally {
    await Promise.all(servers.map((s) => s.client?.close().catch(() => undefined)));
    await sim?.stop();
    await stopMobilecliDaemon(env);
    await runProcess('adb', ['-P', String(port), 'kill-server'], { env, timeoutMs: 15_000 });
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
