/**
 * Retrace benchmark: a 60-frame trace against a generated 20 MB mapping, cold (read + hash + index
 * + first retrace, in a fresh process each time) and warm (median and p99 of many runs on a built
 * index), side by side with ProGuard's ReTrace from Debian (a JVM per call, as the reference's SDK
 * `retrace` is used). Then R8's own retrace test suite (tests/fixtures/retrace/r8): how many of its
 * cases each tool prints exactly as R8 expects. Prints figures; never fails on timing.
 *
 *   npx tsx bench/retrace.ts
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  buildMappingIndex,
  deserializeIndex,
  loadMappingIndex,
  retraceTrace,
  serializeIndex,
} from '../src/actors/retrace/index.js';
import { generateMapping, generateTrace } from '../tests/helpers/mapping-generator.js';

const RETRACE_JAR_CANDIDATES = ['/usr/share/java/retrace.jar', '/usr/share/java/proguard-retrace.jar'];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

function ms(n: number): string {
  return n < 10 ? n.toFixed(3) : n.toFixed(1);
}

/** The child: one cold run in a fresh process, printed as JSON. */
async function coldChild(mappingPath: string, tracePath: string): Promise<void> {
  const trace = await readFile(tracePath, 'utf8');
  const t0 = performance.now();
  const index = await loadMappingIndex(mappingPath);
  const t1 = performance.now();
  const result = retraceTrace(index, trace);
  const t2 = performance.now();
  process.stdout.write(
    JSON.stringify({ index: t1 - t0, firstRetrace: t2 - t1, total: t2 - t0, lines: result.text.length }),
  );
}

/** The child: warm runs on one index in a clean process (as in a pool worker), printed as JSON. */
async function warmChild(mappingPath: string, tracePath: string, expectedPath: string): Promise<void> {
  const trace = await readFile(tracePath, 'utf8');
  const index = await loadMappingIndex(mappingPath);
  const correct = retraceTrace(index, trace).text === (await readFile(expectedPath, 'utf8'));
  for (let i = 0; i < 300; i++) {
    retraceTrace(index, trace);
  }
  const warm: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const s = performance.now();
    retraceTrace(index, trace);
    warm.push(performance.now() - s);
  }
  warm.sort((a, b) => a - b);
  process.stdout.write(
    JSON.stringify({
      correct,
      median: percentile(warm, 50),
      p99: percentile(warm, 99),
      max: warm[warm.length - 1],
    }),
  );
}

