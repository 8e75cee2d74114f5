/**
 * bench/tasks: the agent's whole job as it pays for it (issue 34). Ten Android jobs (bench/lib/task-jobs.ts)
 * done by droidbus (its default toolsets, as an agent registers it) and by mobile-mcp 1.0.4 in both
 * its modes, on the same sim device behind one adb server (Debian's adb), each job set up and checked
 * through adb. Per job and server: calls, text and image bytes, tokens (text/4 + w·h/750) and time,
 * medians over the rounds, and how many rounds the check passed. The total is one session doing
 * every job once: what the model reads before its first call (the server's instructions and
 * tools/list), once, plus the jobs' answers.
 *
 * Each round starts a fresh session of every server, in a rotated order.
 *
 *   npm run build && npx tsx bench/tasks.ts [--rounds 3] [--dump-latency 500] [--json] [--answers]
 *
 * --answers prints every call's whole answer to stderr; --only droidbus runs one server.
 */
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AdbClient } from '../src/adb/client.js';
import { startSimProcess } from '../src/loadtest/sim-process.js';
import { runProcess } from '../src/util/exec.js';
import { Agent, listingBytes, tokensOf, type Bill } from './lib/agent.js';
import {
  CLI,
  PEERS,
  peerBenchHome,
  mobilecliProblem,
  startServer,
  stopMobilecliDaemon,
  type ServerName,
} from './lib/peer.js';
import { DEBUG_VARIANT, JOBS, RELEASE_VARIANT, type Job, type World } from './lib/task-jobs.js';
import { quantile } from './stats.js';
import { numberFlag } from './lib/flags.js';

const argv = process.argv.slice(2);
const ROUNDS = numberFlag('rounds', 3);
const DUMP_LATENCY_MS = numberFlag('dump-latency', 500);
/** The session's first step on a server whose tools take a device id: finding the id. */
const SESSION = 'session start (device id)';

interface Run {
  bill: Bill;
  ms: number;
  problem: string | null;
}

type Results = Map<string, Map<ServerName, Run[]>>;

async function runJob(
  job: Job,
  agent: Agent,
  server: ServerName,
  world: World,
  device: string,
): Promise<Run> {
  await job.setup(world);
  const t0 = performance.now();
  let problem: string | null;
  try {
    const answer = await (server === 'droidbus' ? job.droidbus : job.peer)(agent, world, device);
    const ms = performance.now() - t0;
    problem =
      job.image && agent.bill.images.length === 0 ? 'no image came back' : await job.check(world, answer);
    return { bill: agent.bill, ms, problem };
  } catch (err) {
    problem = err instanceof Error ? err.message : String(err);
    return { bill: agent.bill, ms: performance.now() - t0, problem };
  }
}

function record(results: Results, job: string, server: ServerName, run: Run): void {
  const byServer = results.get(job) ?? new Map<ServerName, Run[]>();
  byServer.set(server, [...(byServer.get(server) ?? []), run]);
  results.set(job, byServer);
}

/** One session of a server doing every job once. */
async function session(
  client: Client,
  server: ServerName,
  world: World & { serial: string; cancelLater(): void },
  results: Results,
): Promise<void> {
  let device = world.serial;
  if (server !== 'droidbus') {
    const agent = new Agent(client);
    const t0 = performance.now();
    const listed = await agent.call('mobile_list_available_devices');
    record(results, SESSION, server, {
      bill: agent.bill,
      ms: performance.now() - t0,
      problem: listed.text.includes(world.serial) ? null : `the device is not listed: ${listed.text}`,
    });
    device = world.serial;
  }
  for (const job of JOBS) {
    const agent = new Agent(client);
    const run = await runJob(job, agent, server, world, device);
    world.cancelLater();
    await world.shell('sim dialog dismiss');
    process.stderr.write(
      `${server} · ${job.name}: ${run.problem === null ? 'ok' : `FAILED: ${run.problem}`} · ${run.bill.calls} calls · ${Math.round(tokensOf(run.bill))} tokens · ${Math.round(run.ms)} ms\n`,
    );
    if (argv.includes('--answers')) {
      process.stderr.write(`${agent.transcript.join('\n')}\n\n`);
    } else if (run.problem !== null) {
      process.stderr.write(`    ${agent.trail.join('\n    ')}\n`);
    }
    record(results, job.name, server, run);
  }
}

const median = (runs: Run[], f: (r: Run) => number): number => quantile(runs.map(f), 0.5);

interface Cell {
  calls: number;
  text_bytes: number;
  image_bytes: number;
  tokens: number;
  ms: number;
  passed: number;
  of: number;
}

