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

const round = (ms: number): number => Math.round(ms * 100) / 100;

/**
 * Measures how late this thread's event loop runs timers (perf_hooks' histogram). Every frontend and
 * the host run one: it is the figure that proves the JSON-RPC loop never waits on parsing.
 */
export function startEventLoopProbe(resolutionMs = 10): EventLoopProbe {
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  let since = Date.now();
  // The histogram records each sampling interval whole (an idle loop reads `resolutionMs`): the
  // delay is what exceeds it.
  const delay = (ns: number): number => round(Math.max(0, ns / 1e6 - resolutionMs));
  return {
    read: () => ({
      p50_ms: delay(histogram.percentile(50)),
      p99_ms: delay(histogram.percentile(99)),
      max_ms: delay(histogram.max),
      mean_ms: delay(histogram.mean),
      since,
    }),
    reset: () => {
      histogram.reset();
      since = Date.now();
    },
    stop: () => histogram.disable(),
  };
}
