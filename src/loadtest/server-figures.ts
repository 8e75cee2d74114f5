/**
 * `--adb-servers`: the calls of each adb server's devices counted apart — all of them, and those made
 * while another server was down (server-kill), which must all succeed.
 */
import { quantileSorted, round2 } from './quantile.js';
import type { Injected } from './faults.js';
import type { CallSpan } from './recorder.js';
import type { ServerGroup } from './run-devices.js';

export interface ServerFigures {
  label: string;
  port: number;
  devices: number;
  calls: number;
  failed: number;
  p50_ms: number;
  p95_ms: number;
  /** Calls of this server's devices made while another server was killed, and how many failed. */
  while_other_down: { calls: number; failed: number };
}

/** Each server's figures from the run's call spans. */
export function serverFigures(
  groups: readonly ServerGroup[],
  spans: readonly CallSpan[],
  faults: readonly Injected[],
): ServerFigures[] {
  const kills = faults.filter((f) => f.report.fault === 'server-kill');
  return groups.map((g) => {
    const own = new Set(g.ids);
    const mine = spans.filter((s) => s.serial !== null && own.has(s.serial));
    const durations = mine.map((s) => s.end - s.start).sort((a, b) => a - b);
    const otherDown = kills.filter((k) => !k.affected.some((id) => own.has(id)));
    const during = mine.filter((s) => otherDown.some((k) => s.end > k.start && s.start < k.end));
    return {
      label: g.label,
      port: g.server.port,
      devices: g.ids.length,
      calls: mine.length,
      failed: mine.filter((s) => s.code !== null).length,
      p50_ms: durations.length > 0 ? round2(quantileSorted(durations, 0.5)) : 0,
      p95_ms: durations.length > 0 ? round2(quantileSorted(durations, 0.95)) : 0,
      while_other_down: { calls: during.length, failed: during.filter((s) => s.code !== null).length },
    };
  });
}

/** The servers as a table for the text report. */
export function serversTable(servers: readonly ServerFigures[]): string[] {
  return [
    'adb servers (each server’s devices’ calls; "while another was down": during a server-kill of another):',
    '  server  port   devices  calls  failed  p50 ms  p95 ms  while another was down (failed)',
    ...servers.map(
      (s) =>
        `  ${s.label.padEnd(6)}  ${String(s.port).padEnd(5)}  ${String(s.devices).padStart(7)}  ${String(s.calls).padStart(5)}  ${String(s.failed).padStart(6)}  ${String(s.p50_ms).padStart(6)}  ${String(s.p95_ms).padStart(6)}  ${s.while_other_down.calls} (${s.while_other_down.failed})`,
    ),
  ];
}
