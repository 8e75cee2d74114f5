/**
 * The crash tools: get_crash_logs (every group named, each group's newest crash before any repeat)
 * and get_crash_stack_trace, both deobfuscating with the installed build's mapping on request.
 */
import { z } from 'zod';
import { packageNameSchema } from '../../bus/messages/logcat.js';
import type { CrashGroupWire, CrashWire } from '../../bus/messages/logcat.js';
import type { RetraceOutcome } from '../../bus/messages/retrace.js';
import { TEXT_BUDGET } from '../budgets.js';
import { defineTool } from '../define-tool.js';
import { responseOf } from '../responses.js';
import { canonicalSerial } from './device-serial.js';
import { anrHeadline, retracedHeadline, shortTrace } from './crash-headline.js';
import { bufferWaitNote, crashGroupId, filterSerial, notStreamingHint } from './logcat.js';

function crashHeader(c: CrashWire, group: CrashGroupWire | undefined, summary = c.summary): string {
  const where = [c.device, c.time].filter((x) => x !== null && x !== '').join(' at ');
  const seen = group ? `, ${group.count}× since ${new Date(group.first_seen).toISOString()}` : '';
  // What the network capture saw the app ask for just before: often the crash's cause (a 500, a null body).
  const requests =
    c.requests_before !== undefined && c.requests_before.length > 0
      ? `\nRequests in the minute before it: ${c.requests_before.join('; ')}`
      : '';
  return `[${c.kind}] ${summary} — group ${c.group_id ?? '?'}${seen}${where ? ` — ${where}` : ''}${requests}`;
}

/** The thrown exception's line of a (retraced) Java trace: `EXCEPTION: message`, or undefined. */
function thrownLine(trace: string): string | undefined {
  return trace
    .split('\n')
    .find((l) => /^[\w$.]+(?:Exception|Error|Throwable)\b/.test(l.trim()))
    ?.trim()
    .slice(0, 300);
}

/** One short line for a retrace that worked: which build's mapping (the whole line is in structured). */
function retracedWith(t: RetraceOutcome): string {
  const build = [t.build_id, [t.module, t.variant].filter((x) => x !== null).join(' ')].filter(
    (x) => x !== null && x !== '',
  );
  return build.length > 0
    ? `Deobfuscated with the mapping of build ${build.join(' (')}${build.length > 1 ? ')' : ''}.`
    : t.mapping_line;
}

/** Crash groups get_crash_logs deobfuscates at most with `retrace: true` (the newest ones). */
const MAX_RETRACED_CRASH_GROUPS = 5;

const retraceParam = z
  .boolean()
  .default(false)
  .describe('Also deobfuscate with the mapping of the build installed (never guessed)');

