import type { MixPart } from './options.js';
import type { ParallelFigures } from './parallel.js';
import type { RssSample } from './process-memory.js';
import type { ToolFigures } from './recorder.js';
import type { FaultReport } from './faults.js';
import { serversTable, type ServerFigures } from './server-figures.js';

/** Everything a load test measured: the JSON object `--json` prints on the last line. */
export interface LoadtestReport {
  droidbus_loadtest: 1;
  version: string;
  /** Where the actors ran: worker threads (the design) or the frontend's/host's main thread. */
  actors: 'workers' | 'inline';
  attached: boolean;
  sim: boolean;
  devices: number;
  sessions: number;
  duration_s: number;
  mix: MixPart[];
  /** What was left out and why (a mix part whose tools are not served). */
  notes: string[];
  dump_latency_ms: number | null;
  logcat_lines_per_s_per_device: number | null;
  /** Logcat lines the droidbus logcat actors received per second during the run, over every device. */
  logcat_lines_parsed_per_s: number | null;
  /** The largest logcat store of a session at the end (bounded: 200,000 lines / 64 MiB each). */
  logcat_store: { entries_max: number; mb_max: number } | null;
  build_lines_per_s: number | null;
  cpus: number;
  /** os.loadavg() when the run started and when it ended (1, 5, 15 minutes). */
  load_average: { start: number[]; end: number[] };
  /** Seconds from the first agent call to the last one's answer. */
  elapsed_s: number;
  calls: number;
  calls_per_s: number;
  tools: Record<string, ToolFigures>;
  /** Failed calls by code (see src/loadtest/error-code.ts). */
  errors: Record<string, number>;
  /** Codes the run may produce without anything being wrong (sessions sharing a device). */
  allowed_error_codes: string[];
  unexpected_errors: number;
  /**
   * Event-loop delay beyond the 10 ms tick, p99, since each process started (droidbus://runtime,
   * host.runtime); `loadtest` is this process's own during the run, a Node process that mostly
   * waits: the machine's noise floor.
   */
  event_loop_delay_p99_ms: {
    frontends: number[];
    frontend_max: number;
    host: number | null;
    loadtest: number;
  };
  event_loop_delay_max_ms: { frontend_max: number; host: number | null };
  /**
   * CPU used per wall time during the run, percent of one core (Linux; null elsewhere): the main
   * thread's share tells a busy JSON-RPC thread (its own work) from a starved one (the machine's).
   */
  cpu_pct: {
    frontends_main_thread: (number | null)[];
    frontends_process: (number | null)[];
    host_main_thread: number | null;
    host_process: number | null;
  };
  /** `uiautomator dump`s that overlapped another on the same device, summed over devices (sim only). */
  overlapping_dumps: number | null;
  dumps: number | null;
  parallel_efficiency: number;
  parallel: ParallelFigures;
  /** V8 heap in use on the main thread at the end (worker threads' heaps are not in it), MiB. */
  main_heap_mb: { frontends: (number | null)[]; host: number | null };
  peak_rss_mb: {
    host: number | null;
    frontends: (number | null)[];
    frontend_max: number | null;
    frontends_total: number | null;
    sim: number | null;
    loadtest: number;
  };
  rss_series: RssSample[];
  builds: { completed: number; failed: number } | null;
  /** Agent-loop iterations over every device. */
  iterations: number;
  /** The private adb server's port (`--sim`; killed when the run ends), null with the user's server. */
  adb_port: number | null;
  /** `--faults`: each injected fault, what failed while it lasted, its recovery and the logcat lines lost. */
  faults: FaultReport[] | null;
  /**
   * `--faults`: failed calls no fault explains (not in flight when one struck, not started before it
   * recovered), the first 20: none expected. Counted in unexpected_errors.
   */
  unexplained_failures:
    { tool: string; serial: string | null; at_s: number; code: string; text: string }[] | null;
  /** `--adb-servers`: each private adb server's devices' calls, counted apart. */
  adb_servers: ServerFigures[] | null;
  /** Present with --compare: the same run with the actors inline. */
  inline?: LoadtestReport;
}

const fmt = (n: number | null | undefined, digits = 1): string =>
  n === null || n === undefined || Number.isNaN(n) ? '—' : n.toFixed(digits);

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const pct = (n: number | null): string => (n === null ? '—' : `${n.toFixed(1)} %`);

