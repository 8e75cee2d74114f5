/**
 * bench/build: how fast the Gradle output parser turns console lines into diagnostics.
 * Run: `npx tsx bench/build.ts`. Prints figures; never fails on timing.
 *
 * Workloads, each parsed as separate builds (one parser per build, as the build actor does):
 *  - failures: every recorded real Gradle output under tests/fixtures/gradle concatenated (one "build"),
 *  - quiet:   a successful build's task lines (the common case while a build streams),
 *  - noisy:   long Kotlin warning lists (a diagnostic on almost every line).
 * Also: reading the real project fixtures (inspectProject) and the task policy check.
 *
 * Then what the build actor buys: the MCP frontend's event-loop delay (droidbus://runtime, read
 * before and after) while the sample project's gradlew prints 5,000 (and 50,000) lines/s through a
 * real build (`npm run build` first: it drives the built CLI), side by side with the same output
 * parsed inline on this process's own thread, as a frontend without actors would. Target: p99 < 10 ms.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startEventLoopProbe } from '../src/util/event-loop.js';
import { checkGradleTask, createGradleOutputParser } from '../src/actors/build/index.js';
import { standardTaskNames } from '../src/actors/build/task-policy.js';
import { PLUGINS } from '../src/sim/index.js';
import { inspectProject, projectVariants } from '../src/project/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gradleDir = path.join(root, 'tests/fixtures/gradle');

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

function row(cells: (string | number)[], widths: number[]): string {
  return cells.map((c, i) => String(c).padEnd(widths[i] ?? 10)).join('  ');
}

interface Workload {
  name: string;
  build: string;
  builds: number;
}

const failures = readdirSync(gradleDir)
  .filter((f) => f.endsWith('.txt'))
  .sort()
  .map((f) => readFileSync(path.join(gradleDir, f), 'utf8'))
  .join('\n');
const quiet =
  readFileSync(path.join(gradleDir, 'cut-short-tasks.txt'), 'utf8') +
  'BUILD SUCCESSFUL in 41s\n25 actionable tasks: 25 executed\n';
const warningLines = readFileSync(path.join(gradleDir, 'kotlin-warnings-old-format.txt'), 'utf8')
  .split('\n')
  .filter((l) => l.startsWith('w: '));
const noisy = Array.from({ length: 400 }, (_, i) =>
  (warningLines[i % warningLines.length] as string).replace(/: \((\d+), /, `: (${i + 1}, `),
).join('\n');

const workloads: Workload[] = [
  { name: 'failures (all fixtures)', build: failures, builds: 400 },
  { name: 'quiet (task lines)', build: quiet, builds: 2000 },
  { name: 'noisy (Kotlin warnings)', build: noisy, builds: 200 },
];

const RUNS = 7;
const CHUNK = 16 * 1024;

function runOnce(w: Workload): { ms: number; lines: number; diagnostics: number } {
  let lines = 0;
  let diagnostics = 0;
  const t0 = performance.now();
  for (let b = 0; b < w.builds; b++) {
    const p = createGradleOutputParser();
    // Feed as a child process would deliver it: in chunks that split lines.
    for (let pos = 0; pos < w.build.length; pos += CHUNK) {
      diagnostics += p.pushChunk(w.build.slice(pos, pos + CHUNK)).length;
    }
    diagnostics += p.end({ exitCode: 1 }).length;
    lines += p.summary().lines;
  }
  return { ms: performance.now() - t0, lines, diagnostics };
}

process.stdout.write(
  `Gradle output parsing (${RUNS} runs each, median and worst run; chunks of ${CHUNK} bytes)\n`,
);
const widths = [26, 10, 14, 14, 16, 12];
process.stdout.write(
  row(['workload', 'lines/run', 'lines/s med', 'lines/s worst', 'diagnostics/s med', 'diag/build'], widths) +
    '\n',
);
for (const w of workloads) {
  runOnce(w); // warm up
  const samples = Array.from({ length: RUNS }, () => runOnce(w));
  const linesPerSec = samples.map((s) => s.lines / (s.ms / 1000));
  const diagPerSec = samples.map((s) => s.diagnostics / (s.ms / 1000));
  const first = samples[0] as { lines: number; diagnostics: number };
  process.stdout.write(
    row(
      [
        w.name,
        first.lines,
        Math.round(quantile(linesPerSec, 0.5)).toLocaleString('en'),
        Math.round(quantile(linesPerSec, 0)).toLocaleString('en'),
        Math.round(quantile(diagPerSec, 0.5)).toLocaleString('en'),
        (first.diagnostics / w.builds).toFixed(1),
      ],
      widths,
    ) + '\n',
  );
}

// Reading real projects without Gradle.
const projects = [
  'nowinandroid',
  'sunflower-kts',
  'sunflower-groovy',
  'antennapod',
  'same-app-kts',
  'same-app-groovy',
];
const times: number[] = [];
for (let i = 0; i < 20; i++) {
  for (const name of projects) {
    const t0 = performance.now();
    const p = await inspectProject(path.join(root, 'tests/fixtures/projects', name));
    projectVariants(p);
    times.push(performance.now() - t0);
  }
}
process.stdout.write(
  `\ninspectProject + variants over ${projects.length} real project fixtures: median ${quantile(times, 0.5).toFixed(2)} ms, p99 ${quantile(times, 0.99).toFixed(2)} ms\n`,
);

const tasks = [
  'assembleDebug',
  ':app:assembleDemoDebug',
  'pRB',
  'connectedAndroidTest',
  'publishToMavenLocal',
  'aPSR',
  ':feature:x:testDebugUnitTest',
];
// A project's list as `tasks --all` gives it: AGP's tasks of four variants and every plugin's.
const variants = ['debug', 'release', 'demoDebug', 'demoRelease'];
const appTasks = new Set([
  ...standardTaskNames(variants),
  ...PLUGINS.flatMap((p) => p.tasks(variants, ['debug', 'release']).map((t) => t.name)),
]);
const projectList = new Map([
  [':', new Set(['tasks', 'help'])],
  [':app', appTasks],
  [':feature:x', new Set(['testDebugUnitTest'])],
]);
const N = 20_000;
const t0 = performance.now();
let refused = 0;
for (let i = 0; i < N; i++) {
  if (!checkGradleTask(tasks[i % tasks.length], { allowUnrestricted: false, tasks: projectList }).ok) {
    refused++;
  }
}
const ms = performance.now() - t0;
process.stdout.write(
  `checkGradleTask over ${appTasks.size} tasks: ${Math.round(N / (ms / 1000)).toLocaleString('en')} checks/s (${refused} of ${N} refused)\n`,
);

// --- The frontend's event loop while a build floods its output ---------------------------------

const CLI = path.join(root, 'dist', 'cli.js');
const BUILD_MS = Number(process.env['BENCH_BUILD_MS'] ?? 10_000);

interface LoopFigures {
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

function cli(args: string[], home: string): void {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, DROIDBUS_HOME: home } });
  if (r.status !== 0) {
    throw new Error(`droidbus ${args.join(' ')} failed: ${r.stderr.toString()}`);
  }
}

/** CPU ms a thread has used (Linux: /proc/<pid>/task/<tid>/stat, 100 ticks/s); null elsewhere. */
function threadCpuMs(pid: number, tid = pid): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Through droidbus: the build actor parses; the frontend only relays. */
async function throughActor(
  project: string,
  home: string,
  rate: number,
): Promise<{
  before: LoopFigures;
  after: LoopFigures;
  calls: number[];
  lines: number;
  cpuMs: number | null;
}> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--project', project],
    env: {
      ...(process.env as Record<string, string>),
      DROIDBUS_HOME: home,
      SIM_GRADLE_LINES_PER_SEC: String(rate),
      SIM_GRADLE_DURATION_MS: String(BUILD_MS),
    },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-build', version: '1' });
  await client.connect(transport);
  const stats = async (): Promise<{ pid: number; event_loop: LoopFigures }> =>
    JSON.parse(
      ((await client.readResource({ uri: 'droidbus://runtime' })).contents[0] as { text: string }).text,
    ) as { pid: number; event_loop: LoopFigures };
  const runtime = async (): Promise<LoopFigures> => (await stats()).event_loop;
  const { pid } = await stats();
  await client.callTool({ name: 'get_build_status', arguments: {} }); // starts the build actor
  await new Promise((r) => setTimeout(r, 1000));
  const before = await runtime();
  const cpuBefore = threadCpuMs(pid);
  let done = false;
  const build = client
    .callTool({ name: 'run_gradle_task', arguments: { task: 'assembleDemoDebug' } }, undefined, {
      timeout: BUILD_MS + 60_000,
    })
    .finally(() => {
      done = true;
    });
  const calls: number[] = [];
  while (!done) {
    const t0 = performance.now();
    await client.callTool({ name: 'get_build_status', arguments: {} });
    calls.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 100));
  }
  await build;
  const cpuAfter = threadCpuMs(pid);
  const after = await runtime();
  const log = await client.callTool({ name: 'get_build_log', arguments: { lines: 1 } });
  await client.close();
  return {
    before,
    after,
    calls,
    lines: (log.structuredContent as { total_lines: number }).total_lines,
    cpuMs: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null,
  };
}

