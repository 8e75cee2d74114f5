import { z } from 'zod';
import { serialSchema } from '../../bus/messages/devices.js';
import { logEntryWireSchema, packageNameSchema } from '../../bus/messages/logcat.js';
import type { BufferWait, LogEntryWire } from '../../bus/messages/logcat.js';
import type { RequestOf } from '../../bus/registry.js';
import { answerBudget, newestWithin } from '../budgets.js';
import { withoutNulls } from '../compact.js';
import { defineTool } from '../define-tool.js';
import { deviceResponseOf, responseOf } from '../responses.js';
import { defineDeviceTool } from '../define-device-tool.js';
import { projectScope, queryNamesMine } from './project-package.js';
import { canonicalSerial } from './device-serial.js';

const LEVEL_RE = /^(v|d|i|w|e|f|a|verbose|debug|info|warn|warning|error|fatal|assert)$/i;
export const filterSerial = serialSchema.optional().describe('Only lines of this device');
export const crashGroupId = z
  .string()
  .regex(/^[0-9a-f]{12}$/, 'a crash group id is 12 hex digits, as get_crash_logs returns it')
  .describe('A crash group id from get_crash_logs');

function entryLine(e: LogEntryWire, withDevice: boolean): string {
  const head = `${e.time.slice(5) || '?'} ${String(e.pid).padStart(5)} ${String(e.tid).padStart(5)} ${e.level} ${e.tag}: ${e.message}`;
  return withDevice && e.device !== null ? `[${e.device}] ${head}` : head;
}

/**
 * A logcat line as get_logcat_entries returns it: the wire entry without its empty fields (no
 * package, category, crash or crash group when the line has none), so the structured answer
 * stays close to the size of the text one.
 */
const entryOutputSchema = logEntryWireSchema.extend({
  device: z.string().optional(),
  package: z.string().optional(),
  category: z.string().optional(),
  crash: logEntryWireSchema.shape.crash.unwrap().optional(),
  crash_group: z.string().optional(),
});
export type EntryOutput = z.infer<typeof entryOutputSchema>;

/** Characters of lines get_logcat_entries answers with at most when `count` is given. */
const MAX_LOGCAT_ANSWER_CHARS = 200_000;

export function notStreamingHint(streaming: number): string[] {
  return streaming === 0 ? ['No logcat stream runs: call start_logcat to read a device’s log.'] : [];
}

/** What a read says when it waited for streams still reading their device's buffer. */
export function bufferWaitNote(wait: BufferWait | undefined): string[] {
  if (wait === undefined) {
    return [];
  }
  if (wait.unread.length > 0) {
    return [
      `logcat on ${wait.unread.join(', ')} was still reading the device's buffer after ${wait.waited_ms} ms: lines and crashes it holds may be missing below; ask again.`,
    ];
  }
  return [`(Waited ${wait.waited_ms} ms for logcat to finish reading the device's buffer.)`];
}

export const startLogcat = defineDeviceTool({
  name: 'start_logcat',
  answers: 'logcat.start',
  toolset: 'core',
  kind: 'write',
  title: 'Start logcat',
  description:
    "Streams a device's logcat into droidbus's buffer, parsed (level, tag, package, JSON, launch times; crashes, native crashes and ANRs grouped by signature). Answers once the device's existing buffer is read (how many lines), unless from_now: true; reads made meanwhile wait for it.",
  input: z.object({
    from_now: z
      .boolean()
      .default(false)
      .describe("Skip the lines the device's buffer already holds and read only new ones"),
  }),
  output: deviceResponseOf('logcat.start'),
  async handle(args, ctx) {
    const { serial } = ctx;
    const r = await ctx.ask('logcat.start', { from_now: args.from_now });
    return {
      text: r.already_streaming
        ? `logcat was already streaming from ${serial} (${r.stream.lines} lines so far).`
        : r.stream.buffer_lines !== null
          ? `Streaming logcat from ${serial}: read the ${r.stream.buffer_lines} lines its buffer held (${r.stream.crashes} crash${r.stream.crashes === 1 ? '' : 'es'}), ${r.stream.known_pids} processes known. Read it with get_logcat_entries, crashes with get_crash_logs.`
          : `Streaming logcat from ${serial} from now on (${r.stream.lines} new lines so far), ${r.stream.known_pids} processes known. Read it with get_logcat_entries, crashes with get_crash_logs.`,
      structured: { device_serial: serial, already_streaming: r.already_streaming, stream: r.stream },
    };
  },
});

