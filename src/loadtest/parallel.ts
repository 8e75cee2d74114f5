import type { LoadSession } from './mcp-session.js';
import { median, round2 } from './quantile.js';

/** How UI captures on many devices at once compare with one alone. */
export interface ParallelFigures {
  /** Time for one capture alone / time for one capture on every device at once (1.0 is perfect). */
  efficiency: number;
  devices: number;
  rounds: number;
  one_ms: number;
  all_ms: number;
  /** Captures that failed during the measurement. */
  failures: number;
}

/**
 * Measures parallel efficiency as bench/ui.ts does, through one session: a capture on one device
 * alone, then one capture on each device at once, `rounds` times each; efficiency is the ratio
 * of the medians. The devices' actors must have started already (a capture each).
 */
export async function measureParallel(
  session: LoadSession,
  serials: readonly string[],
  rounds: number,
): Promise<ParallelFigures> {
  let failures = 0;
  const capture = async (serial: string): Promise<void> => {
    const r = await session.call('get_ui_hierarchy', { device_serial: serial, max_rows: 80 });
    if (!r.ok) {
      failures++;
    }
  };
  const one: number[] = [];
  const all: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let t0 = performance.now();
    await capture(serials[0]!);
    one.push(performance.now() - t0);
    t0 = performance.now();
    await Promise.all(serials.map(capture));
    all.push(performance.now() - t0);
  }
  const oneMs = median(one);
  const allMs = median(all);
  return {
    efficiency: round2(oneMs / allMs),
    devices: serials.length,
    rounds,
    one_ms: Math.round(oneMs),
    all_ms: Math.round(allMs),
    failures,
  };
}
