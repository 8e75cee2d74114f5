import { z } from 'zod';
import { serialSchema } from '../../bus/messages/devices.js';
import { logEntryWireSchema } from '../../bus/messages/logcat.js';
import type { RequestOf } from '../../bus/registry.js';
import { BusError } from '../../bus/errors.js';
import { ToolError, defineTool } from '../define-tool.js';
import type { ToolContext } from '../define-tool.js';
import { sleep } from '../../util/sleep.js';
import { resolveSerial } from './device-serial.js';
import { projectScope, queryNamesMine } from './project-package.js';

/** How often the stream's new lines are checked while waiting. */
const POLL_MS = 150;

/** Starts the device's stream from now when it is not streaming yet; returns the serials streaming. */
async function ensureStreaming(ctx: ToolContext, serial: string | undefined): Promise<string[]> {
  const stats = await ctx.bus.request('logcat.stats', {}, { signal: ctx.signal });
  const live = stats.streams
    .filter((s) => s.state === 'streaming' || s.state === 'starting')
    .map((s) => s.serial);
  if (serial !== undefined ? live.includes(serial) : live.length > 0) {
    return serial !== undefined ? [serial] : live;
  }
  const target = await resolveSerial(ctx, serial);
  await ctx.bus.request('logcat.start', { serial: target, from_now: true }, { signal: ctx.signal });
  return [target];
}

export const waitForLog = defineTool({
  name: 'wait_for_log',
  toolset: 'device-extras',
  kind: 'read',
  title: 'Wait for a log line',
  description:
    'Waits until a logcat line matching `query` (Android Studio\'s Logcat syntax, e.g. `tag:OkHttp message:"200 OK"` or `package:mine level:error`) is logged after this call began, and returns it — instead of a fixed sleep. Starts the device\'s logcat stream from now when it is not streaming. Sends progress notifications; cancellable.',
  input: z.object({
    query: z
      .string()
      .min(1)
      .max(4000)
      .describe("The line to wait for, in Android Studio's Logcat query syntax"),
    device_serial: serialSchema
      .optional()
      .describe('Only lines of this device (default: every streaming device, or the only online one)'),
    timeout_ms: z
      .number()
      .int()
      .min(100)
      .max(120_000)
      .default(15_000)
      .describe('How long to wait, ms (default 15,000, max 120,000)'),
  }),
  output: z.object({
    found: z.boolean(),
    entry: logEntryWireSchema.nullable(),
    elapsed_ms: z.number(),
    devices: z.array(z.string()),
  }),
  projectIndependent: true,
  after: ['start_logcat'],
  async handle(args, ctx) {
    const started = Date.now();
    const base: RequestOf<'logcat.entries'> = {
      query: args.query,
      count: 1,
      ...(args.device_serial !== undefined ? { serial: args.device_serial } : {}),
    };
    if (queryNamesMine(args.query)) {
      base.mine = (await projectScope(ctx, 'package:mine has no packages to stand for')).scope;
    }
    // Check the query first: a bad one is refused before anything starts.
    await ctx.bus.request(
      'logcat.entries',
      { ...base, since_seq: Number.MAX_SAFE_INTEGER },
      { signal: ctx.signal },
    );
    const devices = await ensureStreaming(ctx, args.device_serial);
    // "After this call began": the store's newest line now is the starting point.
    const newest = await ctx.bus.request('logcat.entries', { count: 1 }, { signal: ctx.signal });
    let since = newest.entries.at(-1)?.seq ?? 0;
    let polls = 0;
    for (;;) {
      const r = await ctx.bus.request(
        'logcat.entries',
        { ...base, count: 1000, since_seq: since },
        { signal: ctx.signal },
      );
      polls++;
      const match = r.entries[0];
      const elapsed = Date.now() - started;
      if (match) {
        return {
          text: `Logged after ${elapsed} ms: ${match.time} ${match.level} ${match.tag}: ${match.message}`,
          structured: { found: true, entry: match, elapsed_ms: elapsed, devices },
        };
      }
      if (r.entries.length === 0 && r.scanned > 0) {
        since = Math.max(since, since + r.scanned);
      }
      if (elapsed >= args.timeout_ms) {
        throw new ToolError(
          `No line matching ${JSON.stringify(args.query)} was logged within ${args.timeout_ms} ms on ${devices.join(', ')}.`,
          {
            found: false,
            entry: null,
            elapsed_ms: elapsed,
            devices,
          },
        );
      }
      if (polls % 4 === 1) {
        ctx.progress({ progress: elapsed, total: args.timeout_ms, message: `waiting for ${args.query}` });
      }
      await sleep(Math.min(POLL_MS, args.timeout_ms - elapsed), ctx.signal);
      if (ctx.signal.aborted) {
        throw new BusError('CANCELLED', 'wait_for_log was cancelled');
      }
    }
  },
});