export const stopLogcat = defineTool({
  name: 'stop_logcat',
  answers: 'logcat.stop',
  toolset: 'core',
  kind: 'write',
  title: 'Stop logcat',
  description:
    "Stops streaming logcat from a device (every device without device_serial); what was read stays in droidbus's buffer.",
  input: z.object({
    device_serial: serialSchema.optional().describe('The device to stop; every stream when left out'),
  }),
  output: responseOf('logcat.stop').pick({ stopped: true }),
  projectIndependent: true,
  async handle(args, ctx) {
    const { stopped } = await ctx.bus.request(
      'logcat.stop',
      args.device_serial !== undefined ? { serial: (await canonicalSerial(ctx, args.device_serial))! } : {},
      { signal: ctx.signal },
    );
    return {
      text:
        stopped.length === 0
          ? 'No logcat stream was running.'
          : stopped
              .map((s) => `Stopped logcat on ${s.serial} (${s.lines} lines, ${s.crashes} crashes).`)
              .join('\n'),
      structured: { stopped },
    };
  },
});

export const clearLogcat = defineTool({
  name: 'clear_logcat',
  answers: 'logcat.clear',
  toolset: 'core',
  kind: 'destructive',
  title: 'Clear logcat buffer',
  description:
    "Clears droidbus's logcat buffer (not the device's): one device's lines and crashes, or everything with the crash groups when device_serial is left out. Streams keep running.",
  input: z.object({
    device_serial: serialSchema.optional().describe("Clear only this device's lines and crashes"),
  }),
  output: responseOf('logcat.clear'),
  projectIndependent: true,
  async handle(args, ctx) {
    const r = await ctx.bus.request(
      'logcat.clear',
      args.device_serial !== undefined ? { serial: (await canonicalSerial(ctx, args.device_serial))! } : {},
      { signal: ctx.signal },
    );
    return {
      text: `Cleared ${r.cleared_entries} lines and ${r.cleared_crashes} crashes from droidbus's buffer${args.device_serial !== undefined ? ` for ${args.device_serial}` : ''}.`,
      structured: r,
    };
  },
});

export const getLogcatEntries = defineTool({
  name: 'get_logcat_entries',
  answers: 'logcat.entries',
  toolset: 'core',
  kind: 'read',
  title: 'Logcat entries',
  description:
    "Reads droidbus's logcat buffer (start_logcat first): the newest `count` matches, oldest first. `query` is Studio's Logcat syntax (`package:mine level:error -tag:Bar message:\"x y\" is:crash age:5m tag~:regex`; mine = the project's packages). RE2 regexes over ~2 s of work are refused.",
  input: z.object({
    count: z.number().int().min(1).max(10_000).optional().describe('The newest matching lines (default 200)'),
    min_level: z
      .string()
      .regex(LEVEL_RE, 'a level: V, D, I, W, E, F or verbose, debug, info, warn, error, fatal')
      .optional()
      .describe('Lowest level: V, D, I, W, E, F'),
    tag: z.string().min(1).max(1000).optional().describe('Exact tag'),
    text: z.string().min(1).max(1000).optional().describe('Part of the message, case-insensitive'),
    package: packageNameSchema.optional().describe('Only lines of this package'),
    only_crashes: z.boolean().optional().describe('Only the lines of crashes, native crashes and ANRs'),
    device_serial: filterSerial,
    query: z
      .string()
      .min(1)
      .max(2000)
      .optional()
      .describe("A filter in Android Studio's Logcat query syntax"),
    since_seq: z.number().int().min(0).optional().describe('Only lines after this seq, to read on'),
    before_seq: z.number().int().min(0).optional().describe('Only lines before this seq, to page back'),
  }),
  output: responseOf('logcat.entries')
    .pick({ has_more: true, cut_for_size: true, buffer_wait: true, stopped: true })
    .extend({
      entries: z.array(entryOutputSchema),
      returned: z.number().int(),
      streaming: z.array(z.string()),
    }),
  /** Entries without their empty fields. */
  reshaped: ['entries'],
  projectIndependent: true,
  after: ['start_logcat'],
  maxAnswerChars: MAX_LOGCAT_ANSWER_CHARS,
  async handle(args, ctx) {
    const budget = answerBudget(args.count !== undefined, MAX_LOGCAT_ANSWER_CHARS);
    const payload: RequestOf<'logcat.entries'> = { max_chars: budget };
    for (const key of [
      'count',
      'min_level',
      'tag',
      'text',
      'package',
      'only_crashes',
      'query',
      'since_seq',
      'before_seq',
    ] as const) {
      if (args[key] !== undefined) {
        (payload as Record<string, unknown>)[key] = args[key];
      }
    }
    if (args.device_serial !== undefined) {
      payload.serial = (await canonicalSerial(ctx, args.device_serial))!;
    }
    if (args.query !== undefined && queryNamesMine(args.query)) {
      payload.mine = (await projectScope(ctx, 'package:mine has no packages to stand for')).scope;
    }
    const r = await ctx.bus.request('logcat.entries', payload, { signal: ctx.signal });
    const streaming = r.streams.filter((s) => s.state === 'streaming').map((s) => s.serial);
    // The actor fits the entries by an estimate; the structured answer is held to the budget exactly.
    const all = r.entries.map((e) => withoutNulls(e) as EntryOutput);
    const entries = newestWithin(all, budget - 500, true);
    const cut = r.cut_for_size + all.length - entries.length;
    const hasMore = r.has_more || entries.length < all.length;
    const kept = r.entries.slice(all.length - entries.length);
    const devices = new Set(kept.map((e) => e.device));
    const lines = kept.map((e) => entryLine(e, devices.size > 1));
    const oldest = kept[0]?.seq;
    const older =
      oldest === undefined || !hasMore
        ? ''
        : cut > 0
          ? ` (${cut} older matches left out to keep the answer within ${budget.toLocaleString('en-US')} characters: before_seq: ${oldest} reads them)`
          : ` (older matches exist: before_seq: ${oldest} reads them, or raise count or narrow the filters)`;
    const head =
      kept.length === 0
        ? 'No matching logcat lines.'
        : `${kept.length} line${kept.length === 1 ? '' : 's'}${older}:`;
    return {
      text: [
        ...notStreamingHint(streaming.length),
        ...bufferWaitNote(r.buffer_wait),
        ...(r.stopped !== undefined ? [`The scan ${r.stopped}.`] : []),
        head,
        ...lines,
      ].join('\n'),
      answerChars: budget,
      structured: {
        entries,
        returned: entries.length,
        has_more: hasMore,
        cut_for_size: cut,
        streaming,
        ...(r.buffer_wait ? { buffer_wait: r.buffer_wait } : {}),
        ...(r.stopped !== undefined ? { stopped: r.stopped } : {}),
      },
    };
  },
});

