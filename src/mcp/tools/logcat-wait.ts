import { z } from 'zod';
import { serialSchema } from '../../bus/messages/devices.js';
import { ToolError, defineTool } from '../define-tool.js';
import { responseOf } from '../responses.js';
import { canonicalSerial } from './device-serial.js';
import { projectScope, queryNamesMine } from './project-package.js';

export const waitForLog = defineTool({
  name: 'wait_for_log',
  answers: 'logcat.wait',
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
  output: responseOf('logcat.wait'),
  projectIndependent: true,
  after: ['start_logcat'],
  async handle(args, ctx) {
    const began = Date.now();
    const serial = await canonicalSerial(ctx, args.device_serial);
    const mine = queryNamesMine(args.query)
      ? (await projectScope(ctx, 'package:mine has no packages to stand for')).scope
      : undefined;
    const r = await ctx.bus.request(
      'logcat.wait',
      {
        query: args.query,
        timeout_ms: args.timeout_ms,
        ...(serial !== undefined ? { serial } : {}),
        ...(mine ? { mine } : {}),
      },
      { signal: ctx.signal, timeoutMs: args.timeout_ms + 60_000, onProgress: (p) => ctx.progress(p) },
    );
    // Counted from the call, as the description says (the actor counts from when it got the request).
    const answer = { ...r, elapsed_ms: Date.now() - began };
    const { entry } = answer;
    if (!answer.found || !entry) {
      throw new ToolError(
        `No line matching ${JSON.stringify(args.query)} was logged within ${args.timeout_ms} ms on ${answer.devices.join(', ')}.`,
        answer,
      );
    }
    return {
      text: `Logged after ${answer.elapsed_ms} ms: ${entry.time} ${entry.level} ${entry.tag}: ${entry.message}`,
      structured: answer,
    };
  },
});
