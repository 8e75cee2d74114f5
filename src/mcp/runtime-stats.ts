import { z } from 'zod';
import { processRuntimeSchema } from '../bus/messages/host.js';
import type { EventLoopProbe } from '../util/event-loop.js';
import { VERSION } from '../version.js';
import { defineResource } from './resources.js';
import type { ResourceDefinition } from './resources.js';

export const runtimeStatsSchema = processRuntimeSchema.extend({
  /** Agent actions this frontend reported to the debug sessions (sent, recorded, dropped). */
  agent_actions: z
    .object({
      sent: z.number(),
      recorded: z.number(),
      dropped: z.number(),
      dropped_busy: z.number(),
    })
    .optional(),
});
export type RuntimeStats = z.infer<typeof runtimeStatsSchema>;

/** This process's figures: memory and the event loop's delay. */
export function runtimeStats(probe: EventLoopProbe): RuntimeStats {
  const mem = process.memoryUsage();
  return {
    pid: process.pid,
    version: VERSION,
    uptime_s: Math.round(process.uptime()),
    rss_mb: Math.round((mem.rss / 1048576) * 10) / 10,
    heap_used_mb: Math.round((mem.heapUsed / 1048576) * 10) / 10,
    event_loop: probe.read(),
  };
}

/**
 * `droidbus://runtime`: the frontend's own figures (RSS, event-loop delay p50/p99/max), read by the
 * load test and benchmarks. `?reset` is not supported on purpose: reading never changes state.
 */
export function runtimeResource(
  probe: EventLoopProbe,
  extra: () => Partial<RuntimeStats> = () => ({}),
): ResourceDefinition {
  return defineResource({
    uri: 'droidbus://runtime',
    name: 'runtime',
    title: 'droidbus runtime figures',
    description:
      "This droidbus process's memory and event-loop delay (p50/p99/max since it started), as JSON.",
    mimeType: 'application/json',
    read: () => Promise.resolve(JSON.stringify({ ...runtimeStats(probe), ...extra() }, null, 2)),
  });
}