function cellOf(runs: Run[]): Cell {
  return {
    calls: median(runs, (r) => r.bill.calls),
    text_bytes: median(runs, (r) => r.bill.textBytes),
    image_bytes: median(runs, (r) => r.bill.imageBytes),
    tokens: median(runs, (r) => tokensOf(r.bill)),
    ms: median(runs, (r) => r.ms),
    passed: runs.filter((r) => r.problem === null).length,
    of: runs.length,
  };
}

const n = (v: number): string => Math.round(v).toLocaleString('en');

function report(
  results: Results,
  servers: ServerName[],
  problems: Map<ServerName, string>,
  listings: Map<ServerName, Awaited<ReturnType<typeof listingBytes>>>,
) {
  const rows = [SESSION, ...JOBS.map((j) => j.name)];
  const cells: Record<string, Partial<Record<ServerName, Cell>>> = {};
  const lines = [
    `| job | ${servers.map((s) => `${s}: passed · calls · tokens · ms`).join(' | ')} |`,
    `|---|${servers.map(() => '---').join('|')}|`,
  ];
  for (const row of rows) {
    cells[row] = {};
    const out: string[] = [];
    for (const s of servers) {
      const runs = results.get(row)?.get(s);
      if (problems.has(s)) {
        out.push(problems.get(s)!);
        continue;
      }
      if (runs === undefined) {
        out.push('—');
        continue;
      }
      const c = cellOf(runs);
      cells[row]![s] = c;
      out.push(`${c.passed}/${c.of} · ${c.calls} · ${n(c.tokens)} · ${n(c.ms)}`);
    }
    lines.push(`| ${row} | ${out.join(' | ')} |`);
  }
  const live = servers.filter((s) => !problems.has(s));
  const doneByAll = JOBS.map((j) => j.name).filter((row) =>
    live.every((s) => (cells[row]?.[s]?.passed ?? 0) === (cells[row]?.[s]?.of ?? -1)),
  );
  const totals: Record<string, Record<string, number>> = {};
  for (const s of live) {
    const sum = (names: string[], f: (c: Cell) => number): number =>
      names.reduce((a, r) => a + (cells[r]?.[s] ? f(cells[r]![s]!) : 0), 0);
    const listingTokens = (listings.get(s)?.bytes ?? 0) / 4;
    totals[s] = {
      listing_tools: listings.get(s)?.tools ?? 0,
      listing_bytes: listings.get(s)?.bytes ?? 0,
      instructions_bytes: listings.get(s)?.instructions ?? 0,
      whole_listing_bytes: listings.get(s)?.whole ?? 0,
      listing_tokens: listingTokens,
      result_tokens: sum(rows, (c) => c.tokens),
      session_tokens: listingTokens + sum(rows, (c) => c.tokens),
      result_tokens_jobs_all_did: sum(doneByAll, (c) => c.tokens),
      calls: sum(rows, (c) => c.calls),
      ms: sum(rows, (c) => c.ms),
      jobs_passed: JOBS.filter((j) => {
        const c = cells[j.name]?.[s];
        return c !== undefined && c.passed === c.of;
      }).length,
    };
  }
  const t = (s: ServerName, k: string): string => (totals[s] ? n(totals[s]![k]!) : (problems.get(s) ?? '—'));
  lines.push(
    `| **jobs done every round** | ${servers.map((s) => (totals[s] ? `${totals[s]!['jobs_passed']}/${JOBS.length}` : t(s, ''))).join(' | ')} |`,
    `| what the model reads before its first call: tools · bytes (instructions) · tokens | ${servers.map((s) => (totals[s] ? `${totals[s]!['listing_tools']} · ${n(totals[s]!['listing_bytes']!)} B (${n(totals[s]!['instructions_bytes']!)}) · ${n(totals[s]!['listing_tokens']!)}` : t(s, ''))).join(' | ')} |`,
    `| the whole tools/list JSON (output schemas and all), bytes | ${servers.map((s) => t(s, 'whole_listing_bytes')).join(' | ')} |`,
    `| answers' tokens, all jobs (calls) | ${servers.map((s) => (totals[s] ? `${n(totals[s]!['result_tokens']!)} (${totals[s]!['calls']})` : t(s, ''))).join(' | ')} |`,
    `| answers' tokens, the ${doneByAll.length} jobs every server did | ${servers.map((s) => t(s, 'result_tokens_jobs_all_did')).join(' | ')} |`,
    `| **one session: listing + every job's answers, tokens** | ${servers.map((s) => t(s, 'session_tokens')).join(' | ')} |`,
    `| time of every job, ms | ${servers.map((s) => t(s, 'ms')).join(' | ')} |`,
  );
  return { lines, json: { cells, totals, jobs_every_server_did: doneByAll } };
}

