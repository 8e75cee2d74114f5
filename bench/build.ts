/**
 * bench/build: how fast the Gradle output parser turns console lines into diagnostics.
 * Run: `npx tsx bench/build.ts`. Prints figures; never fails on timing.
 *
 * Workloads, each parsed as separate builds (one parser per build, as the build actor does):
 *  - failures: every recorded real Gradle output under tests/fixtures/gradle concatenated (one "build"),
 *  - quiet:   a successful build's task lines (the common case while a build streams),
 *  - noisy:   long Kotlin warning lists (a diagnostic on almost every line).
 * Also: reading the real project fixtures (inspectProject) and the task policy check.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkGradleTask, createGradleOutputParser } from '../src/actors/build/index.js';
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
const N = 200_000;
const t0 = performance.now();
let refused = 0;
for (let i = 0; i < N; i++) {
  if (!checkGradleTask(tasks[i % tasks.length], { allowUnrestricted: false }).ok) {
    refused++;
  }
}
const ms = performance.now() - t0;
process.stdout.write(
  `checkGradleTask: ${Math.round(N / (ms / 1000)).toLocaleString('en')} checks/s (${refused} of ${N} refused)\n`,
);
