import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Event-loop delay figures, milliseconds. */
export interface LoopDelay {
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  mean_ms: number;
  /** Since when the figures were collected (epoch ms). */
  since: number;
}

export interface EventLoopProbe {
  read(): LoopDelay;
  /** Starts a new measuring window. */
  reset(): void;
  stop(): void;
}

const round = (ns: number): number => Math.round((ns / 1e6) * 100) / 100;

/**
 * Measures how late this thread's event loop runs timers (perf_hooks' histogram). Every frontend and
 * the host run one: it is the figure that proves the JSON-RPC loop never waits on parsing.
 */
export function startEventLoopProbe(resolutionMs = 10): EventLoopProbe {
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  let since = Date.now();
  // Node records each sampling interval whole (about resolutionMs when nothing is late); the delay
  // is what exceeds the interval.
  const late = (ns: number): number => round(Math.max(0, ns - resolutionMs * 1e6));
  return {
    read: () => ({
      p50_ms: late(histogram.percentile(50)),
      p99_ms: late(histogram.percentile(99)),
      max_ms: late(histogram.max),
      mean_ms: late(histogram.mean),
      since,
    }),
    reset: () => {
      histogram.reset();
      since = Date.now();
    },
    stop: () => histogram.disable(),
  };
}