async function adb(env: Record<string, string>, args: string[]) {
  const r = await runProcess('adb', args, { env, timeoutMs: 60_000 });
  return { code: r.code ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The sample project, trusted, built in the variants the jobs use; the release build installed through droidbus. */
async function prepareProject(env: Record<string, string>, dir: string): Promise<Record<string, string>> {
  for (const args of [
    ['sim', '--sample-project', dir],
    ['trust', dir],
  ]) {
    const r = await runProcess(process.execPath, [CLI, ...args], { env, timeoutMs: 60_000 });
    if (r.code !== 0) {
      throw new Error(`droidbus ${args.join(' ')}: ${r.stderr}`);
    }
  }
  const client = await startServer('droidbus', env, ['--project', dir], 'droidbus-bench-tasks-setup');
  const agent = new Agent(client);
  const apks: Record<string, string> = {};
  try {
    for (const variant of [RELEASE_VARIANT, DEBUG_VARIANT]) {
      await agent.must('run_gradle_task', { task: 'assemble', variant }, 300_000);
      const found = await agent.must('find_apk_path', { variant });
      apks[variant] = path.resolve(dir, String(found.structured['path']));
    }
    // The crash job's build, installed the way the project's builds are (recorded, so it retraces).
    await agent.must('install_apk', { apk_path: apks[RELEASE_VARIANT]! });
  } finally {
    await client.close();
  }
  return apks;
}

async function main(): Promise<void> {
  const { home, port, onDefault, env } = await peerBenchHome('droidbus-tasks-', {
    SIM_GRADLE_DURATION_MS: '300',
  });
  const started = await adb(env, ['-P', String(port), 'start-server']);
  if (started.code !== 0) {
    throw new Error(`adb start-server failed: ${started.stderr}`);
  }
  let sim: Awaited<ReturnType<typeof startSimProcess>> | null = null;
  const timers = new Set<NodeJS.Timeout>();
  try {
    sim = await startSimProcess({
      cli: CLI,
      adbPort: port,
      client: new AdbClient({ kind: 'tcp', host: '127.0.0.1', port, source: 'bench' }),
      devices: 1,
      dumpLatencyMs: DUMP_LATENCY_MS,
      logcatRate: 0,
      env,
    });
    const serial = sim.serials[0]!;
    const project = path.join(home, 'sample');
    const apks = await prepareProject(env, project);
    let runs = 0;
    const world = {
      serial,
      apks,
      get token() {
        return `run${runs}`;
      },
      async adb(args: string[]) {
        return adb(env, ['-s', serial, ...args]);
      },
      async shell(cmd: string) {
        const r = await adb(env, ['-s', serial, 'shell', cmd]);
        if (r.code !== 0) {
          throw new Error(`adb shell ${cmd}: ${r.stderr || r.stdout}`);
        }
        return r.stdout;
      },
      later(ms: number, fn: () => Promise<unknown>) {
        timers.add(setTimeout(() => void fn().catch(() => undefined), ms));
      },
      cancelLater() {
        timers.forEach(clearTimeout);
        timers.clear();
        runs++;
      },
    };
    const servers: ServerName[] = ['droidbus', ...PEERS];
    const problems = new Map<ServerName, string>();
    const mobilecli = mobilecliProblem(onDefault);
    if (mobilecli !== null) {
      problems.set('mobilecli', mobilecli);
    }
    const only = argv.indexOf('--only') >= 0 ? argv[argv.indexOf('--only') + 1] : undefined;
    const live = servers.filter((s) => !problems.has(s) && (only === undefined || s === only));
    const results: Results = new Map();
    const listings = new Map<ServerName, Awaited<ReturnType<typeof listingBytes>>>();
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < live.length; i++) {
        const server = live[(i + round) % live.length]!;
        const client = await startServer(server, env, ['--project', project], 'droidbus-bench-tasks');
        try {
          if (!listings.has(server)) {
            listings.set(server, await listingBytes(client));
          }
          await session(client, server, world, results);
        } finally {
          await client.close().catch(() => undefined);
        }
      }
    }
    const { lines, json } = report(results, servers, problems, listings);
    console.log(
      `bench/tasks: 1 sim device (uiautomator dump ${DUMP_LATENCY_MS} ms) behind adb on port ${port}, ${ROUNDS} rounds (a fresh session of each server per round), medians; load average ${os
        .loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')}`,
    );
    console.log(lines.join('\n'));
    if (argv.includes('--json')) {
      console.log(JSON.stringify({ rounds: ROUNDS, dump_latency_ms: DUMP_LATENCY_MS, ...json }));
    }
  } finally {
    timers.forEach(clearTimeout);
    await sim?.stop();
    await stopMobilecliDaemon(env);
    await adb(env, ['-P', String(port), 'kill-server']);
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
