import { z } from 'zod';
import { gfxinfoWireSchema, packageNameSchema, type FrameStatsBlockWire } from '../../bus/messages/logcat.js';
import { defineDeviceTool } from '../define-device-tool.js';
import { ToolError } from '../define-tool.js';
import { responseOf } from '../responses.js';
import { defaultPackage } from './project-package.js';

/** The jank reasons in the order an Android developer reads them, with the words for each. */
const REASON_WORDS: Record<string, string> = {
  frame_deadline_missed: 'missed their deadline',
  slow_ui_thread: 'slow UI thread',
  slow_bitmap_uploads: 'slow bitmap uploads',
  slow_issue_draw_commands: 'slow draw commands',
  missed_vsync: 'missed vsync',
  high_input_latency: 'high input latency',
};

function ms(p: FrameStatsBlockWire['percentiles_ms']): string {
  return `p50 ${p.p50 ?? '?'} / p90 ${p.p90 ?? '?'} / p95 ${p.p95 ?? '?'} / p99 ${p.p99 ?? '?'} ms`;
}

/** One block in a few lines: frames, jank, percentiles, the reasons that counted. */
function blockLines(b: FrameStatsBlockWire, name: string): string[] {
  const reasons = Object.entries(b.reasons)
    .filter(([key, n]) => n > 0 && key !== 'frame_deadline_missed_legacy')
    .sort(([, a], [, c]) => c - a)
    .map(([key, n]) => `${REASON_WORDS[key] ?? key.replace(/_/g, ' ')} ${n}`);
  return [
    `${name}: ${b.frames} frames, ${b.janky_frames} janky (${b.janky_pct}%)${b.janky_legacy ? `; by the pre-Android 12 measure ${b.janky_legacy.frames} (${b.janky_legacy.pct}%)` : ''}`,
    `  frame time ${ms(b.percentiles_ms)}${b.gpu_percentiles_ms ? `; GPU ${ms(b.gpu_percentiles_ms)}` : ''}`,
    ...(reasons.length > 0 ? [`  jank reasons: ${reasons.join(', ')}`] : []),
  ];
}

export const getFrameStats = defineDeviceTool({
  name: 'get_frame_stats',
  answers: 'logcat.frame_stats',
  toolset: 'inspect',
  // With reset it clears the app's frame counters: not read-only.
  kind: 'write',
  title: 'Frame stats',
  description:
    "An app's frames (dumpsys gfxinfo): janky %, frame-time and GPU percentiles, jank reasons (per window). Per action: reset: true, act, call again.",
  input: z.object({
    package: packageNameSchema.optional().describe("Package; default: the project's app"),
    reset: z.boolean().default(false).describe('Clear the counters after reading them'),
  }),
  output: gfxinfoWireSchema.extend({
    device_serial: z.string(),
    package: z.string(),
    reset: responseOf('logcat.frame_stats').shape.reset,
  }),
  projectIndependent: false,
  async handle(args, ctx) {
    const serial = ctx.serial;
    const pkg = args.package ?? (await defaultPackage(ctx, serial));
    const r = await ctx.ask('logcat.frame_stats', { package: pkg, reset: args.reset });
    if (r.stats === null) {
      throw new ToolError(
        `${pkg} is not running on ${serial}${r.note !== null ? ` (${r.note})` : ''}. Launch it, then ask again.`,
      );
    }
    const s = r.stats;
    const head = `${pkg} (pid ${s.pid ?? '?'}) on ${serial}`;
    const lines = [
      ...(s.blocks.length === 0 ? [`${head}: no frame statistics yet`] : []),
      ...s.blocks.flatMap((b) => blockLines(b, b.window === null ? head : `window ${b.window}`)),
      ...(s.view_roots.length > 1
        ? [
            `${s.view_roots.length} view roots: ${s.view_roots.map((v) => `${v.name}${v.views !== null ? ` (${v.views} views)` : ''}`).join('; ')}`,
          ]
        : []),
      ...(r.reset ? ['Counters reset: the next call counts from now.'] : []),
    ];
    return {
      text: lines.join('\n'),
      structured: { ...s, device_serial: serial, package: pkg, reset: r.reset },
    };
  },
});

export const frameStatsTools = [getFrameStats];