/** Without actors: the same gradlew output parsed on this thread as it arrives. */
async function inline(
  project: string,
  rate: number,
): Promise<{ loop: LoopFigures; lines: number; cpuMs: number | null }> {
  const probe = startEventLoopProbe();
  const cpuBefore = threadCpuMs(process.pid);
  const parser = createGradleOutputParser();
  const child = spawn(path.join(project, 'gradlew'), ['--console=plain', 'assembleDemoDebug'], {
    cwd: project,
    env: { ...process.env, SIM_GRADLE_LINES_PER_SEC: String(rate), SIM_GRADLE_DURATION_MS: String(BUILD_MS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.setEncoding('utf8').on('data', (c: string) => parser.pushChunk(c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => parser.pushChunk(c));
  await new Promise((r) => child.on('close', r));
  parser.end({ exitCode: 0 });
  const loop = probe.read();
  probe.stop();
  const cpuAfter = threadCpuMs(process.pid);
  return {
    loop,
    lines: parser.summary().lines,
    cpuMs: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null,
  };
}

const home = mkdtempSync(path.join(os.tmpdir(), 'droidbus-bench-build-'));
try {
  const project = path.join(home, 'sample');
  cli(['sim', '--sample-project', project], home);
  cli(['trust', project], home);
  // The machine's own noise (other processes share its cores): this thread's delay doing nothing.
  const idle = startEventLoopProbe();
  await new Promise((r) => setTimeout(r, BUILD_MS / 2));
  const baseline = idle.read();
  idle.stop();
  const rows: string[][] = [
    ['idle baseline (this process)', '0', '0', String(baseline.p99_ms), String(baseline.max_ms), '—', '—'],
  ];
  for (const rate of [5_000, 50_000]) {
    const a = await throughActor(project, home, rate);
    const b = await inline(project, rate);
    const q = (xs: number[], p: number): string => quantile(xs, p).toFixed(2);
    rows.push([
      'build actor (droidbus mcp)',
      rate.toLocaleString('en'),
      a.lines.toLocaleString('en'),
      `${a.before.p99_ms} → ${a.after.p99_ms}`,
      String(a.after.max_ms),
      a.cpuMs === null ? '?' : String(a.cpuMs),
      `${q(a.calls, 0.5)} / ${q(a.calls, 0.99)}`,
    ]);
    rows.push([
      'inline on the frontend thread',
      rate.toLocaleString('en'),
      b.lines.toLocaleString('en'),
      String(b.loop.p99_ms),
      String(b.loop.max_ms),
      b.cpuMs === null ? '?' : String(b.cpuMs),
      '—',
    ]);
  }
  const w = [30, 8, 9, 28, 11, 22, 26];
  process.stdout.write(
    `\nMCP frontend event-loop delay while a ${BUILD_MS / 1000} s build floods its output (target p99 < 10 ms)\n` +
      row(
        [
          'where the output is parsed',
          'lines/s',
          'lines',
          'loop p99 ms (before → after)',
          'loop max ms',
          'main-thread CPU ms',
          'get_build_status med / p99 ms',
        ],
        w,
      ) +
      '\n' +
      rows.map((r) => row(r, w)).join('\n') +
      '\n',
  );
} finally {
  rmSync(home, { recursive: true, force: true });
}