function maxOf(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : Math.max(...known);
}

function errorsText(r: LoadtestReport): string {
  const entries = Object.entries(r.errors);
  return entries.length === 0 ? 'none' : entries.map(([code, n]) => `${code} ${n}`).join(', ');
}

/** The headline figures of one or two runs, with the budget each is held to. */
function summaryRows(runs: LoadtestReport[]): string[][] {
  const row = (label: string, target: string, cell: (r: LoadtestReport) => string): string[] => [
    label,
    target,
    ...runs.map(cell),
  ];
  return [
    row('calls/s', '', (r) => fmt(r.calls_per_s)),
    row('calls (failed)', '', (r) => `${r.calls} (${Object.values(r.errors).reduce((a, n) => a + n, 0)})`),
    row(
      'frontend loop delay p99, worst frontend',
      '< 10 ms',
      (r) => `${fmt(r.event_loop_delay_p99_ms.frontend_max, 2)} ms`,
    ),
    row(
      'frontend loop delay max, worst frontend',
      '',
      (r) => `${fmt(r.event_loop_delay_max_ms.frontend_max, 1)} ms`,
    ),
    row(
      'noise floor: load test process loop delay p99',
      '',
      (r) => `${fmt(r.event_loop_delay_p99_ms.loadtest, 2)} ms`,
    ),
    row('frontend main-thread CPU, busiest', '', (r) => pct(maxOf(r.cpu_pct.frontends_main_thread))),
    row('frontend process CPU, busiest', '', (r) => pct(maxOf(r.cpu_pct.frontends_process))),
    row('host main-thread / process CPU', '', (r) =>
      r.attached ? `${pct(r.cpu_pct.host_main_thread)} / ${pct(r.cpu_pct.host_process)}` : '—',
    ),
    row('host loop delay p99', '', (r) =>
      r.attached ? `${fmt(r.event_loop_delay_p99_ms.host, 2)} ms` : '—',
    ),
    row('overlapping dumps', '0', (r) =>
      r.overlapping_dumps === null ? '— (real devices)' : `${r.overlapping_dumps} of ${r.dumps} dumps`,
    ),
    row(
      `parallel efficiency`,
      '≥ 0.9',
      (r) =>
        `${fmt(r.parallel_efficiency, 2)} (${r.parallel.one_ms}→${r.parallel.all_ms} ms, ${r.parallel.devices} dev)`,
    ),
    row('peak RSS host', '< 1024 MB', (r) => (r.attached ? `${fmt(r.peak_rss_mb.host)} MB` : '—')),
    row(
      'peak RSS frontend (max / total)',
      '',
      (r) => `${fmt(r.peak_rss_mb.frontend_max)} / ${fmt(r.peak_rss_mb.frontends_total)} MB`,
    ),
    row('peak RSS sim', '', (r) => `${fmt(r.peak_rss_mb.sim)} MB`),
    row('logcat lines parsed/s (all devices)', '', (r) => fmt(r.logcat_lines_parsed_per_s, 0)),
    row('logcat store at the end, largest', '', (r) =>
      r.logcat_store ? `${r.logcat_store.entries_max} lines, ${fmt(r.logcat_store.mb_max)} MB` : '—',
    ),
    row('builds (failed)', '', (r) => (r.builds ? `${r.builds.completed} (${r.builds.failed})` : '—')),
    row('errors by code', '', errorsText),
    row('unexpected errors', '0', (r) => String(r.unexpected_errors)),
    row(
      'load average start → end',
      '',
      (r) =>
        `${r.load_average.start.map((l) => l.toFixed(2)).join('/')} → ${r.load_average.end.map((l) => l.toFixed(2)).join('/')}`,
    ),
  ];
}

/** At most `n` points of the series, evenly spaced, first and last included. */
function thin<T>(series: T[], n: number): T[] {
  if (series.length <= n) {
    return series;
  }
  const out: T[] = [];
  for (let i = 0; i < n; i++) {
    out.push(series[Math.round((i * (series.length - 1)) / (n - 1))]!);
  }
  return out;
}

