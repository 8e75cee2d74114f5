/**
 * Crashes deobfuscated in the same request that reads them (issue 52): the logcat actor asks the
 * retrace actor for each, so a tool or the host page asks once and only translates the answer.
 */
import type { PayloadOf, ResponseOf } from '../../bus/registry.js';
import type { CrashWire } from '../../bus/messages/logcat.js';
import type { HandlerContext } from '../actor.js';

type Crashes = ResponseOf<'logcat.crashes'>;
type Trace = ResponseOf<'logcat.crash_trace'>;

function retraceOne(crash: CrashWire, root: string | null, ctx: HandlerContext) {
  return ctx.bus.request(
    'retrace.crash',
    { trace: crash.trace, device: crash.device, package: crash.package, root },
    { signal: ctx.signal },
  );
}

/** The newest crash of each of the newest `max_groups` groups, deobfuscated once per group. */
export async function withRetracedGroups(
  answer: Crashes,
  ask: PayloadOf<'logcat.crashes'>['retrace'],
  ctx: HandlerContext,
): Promise<Crashes> {
  if (ask === undefined) {
    return answer;
  }
  const newest = new Map<string, CrashWire>();
  for (const c of answer.crashes) {
    const key = c.group_id ?? `seq-${c.seq}`;
    if (!newest.has(key) && newest.size < ask.max_groups) {
      newest.set(key, c);
    }
  }
  const retraced = await Promise.all(
    [...newest.values()].map(async (c) => ({
      crash_group_id: c.group_id,
      ...(await retraceOne(c, ask.root, ctx)),
    })),
  );
  return { ...answer, retraced };
}

/** One crash with its retrace outcome when asked for. */
export async function withRetrace(
  answer: Trace,
  ask: PayloadOf<'logcat.crash_trace'>['retrace'],
  ctx: HandlerContext,
): Promise<Trace> {
  return ask === undefined ? answer : { ...answer, retrace: await retraceOne(answer.crash, ask.root, ctx) };
}
