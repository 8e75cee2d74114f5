/**
 * A load test's report: the load's figures with the processes' memory, event-loop delay, the sim's
 * counts, and (with faults) what each fault cost.
 */
import { serverFigures } from './server-figures.js';
import os from 'node:os';
import { VERSION } from '../version.js';
import { classify } from './faults.js';
import type { LoadFigures, LoadWorld } from './load-world.js';
import type { FrontendRuntime } from './mcp-session.js';
import type { LoadtestOptions } from './options.js';
import { RssSampler } from './process-memory.js';
import { round2 } from './quantile.js';
import type { LoadtestReport } from './report.js';

/**
 * Which failures count as unexpected. Agents sharing a device change its screen under each other:
 * an action meant for the screen they read is refused (SCREEN_CHANGED), or its element is gone
 * (TOOL_ERROR), or they wait on each other's capture (BUSY); with a device each, none of these may
 * happen. With faults, the failures a fault explains are expected, and the others are counted.
 */
function errorFigures(options: LoadtestOptions, figures: LoadFigures, devices: number) {
  const { recorder } = figures;
  const allowed = options.sessions > devices ? ['BUSY', 'SCREEN_CHANGED', 'TOOL_ERROR'] : [];
  if (options.faults.length === 0) {
    const unexpected = Object.entries(recorder.errorsByCode())
      .filter(([code]) => !allowed.includes(code))
      .reduce((a, [, n]) => a + n, 0);
    return { allowed, unexpected, faulted: null };
  }
  const { reports, unexplained } = classify(figures.faults, recorder.spans ?? []);
  return {
    allowed,
    unexpected: unexplained.filter((s) => !allowed.includes(s.code ?? '')).length,
    faulted: {
      reports,
      unexplained: unexplained.slice(0, 20).map((s) => ({
        tool: s.tool,
        serial: s.serial,
        at_s: Math.round((s.start - figures.loadStart) / 100) / 10,
        code: s.code ?? '',
        text: s.text ?? '',
      })),
    },
  };
}

/** os.loadavg(), rounded. */
export function loadAverage(): number[] {
  return os.loadavg().map((l) => round2(l));
}

/** The report: the load's figures with the processes' memory, event-loop delay and the sim's counts. */
export async function reportOf(
  options: LoadtestOptions,
  world: LoadWorld,
  figures: LoadFigures,
  sampler: RssSampler,
  loadStart: number[],
): Promise<LoadtestReport> {
  const { serials, sessions, host, sim, adbServer } = world;
  const {
    recorder,
    parallel,
    iterations,
    builds,
    elapsedS,
    frontendShares,
    hostShare,
    ownDelay,
    storesAfter,
    logcatLines,
  } = figures;
  const mix = new Set(options.mix);
  const notes: string[] = [];
  // 7. The figures.
  const runtimes = await Promise.all(
    sessions.map((s) => s.runtime().catch((): FrontendRuntime | null => null)),
  );
  const hostRuntime = host ? await host.runtime().catch(() => null) : null;
  const simStats = sim ? await sim.stats() : null;
  if (simStats && simStats.devices_read < serials.length) {
    notes.push(`sim stats: only ${simStats.devices_read} of ${serials.length} devices answered`);
  }
  sampler.stop();
  const frontendPeaks = sessions.map((s) => sampler.peak(s.pid));
  const known = frontendPeaks.filter((p): p is number => p !== null);
  const loops99 = runtimes.map((r) => r?.event_loop.p99_ms ?? NaN);
  const loopsMax = runtimes.map((r) => r?.event_loop.max_ms ?? NaN);
  const errors = recorder.errorsByCode();
  const { allowed, unexpected, faulted } = errorFigures(options, figures, serials.length);
  const report: LoadtestReport = {
    droidbus_loadtest: 1,
    version: VERSION,
    actors: options.inline ? 'inline' : 'workers',
    attached: options.attached,
    sim: options.sim,
    devices: serials.length,
    sessions: options.sessions,
    duration_s: options.durationS,
    mix: options.mix,
    notes,
    dump_latency_ms: options.sim ? options.dumpLatencyMs : null,
    logcat_lines_per_s_per_device: options.sim ? options.logcatRate : null,
    logcat_lines_parsed_per_s: mix.has('logcat') ? Math.round(logcatLines / elapsedS) : null,
    logcat_store:
      storesAfter.length === 0
        ? null
        : {
            entries_max: Math.max(...storesAfter.map((s) => s.entries)),
            mb_max: round2(Math.max(...storesAfter.map((s) => s.bytes)) / 1048576),
          },
    build_lines_per_s: mix.has('build') ? options.buildRate : null,
    cpus: os.availableParallelism(),
    load_average: { start: loadStart, end: loadAverage() },
    elapsed_s: round2(elapsedS),
    calls: recorder.calls,
    calls_per_s: round2(recorder.calls / elapsedS),
    tools: recorder.tools(),
    errors,
    allowed_error_codes: allowed,
    unexpected_errors: unexpected,
    event_loop_delay_p99_ms: {
      frontends: loops99,
      frontend_max: Math.max(...loops99),
      host: hostRuntime?.event_loop.p99_ms ?? null,
      loadtest: ownDelay.p99_ms,
    },
    event_loop_delay_max_ms: {
      frontend_max: Math.max(...loopsMax),
      host: hostRuntime?.event_loop.max_ms ?? null,
    },
    cpu_pct: {
      frontends_main_thread: frontendShares.map((c) => c.main_thread_pct),
      frontends_process: frontendShares.map((c) => c.process_pct),
      host_main_thread: hostShare?.main_thread_pct ?? null,
      host_process: hostShare?.process_pct ?? null,
    },
    overlapping_dumps: simStats?.overlapping_dumps ?? null,
    dumps: simStats?.dumps ?? null,
    parallel_efficiency: parallel.efficiency,
    parallel,
    main_heap_mb: {
      frontends: runtimes.map((r) => r?.heap_used_mb ?? null),
      host: hostRuntime?.heap_used_mb ?? null,
    },
    peak_rss_mb: {
      host: host ? sampler.peak(host.pid) : null,
      frontends: frontendPeaks,
      frontend_max: known.length > 0 ? Math.max(...known) : null,
      frontends_total: known.length > 0 ? round2(known.reduce((a, b) => a + b, 0)) : null,
      sim: sim ? sampler.peak(sim.pid) : null,
      loadtest: RssSampler.ownPeak(),
    },
    rss_series: sampler.series,
    builds: builds ? { completed: builds.builds, failed: builds.failed } : null,
    iterations,
    adb_port: adbServer?.port ?? null,
    faults: faulted?.reports ?? null,
    unexplained_failures: faulted?.unexplained ?? null,
    adb_servers: world.servers ? serverFigures(world.servers, recorder.spans ?? [], figures.faults) : null,
  };
  return report;
}