/** One row per injected fault. */
function faultsTable(faults: FaultReport[]): string {
  return table(
    [
      'fault',
      'target',
      'at s',
      'down ms',
      'recovered in ms',
      'in flight (failed)',
      'failed before recovery',
      'failed by code',
      'logcat lines: device / lost / twice',
      'store: before / after / lost',
    ],
    faults.map((f) => [
      f.fault,
      f.target,
      fmt(f.at_s),
      String(f.down_ms),
      f.recovered ? String(f.recovery_ms) : 'NOT RECOVERED',
      `${f.in_flight} (${f.failed_in_flight})`,
      String(f.failed_during),
      Object.entries(f.failed_by_code)
        .map(([code, n]) => `${code} ${n}`)
        .join(', ') || 'none',
      f.logcat ? `${f.logcat.device_lines} / ${f.logcat.lost} / ${f.logcat.read_twice}` : '—',
      f.logcat ? `${f.logcat.store_before} / ${f.logcat.store_after} / ${f.logcat.store_lost}` : '—',
    ]),
  );
}

/** The readable report: headline figures (side by side with --compare), per-tool latency, memory over time. */
export function renderReport(report: LoadtestReport): string {
  const runs = report.inline ? [report, report.inline] : [report];
  const modeName = (r: LoadtestReport): string => (r.actors === 'workers' ? 'worker threads' : 'inline');
  const where = report.attached ? 'attached to one droidbus host' : 'standalone';
  const out: string[] = [];
  out.push(
    `droidbus loadtest: ${report.devices} ${report.sim ? 'simulated' : 'real'} device(s), ${report.sessions} session(s) ${where}, ${report.duration_s} s, mix ${report.mix.join(',')}`,
  );
  if (report.sim) {
    out.push(
      `sim: uiautomator dump ${report.dump_latency_ms} ms, logcat ${report.logcat_lines_per_s_per_device} lines/s per device` +
        (report.build_lines_per_s !== null ? `; Gradle prints ${report.build_lines_per_s} lines/s` : ''),
    );
  }
  for (const note of report.notes) {
    out.push(`note: ${note}`);
  }
  out.push('');
  out.push(table(['figure', 'budget', ...runs.map(modeName)], summaryRows(runs)));
  out.push('');
  if (report.adb_servers) {
    out.push(...serversTable(report.adb_servers), '');
  }
  if (report.faults) {
    out.push('faults (calls counted are the affected devices’; recovery runs from the undoing):');
    out.push(faultsTable(report.faults));
    for (const f of report.faults) {
      const said = Object.entries(f.failed_examples).map(([code, text]) => `${code}: ${text.slice(0, 160)}`);
      for (const line of [...(f.note !== null ? [f.note] : []), ...said]) {
        out.push(`  ${f.fault} ${f.target}: ${line}`);
      }
    }
    const unexplained = report.unexplained_failures ?? [];
    out.push(
      unexplained.length === 0
        ? 'failed calls no fault explains: none'
        : `failed calls no fault explains: ${unexplained.map((u) => `${u.tool}${u.serial ? ` on ${u.serial}` : ''} at ${u.at_s} s (${u.code})`).join('; ')}`,
    );
    out.push('');
  }
  const tools = [...new Set(runs.flatMap((r) => Object.keys(r.tools)))].sort();
  const cell = (r: LoadtestReport, tool: string): string[] => {
    const t = r.tools[tool];
    return t
      ? [String(t.count), String(t.errors), fmt(t.p50_ms), fmt(t.p95_ms), fmt(t.p99_ms)]
      : ['—', '—', '—', '—', '—'];
  };
  const header = runs.length === 1 ? [''] : runs.map((r) => ` [${modeName(r)}]`);
  out.push(
    table(
      ['tool', ...header.flatMap((h) => [`calls${h}`, 'errors', 'p50 ms', 'p95 ms', 'p99 ms'])],
      tools.map((tool) => [tool, ...runs.flatMap((r) => cell(r, tool))]),
    ),
  );
  out.push('');
  for (const r of runs) {
    out.push(`memory over time (${modeName(r)}), RSS MB:`);
    out.push(
      table(
        ['t s', 'host', 'frontends', 'frontend max', 'sim', 'loadtest'],
        thin(r.rss_series, 12).map((s) => [
          fmt(s.t_s),
          fmt(s.host_mb),
          fmt(s.frontends_mb),
          fmt(s.frontend_max_mb),
          fmt(s.sim_mb),
          fmt(s.loadtest_mb),
        ]),
      ),
    );
    out.push('');
  }
  return out.join('\n');
}
