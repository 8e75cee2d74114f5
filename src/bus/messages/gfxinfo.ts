/** `dumpsys gfxinfo PACKAGE` as the logcat actor answers it (src/actors/logcat/gfxinfo.ts parses it). */
import { z } from 'zod';

/** `p50`, `p90`, `p95`, `p99` in ms: the percentiles the device printed. */
const percentilesSchema = z.record(z.string(), z.number());

/** One block of `dumpsys gfxinfo` frame statistics: the process's, or one window's. */
export const frameStatsBlockSchema = z.object({
  /** The window (or package) the block is about; null for the whole process. */
  window: z.string().nullable(),
  /** The monotonic clock when the counters started (the process start or the last reset), ns. */
  stats_since_ns: z.number().nullable(),
  frames: z.number().int(),
  janky_frames: z.number().int(),
  janky_pct: z.number(),
  /** Android 12+: jank by the older definition (a frame over the refresh interval). */
  janky_legacy: z.object({ frames: z.number().int(), pct: z.number() }).nullable(),
  percentiles_ms: percentilesSchema,
  gpu_percentiles_ms: percentilesSchema.nullable(),
  /** Jank reasons as the device counts them: missed_vsync, high_input_latency, slow_ui_thread, … */
  reasons: z.record(z.string(), z.number().int()),
});

/** `dumpsys gfxinfo PACKAGE`, parsed (src/actors/logcat/gfxinfo.ts). */
export const gfxinfoWireSchema = z.object({
  pid: z.number().int().nullable(),
  /** The process's counters (window null) first, then each window's when the device splits them. */
  blocks: z.array(frameStatsBlockSchema),
  view_roots: z.array(
    z.object({
      name: z.string(),
      visible: z.boolean().nullable(),
      views: z.number().int().nullable(),
      render_nodes_kb: z.number().nullable(),
    }),
  ),
  pipeline: z.string().nullable(),
});
export type GfxInfoWire = z.infer<typeof gfxinfoWireSchema>;
export type FrameStatsBlockWire = z.infer<typeof frameStatsBlockSchema>;
