/**
 * bench/budgets: every budget of DESIGN.md ("Budgets"), measured by the scenario behind it, each
 * figure printed next to its target and, beside it, the inline mode's figure (the same actors on the
 * frontend's or host's main thread: what the worker threads buy).
 *
 *   loop      MCP frontend event-loop p99 < 10 ms while 16 devices stream 2,000 logcat lines/s each,
 *             every device captures its UI in a loop and a build prints 5,000 lines/s
 *             (droidbus loadtest, 1 session driving all 16 devices)
 *   parallel  parallel efficiency ≥ 0.9 at N = 16 and 0 overlapping captures
 *             (droidbus loadtest, 16 devices, 8 sessions: the issue's run)
 *   logcat    logcat parsing ≥ 1,000,000 lines/s in one thread (bench/logcat.ts --no-frontend)
 *   retrace   a 60-frame trace on a 20 MB mapping: < 1 s cold, < 5 ms warm (bench/retrace.ts)
 *   call      a cheap tool call adds < 1 ms (stdio) and < 2 ms (attached) (bench/host.ts)
 *   host      a host with 64 sim devices < 1 GB RSS (droidbus loadtest --devices 64 --sessions 4 --attached)
 *
 * Run: npm run build && npx tsx bench/budgets.ts [--duration 30] [--only loop,parallel,…]
 * Prints figures; never fails on timing. The machine's load average is printed with each run.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { printTable } from './stats.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = path.join(ROOT, 'dist', 'cli.js');

const args = parseArgs({
  options: {
    duration: { type: 'string', default: '30' },
    only: { type: 'string' },
  },
});
const DURATION = Number(args.values.duration);
const ONLY = args.values.only?.split(',') ?? null;
const wanted = (name: string): boolean => ONLY === null || ONLY.includes(name);

interface Row {
  budget: string;
  target: string;
  workers: string;
  inline: string;
  command: string;
}
const rows: Row[] = [];

/** Runs a command to its end; resolves with its stdout (stderr goes through, as progress). */
function run(command: string, argv: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} ${argv.join(' ')} exited with ${code}`)),
    );
  });
}

const load = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

interface LoadtestJson {
  actors: string;
  calls_per_s: number;
  event_loop_delay_p99_ms: { frontend_max: number; host: number | null };
  overlapping_dumps: number | null;
  parallel_efficiency: number;
  parallel: { one_ms: number; all_ms: number; devices: number };
  peak_rss_mb: { host: number | null; frontend_max: number | null };
  logcat_lines_parsed_per_s: number | null;
  load_average: { start: number[]; end: number[] };
  unexpected_errors: number;
  inline?: LoadtestJson;
}

/** `droidbus loadtest … --compare --json`: the workers run and the inline run from its last line. */
async function loadtest(
  argv: string[],
): Promise<{ workers: LoadtestJson; inline: LoadtestJson; command: string }> {
  const full = ['loadtest', ...argv, '--compare', '--json'];
  process.stderr.write(`\n$ droidbus ${full.join(' ')}   (load average ${load()})\n`);
  const out = await run(process.execPath, [CLI, ...full]);
  const lines = out.trimEnd().split('\n');
  const workers = JSON.parse(lines[lines.length - 1]!) as LoadtestJson;
  process.stdout.write(lines.slice(0, -1).join('\n') + '\n');
  return { workers, inline: workers.inline!, command: `droidbus ${full.join(' ')}` };
}

const ms = (n: number | null | undefined, digits = 2): string =>
  n === null || n === undefined ? '—' : `${n.toFixed(digits)} ms`;

async function loopBudget(): Promise<void> {
  const r = await loadtest([
    '--sim',
    '--devices',
    '16',
    '--sessions',
    '1',
    '--duration',
    String(DURATION),
    '--logcat-rate',
    '2000',
    '--build-rate',
    '5000',
    '--mix',
    'ui,logcat,build',
  ]);
  const lines = (j: LoadtestJson): string => `${Math.round(j.logcat_lines_parsed_per_s ?? 0)} lines/s parsed`;
  rows.push({
    budget: 'frontend event-loop p99 (16 dev × 2,000 lines/s, captures, build 5,000 lines/s)',
    target: '< 10 ms',
    workers: `${ms(r.workers.event_loop_delay_p99_ms.frontend_max)} (${lines(r.workers)}; load ${r.workers.load_average.end[0]})`,
    inline: `${ms(r.inline.event_loop_delay_p99_ms.frontend_max)} (${lines(r.inline)}; load ${r.inline.load_average.end[0]})`,
    command: r.command,
  });
}

async function parallelBudget(): Promise<void> {
  const r = await loadtest(['--sim', '--devices', '16', '--sessions', '8', '--duration', String(DURATION)]);
  const eff = (j: LoadtestJson): string =>
    `${j.parallel_efficiency.toFixed(2)} (${j.parallel.one_ms} → ${j.parallel.all_ms} ms)`;
  rows.push({
    budget: 'parallel efficiency, one capture on 16 devices at once vs one alone',
    target: '≥ 0.9',
    workers: eff(r.workers),
    inline: eff(r.inline),
    command: r.command,
  });
  rows.push({
    budget: 'overlapping captures on one device (16 devices, 8 sessions)',
    target: '0',
    workers: String(r.workers.overlapping_dumps),
    inline: String(r.inline.overlapping_dumps),
    command: r.command,
  });
  rows.push({
    budget: 'frontend event-loop p99, worst of 8 sessions (16 devices, default mix)',
    target: '< 10 ms',
    workers: `${ms(r.workers.event_loop_delay_p99_ms.frontend_max)} (load ${r.workers.load_average.end[0]})`,
    inline: `${ms(r.inline.event_loop_delay_p99_ms.frontend_max)} (load ${r.inline.load_average.end[0]})`,
    command: r.command,
  });
}

async function logcatBudget(): Promise<void> {
  const argv = ['--import', 'tsx', 'bench/logcat.ts', '--no-frontend'];
  process.stderr.write(`\n$ node ${argv.join(' ')}   (load average ${load()})\n`);
  const out = await run(process.execPath, argv);
  process.stdout.write(out);
  const m = /parse \+ enrich \+ crash detection \(target\)\s+([\d,]+) lines\/s/.exec(out);
  rows.push({
    budget: 'logcat parsing in one thread, crash detection included',
    target: '≥ 1,000,000 lines/s',
    workers: m ? `${m[1]} lines/s` : '?',
    inline: 'same code on the main thread (blocks JSON-RPC while it parses)',
    command: 'npx tsx bench/logcat.ts --no-frontend',
  });
}

async function retraceBudget(): Promise<void> {
  const argv = ['--import', 'tsx', 'bench/retrace.ts'];
  process.stderr.write(`\n$ node ${argv.join(' ')}   (load average ${load()})\n`);
  const out = await run(process.execPath, argv);
  process.stdout.write(out);
  const cold = /cold, fresh process .*?: median ([\d.]+) ms/.exec(out);
  const warm = /warm \(1000 runs.*?\): median ([\d.]+) ms, p99 ([\d.]+) ms/.exec(out);
  rows.push({
    budget: 'retrace, 60 frames on a 20 MB mapping, cold',
    target: '< 1000 ms',
    workers: cold ? `${cold[1]} ms` : '?',
    inline: 'same work, on the main thread',
    command: 'npx tsx bench/retrace.ts',
  });
  rows.push({
    budget: 'retrace warm (median / p99)',
    target: '< 5 ms',
    workers: warm ? `${warm[1]} / ${warm[2]} ms` : '?',
    inline: 'same work, on the main thread',
    command: 'npx tsx bench/retrace.ts',
  });
}

async function callBudget(): Promise<void> {
  const figures = async (env: Record<string, string>): Promise<[string, string]> => {
    const argv = ['--import', 'tsx', 'bench/host.ts'];
    process.stderr.write(
      `\n$ ${Object.entries(env)
        .map(([k, v]) => `${k}=${v} `)
        .join('')}node ${argv.join(' ')}   (load average ${load()})\n`,
    );
    const out = await run(process.execPath, argv, env);
    process.stdout.write(out);
    const m = /standalone (-?\d+) µs \(target < 1000\), attached (-?\d+) µs/.exec(out);
    return m ? [`${m[1]} µs`, `${m[2]} µs`] : ['?', '?'];
  };
  const workers = await figures({ BENCH_N: '1000' });
  const inline = await figures({ BENCH_N: '1000', DROIDBUS_INLINE: '1' });
  rows.push({
    budget: 'cheap tool call (get_project_info), median added over the bare MCP SDK, stdio',
    target: '< 1000 µs',
    workers: workers[0],
    inline: inline[0],
    command: 'BENCH_N=1000 [DROIDBUS_INLINE=1] npx tsx bench/host.ts',
  });
  rows.push({
    budget: 'the same, attached to a host',
    target: '< 2000 µs',
    workers: workers[1],
    inline: inline[1],
    command: 'BENCH_N=1000 [DROIDBUS_INLINE=1] npx tsx bench/host.ts',
  });
}

async function hostBudget(): Promise<void> {
  const r = await loadtest([
    '--sim',
    '--devices',
    '64',
    '--sessions',
    '4',
    '--attached',
    '--duration',
    String(DURATION),
  ]);
  const rss = (j: LoadtestJson): string =>
    `${j.peak_rss_mb.host?.toFixed(0) ?? '?'} MB (host loop p99 ${ms(j.event_loop_delay_p99_ms.host)})`;
  rows.push({
    budget: 'host with 64 sim devices, 4 attached sessions: peak RSS',
    target: '< 1024 MB',
    workers: rss(r.workers),
    inline: rss(r.inline),
    command: r.command,
  });
}

const scenarios: [string, () => Promise<void>][] = [
  ['loop', loopBudget],
  ['parallel', parallelBudget],
  ['logcat', logcatBudget],
  ['retrace', retraceBudget],
  ['call', callBudget],
  ['host', hostBudget],
];
for (const [name, scenario] of scenarios) {
  if (!wanted(name)) {
    continue;
  }
  try {
    await scenario();
  } catch (err) {
    rows.push({
      budget: name,
      target: '',
      workers: `failed: ${(err as Error).message}`,
      inline: '',
      command: '',
    });
  }
}

printTable(
  `bench/budgets (${os.availableParallelism()} CPUs, node ${process.version}, load average now ${load()})`,
  rows.map(({ command: _command, ...r }) => ({ ...r })),
);
process.stdout.write('\ncommands:\n');
for (const command of [...new Set(rows.map((r) => r.command).filter((c) => c !== ''))]) {
  process.stdout.write(`  ${command}\n`);
}