export const getCrashLogs = defineTool({
  name: 'get_crash_logs',
  answers: 'logcat.crashes',
  toolset: 'core',
  kind: 'read',
  title: 'Crash logs',
  description:
    'The newest crashes in logcat (Java: exceptions, Caused by: chain and app frames; native: signal and backtrace; ANRs), each with its crash group id. Needs start_logcat.',
  input: z.object({
    count: z.number().int().min(1).max(200).default(20).describe('Crashes to return (default 20, max 200)'),
    package: packageNameSchema.optional().describe('Only crashes of this package'),
    device_serial: filterSerial,
    retrace: retraceParam,
    before_seq: z.number().int().min(0).optional().describe('Only crashes older than this seq, to page back'),
  }),
  output: responseOf('logcat.crashes'),
  projectIndependent: true,
  after: ['start_logcat'],
  async handle(args, ctx) {
    const r = await ctx.bus.request(
      'logcat.crashes',
      {
        count: args.count,
        ...(args.package !== undefined ? { package: args.package } : {}),
        ...(args.device_serial !== undefined
          ? { serial: (await canonicalSerial(ctx, args.device_serial))! }
          : {}),
        ...(args.before_seq !== undefined ? { before_seq: args.before_seq } : {}),
        ...(args.retrace
          ? { retrace: { root: ctx.session.project.root, max_groups: MAX_RETRACED_CRASH_GROUPS } }
          : {}),
      },
      { signal: ctx.signal },
    );
    const groups = new Map(r.groups.map((g) => [g.id, g]));
    const retraced = r.retraced;
    const byGroup = new Map((retraced ?? []).map((t) => [t.crash_group_id, t]));
    // A Java crash answers its exceptions, throw sites and app frames; the whole trace is in
    // structured and in get_crash_stack_trace.
    let collapsed = 0;
    const short = (c: CrashWire, trace: string): string => {
      if (c.kind !== 'java') {
        return trace;
      }
      const t = shortTrace(trace);
      collapsed += t.hidden > 0 ? 1 : 0;
      return t.text;
    };
    const blockOf = (c: CrashWire): string => {
      const t = c.group_id !== null ? byGroup.get(c.group_id) : undefined;
      if (c.kind === 'anr') {
        // An ANR leads with where its main thread is stuck and what holds it (retraced when asked).
        const trace = t?.status === 'retraced' ? t.trace : c.trace;
        const headline = anrHeadline(trace, c.package);
        return `${headline ? `${headline}\n` : ''}${crashHeader(c, groups.get(c.group_id ?? ''))}\n${t?.status === 'retraced' ? `${retracedWith(t)}\n` : ''}${trace}`;
      }
      if (t?.status !== 'retraced') {
        return `${crashHeader(c, groups.get(c.group_id ?? ''))}\n${short(c, c.trace)}`;
      }
      // The crash's own summary was made from the obfuscated trace: the headline says the real one.
      const headline = retracedHeadline(t.trace, c.package);
      return `${headline ? `${headline}\n` : ''}${crashHeader(c, groups.get(c.group_id ?? ''), thrownLine(t.trace) ?? c.summary)}\n${retracedWith(t)}\n${short(c, t.trace)}`;
    };
    // The newest crashes whose text and structured form both fit the answer's budget (one at least).
    const room =
      TEXT_BUDGET - 2_000 - JSON.stringify(r.groups).length - JSON.stringify(retraced ?? []).length;
    const crashes: CrashWire[] = [];
    const blocks: string[] = [];
    let textUsed = 0;
    let jsonUsed = 0;
    // In the actor's order: each group's newest crash first, then the repeats (takeRoundRobin), so
    // one group's repeats never crowd another group (another app, another device) out of the answer.
    const left: CrashWire[] = [];
    for (const c of r.crashes) {
      const block = blockOf(c);
      const json = JSON.stringify(c).length + 1;
      if (
        left.length > 0 ||
        (crashes.length > 0 && (textUsed + block.length > room || jsonUsed + json > room))
      ) {
        left.push(c);
        continue;
      }
      crashes.push(c);
      blocks.push(block);
      textUsed += block.length + 2;
      jsonUsed += json;
    }
    const cut = r.cut_for_size + left.length;
    const newestLeft = left.reduce((n, c) => Math.max(n, c.seq), 0);
    const head =
      crashes.length === 0
        ? `No crashes${args.package !== undefined ? ` of ${args.package}` : ''} were read from logcat.`
        : `${crashes.length} of ${r.total} crash${r.total === 1 ? '' : 'es'} in ${r.groups.length} group${r.groups.length === 1 ? '' : 's'}${cut > 0 ? ` (${cut} more left out to keep the answer within ${TEXT_BUDGET.toLocaleString('en-US')} characters${newestLeft > 0 ? `: before_seq: ${newestLeft + 1} reads them` : ''})` : ''}:`;
    // One line per group first: every group is named, whatever the details had room for.
    const index = r.groups.map(
      (g) =>
        `group ${g.id}: [${g.kind}] ${g.title.slice(0, 120)} — ${g.count}×, ${new Date(g.first_seen).toISOString()} to ${new Date(g.last_seen).toISOString()}${g.packages.length > 0 ? `, ${g.packages.join(', ')}` : ''}${g.devices.length > 0 ? ` on ${g.devices.join(', ')}` : ''}`,
    );
    return {
      text: [
        ...notStreamingHint(r.streaming.length),
        ...bufferWaitNote(r.buffer_wait),
        head,
        ...(index.length > 0 ? [index.join('\n')] : []),
        ...blocks,
        ...(collapsed > 0
          ? ['Framework frames are collapsed; get_crash_stack_trace gives a whole trace (crash_group_id).']
          : []),
      ].join('\n\n'),
      structured: { ...r, crashes, cut_for_size: cut },
    };
  },
});

export const getCrashStackTrace = defineTool({
  name: 'get_crash_stack_trace',
  answers: 'logcat.crash_trace',
  toolset: 'core',
  kind: 'read',
  title: 'Crash stack trace',
  description:
    "The full stack trace of the newest crash in logcat, or of one package or crash group: exception, every frame and the Caused by: chain, a native crash's signal and backtrace, or an ANR's reason.",
  input: z.object({
    package: packageNameSchema.optional().describe('The newest crash of this package'),
    crash_group_id: crashGroupId.optional(),
    retrace: retraceParam,
  }),
  output: responseOf('logcat.crash_trace').extend({
    /** With retrace: the deobfuscated root cause and the app's frame nearest it. */
    root_cause: z.string().optional(),
  }),
  projectIndependent: true,
  after: ['start_logcat'],
  async handle(args, ctx) {
    const r = await ctx.bus.request(
      'logcat.crash_trace',
      {
        ...(args.package !== undefined ? { package: args.package } : {}),
        ...(args.crash_group_id !== undefined ? { crash_group_id: args.crash_group_id } : {}),
        ...(args.retrace ? { retrace: { root: ctx.session.project.root } } : {}),
      },
      { signal: ctx.signal },
    );
    const retrace = r.retrace;
    // After a retrace the answer leads with the real root cause and the app's frame: the crash's
    // own summary was made from the obfuscated trace.
    const rootCause =
      r.crash.kind === 'anr'
        ? anrHeadline(retrace?.status === 'retraced' ? retrace.trace : r.crash.trace, r.crash.package)
        : retrace?.status === 'retraced'
          ? retracedHeadline(retrace.trace, r.crash.package)
          : null;
    const structured = {
      crash: r.crash,
      group: r.group,
      ...(r.buffer_wait ? { buffer_wait: r.buffer_wait } : {}),
      ...(retrace ? { retrace } : {}),
      ...(rootCause ? { root_cause: rootCause } : {}),
    };
    const body = retrace ? `${retrace.mapping_line}\n${retrace.trace}` : r.crash.trace;
    // Retraced, the header says the deobfuscated exception too: never the obfuscated summary
    // under the real root cause.
    const summary =
      retrace?.status === 'retraced' ? (thrownLine(retrace.trace) ?? r.crash.summary) : r.crash.summary;
    return {
      text: `${rootCause ? `${rootCause}\n` : ''}${crashHeader(r.crash, r.group ?? undefined, summary)}\n${body}`,
      structured,
    };
  },
});

export const crashTools = [getCrashLogs, getCrashStackTrace];