export const getLogcatStats = defineTool({
  name: 'get_logcat_stats',
  answers: 'logcat.stats',
  toolset: 'inspect',
  kind: 'read',
  title: 'Logcat stats',
  description:
    "Figures of droidbus's logcat buffer and streams: lines held and dropped, lines per second, counts by level, top tags, packages and devices, crashes by kind and group, each stream's state.",
  output: responseOf('logcat.stats'),
  projectIndependent: true,
  after: ['start_logcat'],
  async handle(_args, ctx) {
    const r = await ctx.bus.request('logcat.stats', {}, { signal: ctx.signal });
    const s = r.store;
    const lines = [
      `${s.entries} lines held (${(s.bytes / 1048576).toFixed(1)} of ${(s.max_bytes / 1048576).toFixed(0)} MB, at most ${s.max_entries}); ${s.dropped} dropped, ${s.received} received; ${s.lines_per_second.toFixed(1)} lines/s.`,
      `Crashes: ${s.crashes.total} (${s.crashes.java} Java, ${s.crashes.native} native, ${s.crashes.anr} ANR${s.crashes.js > 0 ? `, ${s.crashes.js} JavaScript` : ''}) in ${r.groups} groups.`,
      ...(r.journal !== undefined
        ? [
            `Journal on disk (kept until clear_logcat or droidbus exits cleanly): ${(r.journal.bytes / 1048576).toFixed(1)} of at most ${(r.journal.cap_bytes / 1048576).toFixed(0)} MB.${r.journal.refused.length > 0 ? ` Not replayed: ${r.journal.refused.join('; ')}` : ''}`,
          ]
        : []),
      ...r.streams.map(
        (t) =>
          `${t.serial}: ${t.state}${t.reason !== null ? ` (${t.reason})` : ''}, ${t.lines} lines, ${t.crashes} crashes${t.garbage > 0 ? `, ${t.garbage} garbage lines skipped` : ''}`,
      ),
      ...notStreamingHint(r.streams.filter((t) => t.state === 'streaming').length),
    ];
    return { text: lines.join('\n'), structured: r };
  },
});

export const logcatTools = [startLogcat, stopLogcat, clearLogcat, getLogcatEntries, getLogcatStats];