function runChild<T>(mode: string, ...args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), mode, ...args],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`${mode} exited ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'droidbus-bench-retrace-'));
  try {
    const t = performance.now();
    const mapping = generateMapping(20 * 1024 * 1024);
    const { trace, expected } = generateTrace(mapping, 60);
    const mappingPath = join(dir, 'mapping.txt');
    const proguardPath = join(dir, 'mapping-proguard.txt');
    const tracePath = join(dir, 'trace.txt');
    const expectedPath = join(dir, 'expected.txt');
    await writeFile(expectedPath, expected);
    await writeFile(mappingPath, mapping.text);
    await writeFile(proguardPath, mapping.proguardText);
    await writeFile(tracePath, trace);
    console.log(
      `input: ${(Buffer.byteLength(mapping.text) / 1024 / 1024).toFixed(1)} MiB mapping, ${mapping.classes.length} classes, ` +
        `60-frame trace (generated in ${ms(performance.now() - t)} ms)`,
    );

    // Cold: a fresh process each time, timing read + sha256 + index + first retrace inside it.
    const cold: { index: number; firstRetrace: number; total: number }[] = [];
    for (let i = 0; i < 5; i++) {
      cold.push(
        await runChild<{ index: number; firstRetrace: number; total: number }>(
          '--cold-child',
          mappingPath,
          tracePath,
        ),
      );
    }
    const coldTotal = cold.map((c) => c.total).sort((a, b) => a - b);
    const coldIndex = cold.map((c) => c.index).sort((a, b) => a - b);
    const coldFirst = cold.map((c) => c.firstRetrace).sort((a, b) => a - b);

    // Warm: one index, many retraces, in a clean process like a pool worker (this process still
    // holds the generator's data, whose heap would slow every scavenge).
    const warmRun = await runChild<{ correct: boolean; median: number; p99: number; max: number }>(
      '--warm-child',
      mappingPath,
      tracePath,
      expectedPath,
    );
    const index = await loadMappingIndex(mappingPath);
    const correct = retraceTrace(index, trace).text === expected && warmRun.correct;

    // On-disk cache: loading the class table instead of scanning (both still read and hash the file).
    const bytes = await readFile(mappingPath);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const text = bytes.toString('utf8');
    const serialized = serializeIndex(index);
    const scanTimes: number[] = [];
    const loadTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      let s = performance.now();
      buildMappingIndex(text, sha, bytes.length);
      scanTimes.push(performance.now() - s);
      s = performance.now();
      deserializeIndex(serialized, text, sha);
      loadTimes.push(performance.now() - s);
    }
    scanTimes.sort((a, b) => a - b);
    loadTimes.sort((a, b) => a - b);

    // ProGuard ReTrace (JVM), on the same mapping without R8's # {…} metadata and the same trace.
    const jar = RETRACE_JAR_CANDIDATES.find((p) => existsSync(p));
    const jvm: number[] = [];
    let jvmSame: boolean | null = null;
    if (jar !== undefined) {
      for (let i = 0; i < 3; i++) {
        const s = performance.now();
        const r = spawnSync('java', ['-jar', jar, proguardPath, tracePath], {
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        });
        jvm.push(performance.now() - s);
        if (r.status !== 0) {
          console.log(`ProGuard ReTrace failed: ${r.stderr}`);
          break;
        }
        jvmSame = r.stdout === expected;
      }
      jvm.sort((a, b) => a - b);
    }

    console.log('');
    console.log('retrace (droidbus, TypeScript)');
    console.log(`  correct output on the 60-frame trace: ${correct}`);
    console.log(
      `  cold, fresh process (read + sha256 + index + first retrace): median ${ms(percentile(coldTotal, 50))} ms, max ${ms(coldTotal[coldTotal.length - 1] as number)} ms  [target < 1000 ms]`,
    );
    console.log(
      `    of which read + sha256 + index: median ${ms(percentile(coldIndex, 50))} ms; first retrace (parses the touched classes): median ${ms(percentile(coldFirst, 50))} ms`,
    );
    console.log(
      `  warm (1000 runs in a clean process, as in a pool worker): median ${ms(warmRun.median)} ms, p99 ${ms(warmRun.p99)} ms, max ${ms(warmRun.max)} ms  [target < 5 ms]`,
    );
    console.log(
      `  index from the on-disk cache vs scan (text already read): ${ms(percentile(loadTimes, 50))} ms vs ${ms(percentile(scanTimes, 50))} ms`,
    );
    if (jar === undefined) {
      console.log('ProGuard ReTrace: not installed (apt-get install proguard-cli)');
    } else if (jvm.length > 0) {
      const jvmMedian = percentile(jvm, 50);
      console.log(`ProGuard ReTrace 6 (java -jar ${jar}), a JVM per call`);
      console.log(
        `  per call: median ${ms(jvmMedian)} ms (${jvm.length} runs); output identical to ours: ${jvmSame}`,
      );
      console.log('');
      console.log(
        `ratio, JVM call / droidbus warm median: ${(jvmMedian / warmRun.median).toFixed(0)}x  [target >= 100x]`,
      );
      console.log(`ratio, JVM call / droidbus warm p99:    ${(jvmMedian / warmRun.p99).toFixed(0)}x`);
      console.log(
        `ratio, JVM call / droidbus cold:        ${(jvmMedian / percentile(coldTotal, 50)).toFixed(1)}x`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  suiteFigures(RETRACE_JAR_CANDIDATES.find((p) => existsSync(p)));
}

/** R8's retrace suite: the cases droidbus (default and --verbose) and ProGuard ReTrace print as R8 expects. */
function suiteFigures(jar: string | undefined): void {
  const suite = fileURLToPath(new URL('../tests/fixtures/retrace/r8', import.meta.url));
  const cases = readdirSync(suite);
  let ours = 0;
  let oursVerbose = 0;
  let proguard = 0;
  for (const name of cases) {
    const file = (f: string): string => join(suite, name, f);
    const index = buildMappingIndex(readFileSync(file('mapping.txt')));
    const trace = readFileSync(file('trace.txt'), 'utf8');
    const expected = readFileSync(file('expected.txt'), 'utf8');
    ours += retraceTrace(index, trace).text === expected ? 1 : 0;
    oursVerbose +=
      retraceTrace(index, trace, { verbose: true }).text ===
      readFileSync(file('expected-verbose.txt'), 'utf8')
        ? 1
        : 0;
    if (jar !== undefined) {
      const r = spawnSync('java', ['-jar', jar, file('mapping.txt'), file('trace.txt')], {
        encoding: 'utf8',
      });
      proguard += r.status === 0 && r.stdout === expected ? 1 : 0;
    }
  }
  console.log('');
  console.log(`R8's retrace test suite (${cases.length} cases), output identical to R8's expected output:`);
  console.log(`  droidbus: ${ours}/${cases.length} default, ${oursVerbose}/${cases.length} --verbose`);
  console.log(
    `  ProGuard ReTrace: ${jar === undefined ? 'not installed' : `${proguard}/${cases.length} default`}`,
  );
}

if (process.argv[2] === '--cold-child') {
  await coldChild(process.argv[3] as string, process.argv[4] as string);
} else if (process.argv[2] === '--warm-child') {
  await warmChild(process.argv[3] as string, process.argv[4] as string, process.argv[5] as string);
} else {
  await main();
}
