/**
 * Logcat core throughput: threadtime lines parsed, enriched and crash-checked per second in one
 * thread (target ≥ 1,000,000/s), the same with the store, and entry-query times on a full store.
 * Then the MCP frontend's event-loop delay p99 while 16 sim devices stream 2,000 lines/s each
 * (target < 10 ms), beside the same parsing done on the frontend's own thread (bench/lib/
 * logcat-frontend.ts; needs `npm run build`).
 * Run: npx tsx bench/logcat.ts [lines] [--seconds 15] [--devices 16] [--rate 2000] [--no-frontend]
 * Prints medians of several runs; never fails on timing.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import {
  CrashDetector,
  CrashGroups,
  LogcatParser,
  LogcatPipeline,
  LogEnricher,
  LogStore,
  PidMap,
  queryLogs,
  type DetectedCrash,
  type LogEntry,
} from '../src/actors/logcat/index.js';
import { RE2JS } from 're2js';
import { userRegex } from '../src/actors/logcat/user-regex.js';
import { REGEX_BUDGET_NS } from '../src/actors/logcat/log-query.js';
import { JOURNAL_CAP_BYTES, LogJournal } from '../src/actors/logcat/log-journal.js';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { frontendLoopDelay } from './lib/logcat-frontend.js';

const args = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: 'string', default: '15' },
    devices: { type: 'string', default: '16' },
    rate: { type: 'string', default: '2000' },
    'no-frontend': { type: 'boolean', default: false },
  },
});
const LINES = Number(args.positionals[0] ?? 400_000);
const RUNS = 5;
const CHUNK = 64 * 1024;

/** A small deterministic PRNG so every run sees the same input. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const TAGS: [string, string, number][] = [
  // tag, level, weight
  ['ActivityManager', 'I', 4],
  ['ActivityTaskManager', 'I', 2],
  ['chatty', 'I', 3],
  ['OpenGLRenderer', 'D', 6],
  ['EGL_emulation', 'D', 6],
  ['Choreographer', 'I', 1],
  ['NetworkSecurityConfig', 'D', 1],
  ['OkHttp', 'D', 4],
  ['WifiHAL', 'D', 3],
  ['BufferQueueProducer', 'I', 5],
  ['SurfaceFlinger', 'D', 4],
  ['CompatibilityChangeReporter', 'D', 3],
  ['PackageManager', 'W', 1],
  ['InputReader', 'I', 2],
  ['AppOps', 'W', 1],
  ['MainViewModel', 'D', 5],
  ['Repository', 'I', 4],
  ['ApiClient', 'D', 3],
  ['ziparchive', 'W', 1],
  ['libc', 'W', 1],
  ['vold', 'V', 2],
  ['Finsky', 'I', 2],
  ['GmsClient', 'E', 1],
  ['System.err', 'W', 1],
];
const PROCS = [
  [1490, 'system_server'],
  [803, 'surfaceflinger'],
  [4021, 'com.example.app'],
  [4188, 'com.example.app:sync'],
  [2351, 'com.android.systemui'],
  [3278, 'com.google.android.gms'],
  [14188, 'com.android.vending'],
  [965, 'netd'],
] as const;
const WORDS =
  'the of request failed loaded view state cache network response user session token frame buffer queue render layout item list data sync job worker thread main pool connection timeout retry'.split(
    ' ',
  );

function pad(n: number, w: number): string {
  return String(n).padStart(w, ' ');
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

function javaCrash(time: string, pid: number, n: number): string[] {
  const h = `${time} ${pad(pid, 5)} ${pad(pid, 5)} E AndroidRuntime: `;
  const lines = [
    'FATAL EXCEPTION: main',
    `Process: com.example.app, PID: ${pid}`,
    'java.lang.RuntimeException: Unable to start activity ComponentInfo{com.example.app/com.example.app.MainActivity}: java.lang.IllegalStateException: boom',
  ];
  for (let i = 0; i < 12; i++) {
    lines.push(`\tat android.app.ActivityThread.performLaunchActivity(ActivityThread.java:${3000 + i})`);
  }
  lines.push(`Caused by: java.lang.IllegalStateException: boom ${n}`);
  lines.push(`\tat com.example.app.MainViewModel.load(MainViewModel.kt:${42 + (n % 3)})`);
  lines.push('\tat com.example.app.MainActivity.onCreate(MainActivity.kt:17)');
  lines.push('\t... 12 more');
  return lines.map((l) => h + l);
}

function nativeCrash(time: string, pid: number): string[] {
  const dumper = pid + 7;
  const d = `${time} ${pad(dumper, 5)} ${pad(dumper, 5)} F DEBUG   : `;
  const out = [
    `${time} ${pad(pid, 5)} ${pad(pid, 5)} F libc    : Fatal signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0 in tid ${pid} (com.example.app), pid ${pid} (com.example.app)`,
  ];
  const body = [
    '*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***',
    "Build fingerprint: 'google/sdk_gphone64_x86_64/emu64xa:14/UE1A.230829.036/10920453:userdebug/dev-keys'",
    "ABI: 'x86_64'",
    `pid: ${pid}, tid: ${pid}, name: com.example.app  >>> com.example.app <<<`,
    'signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0',
    'Cause: null pointer dereference',
    'backtrace:',
    '      #00 pc 000000000001a2b4  /data/app/~~x==/com.example.app-y==/lib/x86_64/libnative.so (Java_com_example_app_Native_crash+20) (BuildId: 1234)',
    '      #01 pc 00000000002d4a6b  /apex/com.android.art/lib64/libart.so (art_quick_generic_jni_trampoline+219)',
  ];
  return out.concat(body.map((l) => d + l));
}

function anr(time: string): string[] {
  const h = `${time}  1490  1512 E ActivityManager: `;
  return [
    'ANR in com.example.app (com.example.app/.MainActivity)',
    'PID: 4021',
    'Reason: Input dispatching timed out (4b1c9e2 com.example.app/com.example.app.MainActivity (server) is not responding. Waited 5001ms for MotionEvent)',
    'Load: 4.1 / 3.2 / 2.9',
    'CPU usage from 0ms to 6123ms later:',
  ].map((l) => h + l);
}

function generate(lines: number): { text: string; crashes: number } {
  const r = rng(42);
  const total = TAGS.reduce((a, t) => a + t[2], 0);
  const out: string[] = [];
  let crashes = 0;
  let t = 0;
  while (out.length < lines) {
    t += Math.floor(r() * 3);
    const ms = t % 1000;
    const s = Math.floor(t / 1000);
    const time = `03-15 ${two(10 + (Math.floor(s / 3600) % 14))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}.${String(ms).padStart(3, '0')}`;
    // A few crashes per 100k lines.
    const roll = r();
    if (roll < 0.00002) {
      out.push(...javaCrash(time, 4021, crashes));
      crashes++;
      continue;
    }
    if (roll < 0.00003) {
      out.push(...nativeCrash(time, 4188));
      crashes++;
      continue;
    }
    if (roll < 0.000035) {
      out.push(...anr(time));
      crashes++;
      continue;
    }
    let w = r() * total;
    let tag = TAGS[0] as [string, string, number];
    for (const x of TAGS) {
      w -= x[2];
      if (w <= 0) {
        tag = x;
        break;
      }
    }
    const [pid, pname] = PROCS[Math.floor(r() * PROCS.length)] as readonly [number, string];
    const tid = pid + Math.floor(r() * 20);
    let msg: string;
    const k = r();
    if (tag[0] === 'ActivityManager' && k < 0.1) {
      msg = `Start proc ${pid}:${pname}/u0a123 for activity {com.example.app/com.example.app.MainActivity}`;
    } else if (tag[0] === 'ActivityTaskManager' && k < 0.1) {
      msg = `Displayed com.example.app/.MainActivity for user 0: +${Math.floor(r() * 900)}ms`;
    } else if (k < 0.01) {
      msg = `response {"id":${Math.floor(r() * 1000)},"ok":true,"items":[1,2,3],"name":"item"}`;
    } else if (k < 0.03) {
      msg = `Background concurrent copying GC freed 12345(1MB) AllocSpace objects, 0(0B) LOS objects, 49% free, 5MB/10MB, paused 50us total 20.1ms`;
    } else {
      const n = 3 + Math.floor(r() * 18);
      const parts: string[] = [];
      for (let i = 0; i < n; i++) {
        parts.push(WORDS[Math.floor(r() * WORDS.length)] as string);
      }
      msg = parts.join(' ');
    }
    out.push(`${time} ${pad(pid, 5)} ${pad(tid, 5)} ${tag[1]} ${tag[0].padEnd(8)}: ${msg}`);
  }
  return { text: out.join('\n') + '\n', crashes };
}

function chunks(text: string): Buffer[] {
  const buf = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += CHUNK) {
    out.push(buf.subarray(i, Math.min(buf.length, i + CHUNK)));
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function p99(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))] ?? 0;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

const { text, crashes } = generate(LINES);
const bufs = chunks(text);
const bytes = Buffer.byteLength(text);
const lineCount = text.split('\n').length - 1;
console.log(
  `input: ${fmt(lineCount)} threadtime lines, ${(bytes / 1e6).toFixed(1)} MB, ${crashes} crashes, ${bufs.length} chunks of 64 KiB`,
);

interface Scenario {
  label: string;
  body: () => number;
  times: number[];
  found: number;
}

const scenarios: Scenario[] = [];
function scenario(label: string, body: () => number): void {
  scenarios.push({ label, body, times: [], found: 0 });
}

scenario('parse only', () => {
  const p = new LogcatParser({ device: 'emulator-5554', year: 2024 });
  const out: LogEntry[] = [];
  for (const b of bufs) {
    out.length = 0;
    p.push(b, out);
  }
  p.end(out);
  return -1;
});

scenario('parse + enrich + crash detection (target)', () => {
  const pids = new PidMap();
  const p = new LogcatParser({ device: 'emulator-5554', year: 2024 });
  const enricher = new LogEnricher({ pids });
  const detector = new CrashDetector({ device: 'emulator-5554', pids });
  const out: LogEntry[] = [];
  const found: DetectedCrash[] = [];
  for (const b of bufs) {
    out.length = 0;
    p.push(b, out);
    for (let i = 0; i < out.length; i++) {
      const e = out[i] as LogEntry;
      enricher.enrich(e);
      detector.feed(e, found);
    }
  }
  p.end(out);
  detector.flush(found);
  return found.length;
});

scenario('full pipeline (+ store of 200k, groups)', () => {
  const store = new LogStore({ maxEntries: 200_000 });
  const groups = new CrashGroups();
  const pipe = new LogcatPipeline({ device: 'emulator-5554', store, groups, parser: { year: 2024 } });
  let n = 0;
  for (const b of bufs) {
    n += pipe.push(b).crashes.length;
  }
  n += pipe.end().crashes.length;
  return n;
});

// Warm every scenario up, then run them round-robin so load from elsewhere hits all alike.
for (const s of scenarios) {
  s.body();
}
for (let i = 0; i < RUNS; i++) {
  for (const s of scenarios) {
    const t0 = performance.now();
    s.found = s.body();
    s.times.push(performance.now() - t0);
  }
}
for (const s of scenarios) {
  const ms = median(s.times);
  const best = Math.min(...s.times);
  console.log(
    `${s.label.padEnd(42)} ${fmt((lineCount / ms) * 1000).padStart(11)} lines/s  ${((bytes / 1e6 / ms) * 1000).toFixed(0).padStart(4)} MB/s` +
      `  (median ${ms.toFixed(0)} ms of ${RUNS}; best ${fmt((lineCount / best) * 1000)} lines/s${s.found >= 0 ? `; ${s.found} crashes` : ''})`,
  );
}

// Queries on a store of 100k entries.
const store = new LogStore({ maxEntries: 100_000 });
const groups = new CrashGroups();
const pipe = new LogcatPipeline({ device: 'emulator-5554', store, groups, parser: { year: 2024 } });
for (const b of bufs) {
  pipe.push(b);
}
pipe.end();
console.log(
  `\nqueries on a store of ${fmt(store.size)} entries (${(store.bytes / 1e6).toFixed(1)} MB estimated):`,
);
const now = store.at(store.size - 1)?.ts ?? Date.now();
const queries: [string, Parameters<typeof queryLogs>[1]][] = [
  ['newest 200, no filter', { count: 200 }],
  ['min_level E (count 10000)', { min_level: 'E', count: 10_000 }],
  ['tag exact, rare', { tag: 'GmsClient', count: 10_000 }],
  ['text "timeout" (count 10000)', { text: 'timeout', count: 10_000 }],
  ['only_crashes', { only_crashes: true, count: 10_000 }],
  ['query package:mine level:error', { query: 'package:mine level:error', count: 10_000 }],
  [
    'query tag:Foo -tag:Bar message:"x y" (no match)',
    { query: 'tag:Foo -tag:Bar message:"x y"', count: 10_000 },
  ],
  ['query tag~:^Open.*er$ | is:crash', { query: 'tag~:^Open.*er$ | is:crash', count: 10_000 }],
  ['query age:5m (count 10000)', { query: 'age:5m', count: 10_000 }],
];
for (const [label, params] of queries) {
  const times: number[] = [];
  let n = 0;
  for (let i = 0; i < 21; i++) {
    const t0 = performance.now();
    n = queryLogs(store, params, { mine: ['com.example.app'], now }).entries.length;
    times.push(performance.now() - t0);
  }
  console.log(
    `  ${label.padEnd(48)} median ${median(times).toFixed(2).padStart(6)} ms  p99 ${p99(times).toFixed(2).padStart(6)} ms  ${n} results`,
  );
}

// Issue 49: what one query may cost. The patterns that held the logcat thread for seconds, over
// this store: refused before RE2 runs (the time to refuse), or answered (the time to answer); and
// the costliest admitted query, a pattern whose bound sits under REGEX_BUDGET_NS.
console.log(
  `\nregex cost bound (${REGEX_BUDGET_NS / 1e6} ms = worst-case ns per byte, by instruction kind, × bytes read):`,
);
for (const query of [
  'message~:(?i).{999}.{999}Z',
  'line~:(?s)(.*a){12}$',
  `message~:${'a?'.repeat(500)}${'a'.repeat(500)}`,
  'line~:(?s)(.*a){2}',
  'message~:(?i)(time|dead)line',
  'tag:ActivityManager line~:(?s)(.*a){12}$',
]) {
  const t0 = performance.now();
  let outcome: string;
  try {
    outcome = `answered ${queryLogs(store, { query, count: 10_000 }).entries.length}`;
  } catch (err) {
    outcome = `refused (${(err as Error).message.slice(0, 70)}…)`;
  }
  console.log(
    `  ${query.slice(0, 44).padEnd(46)} ${(performance.now() - t0).toFixed(1).padStart(7)} ms  ${outcome}`,
  );
}

// Ingest with the journal (what lets the store outlive its worker) beside ingest without it.
{
  const dir = mkdtempSync(path.join(os.tmpdir(), 'droidbus-bench-journal-'));
  const rates: string[] = [];
  for (const journaled of [false, true]) {
    const s = new LogStore({ maxEntries: 100_000 });
    if (journaled) {
      s.attachJournal(new LogJournal(dir, JOURNAL_CAP_BYTES), []);
    }
    const p = new LogcatPipeline({
      device: 'emulator-5554',
      store: s,
      groups: new CrashGroups(),
      parser: { year: 2024 },
    });
    const t0 = performance.now();
    for (const b of bufs) {
      p.push(b);
      await Promise.resolve(); // the journal writes at the end of each task, as in the actor
    }
    p.end();
    const ms = performance.now() - t0;
    rates.push(
      `${journaled ? 'journaled' : 'memory only'} ${fmt(Math.round(lineCount / (ms / 1000)))} lines/s`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
  console.log(`\ningest: ${rates.join('  |  ')}`);
}

// The regular-expression engines side by side, on the store's messages: V8's backtracking RegExp
// (what droidbus used, and what `^(a|a)*$` hangs), RE2 as droidbus runs it (re2js with the literal
// prefilter), re2js alone, re2-wasm, and the native re2 binding when it is installed.
const messages: string[] = [];
for (let i = 0; i < store.size; i++) {
  messages.push(store.at(i)!.message);
}
type Engine = [string, (p: string) => ((s: string) => boolean) | null];
const optional = async (name: string): Promise<Record<string, unknown> | null> =>
  (await import(name).catch(() => null)) as Record<string, unknown> | null;
const re2wasm = (await optional('re2-wasm'))?.['RE2'] as
  (new (p: string, f: string) => { test(s: string): boolean }) | undefined;
const re2native = (await optional('re2'))?.['default'] as
  (new (p: string) => { test(s: string): boolean }) | undefined;
const engines: Engine[] = [
  [
    'V8 RegExp (backtracking)',
    (p) =>
      (
        (re) => (s: string) =>
          re.test(s)
      )(new RegExp(p)),
  ],
  ['RE2 as droidbus runs it', (p) => userRegex(p)],
  [
    're2js alone',
    (p) =>
      (
        (re) => (s: string) =>
          re.matcher(s).find()
      )(RE2JS.compile(p)),
  ],
  [
    're2-wasm',
    (p) =>
      re2wasm
        ? (
            (re) => (s: string) =>
              re.test(s)
          )(new re2wasm(p, 'u'))
        : null,
  ],
  [
    're2 (native binding)',
    (p) =>
      re2native
        ? (
            (re) => (s: string) =>
              re.test(s)
          )(new re2native(p))
        : null,
  ],
];
const patterns = [
  'time(out|d out)',
  'status=5\\d\\d',
  '^Choreographer',
  'Skipped \\d+ frames',
  '(?i)exception',
  '[0-9a-f]{8}-',
];
console.log(
  `\nregular expressions over the store's ${fmt(messages.length)} messages (M messages/s, median of 5):`,
);
console.log(`  ${'pattern'.padEnd(20)} ${engines.map(([n]) => n.padStart(26)).join('')}`);
for (const p of patterns) {
  const row: string[] = [];
  for (const [, make] of engines) {
    let test: ((s: string) => boolean) | null;
    try {
      test = make(p);
    } catch {
      row.push('cannot compile it'.padStart(26));
      continue;
    }
    if (test === null) {
      row.push('not installed'.padStart(26));
      continue;
    }
    const times: number[] = [];
    for (let r = 0; r < 5; r++) {
      const t = performance.now();
      let n = 0;
      for (const m of messages) {
        n += test(m) ? 1 : 0;
      }
      times.push(performance.now() - t);
      void n;
    }
    row.push((messages.length / median(times) / 1000).toFixed(2).padStart(26));
  }
  console.log(`  ${p.padEnd(20)} ${row.join('')}`);
}
const evilLine = 'a'.repeat(25) + '!';
const evilTimes = engines.map(([name, make]) => {
  const test = make('^(a|a)*$');
  if (test === null) {
    return `${name}: not installed`;
  }
  const t = performance.now();
  test(evilLine);
  return `${name}: ${(performance.now() - t).toFixed(1)} ms`;
});
console.log(`  ^(a|a)*$ on 25 a's and '!' (2^25 steps for a backtracking engine): ${evilTimes.join('; ')}`);

const t0 = performance.now();
const stats = store.stats(Date.now());
console.log(
  `  stats: ${(performance.now() - t0).toFixed(2)} ms (${stats.crashes.total} crashes, ${groups.size} groups, dropped ${fmt(stats.dropped)})`,
);

if (!args.values['no-frontend']) {
  const devices = Number(args.values.devices);
  const rate = Number(args.values.rate);
  console.log(
    `\nMCP frontend event-loop delay (beyond the 10 ms tick) while ${devices} sim devices stream ${fmt(rate)} lines/s each, ${args.values.seconds} s:`,
  );
  const figures = await frontendLoopDelay({ devices, rate, seconds: Number(args.values.seconds) });
  for (const f of figures ?? []) {
    console.log(
      `  ${f.label.padEnd(40)} p50 ${f.p50_ms.toFixed(2).padStart(7)} ms  p99 ${f.p99_ms.toFixed(2).padStart(7)} ms  max ${f.max_ms.toFixed(1).padStart(7)} ms  ${fmt(f.lines_per_s).padStart(7)} lines/s parsed`,
    );
  }
  const [actor, inline] = figures ?? [];
  if (actor && inline && actor.p99_ms > 0) {
    console.log(`  p99 ratio inline / actor: ${(inline.p99_ms / actor.p99_ms).toFixed(1)}×`);
  }
}
