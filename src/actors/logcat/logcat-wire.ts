/**
 * The logcat core's entries, crashes and groups as the bus carries them: plain objects in the
 * contract's shapes (src/bus/messages/logcat.ts), cut to a byte budget so no answer grows without
 * bound whatever the count asked for.
 */
import { stacksText } from './anr-trace.js';
import type { ExitRecordWire } from '../../bus/messages/app.js';
import type { CrashGroupWire, CrashWire, LogEntryWire } from '../../bus/messages/logcat.js';
import type { Crash, CrashGroup, JavaThrowable, LogEntry } from './logcat-types.js';
import { formatLogTime } from './logcat-time.js';
import { formatExitInfoLine, type ExitInfoRecord } from './exit-info.js';

/** Characters of message text one entries answer carries at most (≈ 8 MB as UTF-16 JSON). */
export const MAX_ENTRY_CHARS = 4 * 1024 * 1024;
/** Characters of trace text one crashes answer carries at most. */
export const MAX_CRASH_CHARS = 4 * 1024 * 1024;

/** An entry in the contract's shape. */
export function toWireEntry(e: LogEntry): LogEntryWire {
  const out: LogEntryWire = {
    seq: e.seq,
    time: formatLogTime(e.ts),
    device: e.device,
    pid: e.pid,
    tid: e.tid,
    level: e.level,
    tag: e.tag,
    message: e.message,
    package: e.package,
    category: e.category,
    crash: e.crash,
    crash_group: e.crash_group,
  };
  if (e.json !== null && e.json !== undefined) {
    out.json = e.json;
  }
  if (e.launch !== null) {
    out.launch = e.launch;
  }
  return out;
}

/**
 * What an entry costs in an answer's JSON, roughly: its strings plus the keys, numbers and time
 * around them (about 110 characters), the parsed JSON counted twice.
 */
function entryChars(e: LogEntry): number {
  return (
    e.message.length * (e.json !== null ? 2 : 1) +
    e.tag.length +
    (e.package?.length ?? 0) +
    (e.device?.length ?? 0) +
    (e.crash_group !== null ? 40 : 0) +
    110
  );
}

/** The newest entries of `entries` (oldest first) that fit the budget, and how many were cut. */
export function fitEntries(
  entries: readonly LogEntry[],
  budget = MAX_ENTRY_CHARS,
): { kept: LogEntryWire[]; cut: number } {
  let used = 0;
  let from = entries.length;
  while (from > 0) {
    const cost = entryChars(entries[from - 1] as LogEntry);
    if (used + cost > budget && from < entries.length) {
      break;
    }
    used += cost;
    from--;
  }
  return { kept: entries.slice(from).map(toWireEntry), cut: from };
}

function flat(t: JavaThrowable): CrashWire['causes'][number] {
  return { exception: t.exception, message: t.message, frames: t.frames, more: t.more };
}

/**
 * One line about a crash. Java: the exception and its message, then where the group blames it
 * (`at Frame`, or `root cause X at Frame` when a `Caused by:` is the root); native and ANR: the
 * group's title (signal and frame, or the ANR reason), plus a native abort message.
 */
export function crashSummary(crash: Crash, group: CrashGroup | undefined): string {
  const title = group?.title ?? crash.exception ?? crash.signal ?? crash.kind;
  let head: string;
  if (crash.kind === 'java' && crash.exception !== null) {
    const message =
      crash.message !== null && crash.message.length > 0 ? `: ${crash.message.slice(0, 200)}` : '';
    const blame = title.startsWith(`${crash.exception} `)
      ? title.slice(crash.exception.length)
      : title !== crash.exception
        ? ` — root cause ${title}`
        : '';
    head = `${crash.exception}${message}${blame}`;
  } else {
    const abort = crash.abort_message !== null ? ` — ${crash.abort_message.slice(0, 200)}` : '';
    head = `${title}${abort}`;
  }
  const who = crash.package ?? crash.process;
  return who !== null ? `${head} (${who})` : head;
}

/** A crash in the contract's shape, with its whole trace. */
export function toWireCrash(crash: Crash, group: CrashGroup | undefined): CrashWire {
  return {
    group_id: crash.group_id,
    kind: crash.kind,
    summary: crashSummary(crash, group),
    device: crash.device,
    package: crash.package,
    process: crash.process,
    pid: crash.pid,
    tid: crash.tid,
    time: formatLogTime(crash.ts),
    received_at: crash.received_at,
    seq: crash.seq,
    thread: crash.thread,
    exception: crash.exception,
    message: crash.message,
    frames: crash.frames,
    causes: crash.causes.map(flat),
    suppressed: crash.suppressed.map(flat),
    signal: crash.signal,
    signal_code: crash.signal_code,
    fault_addr: crash.fault_addr,
    abort_message: crash.abort_message,
    cause: crash.cause,
    abi: crash.abi,
    component: crash.component,
    trace: crash.lines.join('\n') + (crash.anr !== undefined ? `\n${stacksText(crash.anr)}` : ''),
    truncated: crash.truncated,
    ...(crash.anr !== undefined ? { anr: crash.anr } : {}),
  };
}

/** The crashes (newest first) that fit the budget, and how many were cut. */
export function fitCrashes(
  crashes: readonly Crash[],
  groupOf: (id: string | null) => CrashGroup | undefined,
  budget = MAX_CRASH_CHARS,
): { kept: CrashWire[]; cut: number } {
  const kept: CrashWire[] = [];
  let used = 0;
  for (const c of crashes) {
    const cost = c.lines.reduce((n, l) => n + l.length + 1, 400);
    if (kept.length > 0 && used + cost > budget) {
      break;
    }
    used += cost;
    kept.push(toWireCrash(c, groupOf(c.group_id)));
  }
  return { kept, cut: crashes.length - kept.length };
}

/** A group without its latest crash (that travels separately when asked for). */
export function toWireGroup(g: CrashGroup): CrashGroupWire {
  return {
    id: g.id,
    kind: g.kind,
    title: g.title,
    signature: g.signature,
    count: g.count,
    first_seen: g.first_seen,
    last_seen: g.last_seen,
    packages: [...g.packages],
    devices: [...g.devices],
  };
}

/** An exit record in the contract's shape, with its compact line. */
export function toWireExit(r: ExitInfoRecord): ExitRecordWire {
  return {
    timestamp: r.timestamp,
    pid: r.pid,
    process: r.process,
    reason: r.reason,
    reason_label: r.reason_label,
    subreason: r.subreason,
    status: r.status,
    signal: r.signal,
    importance: r.importance_name ?? (r.importance !== null ? String(r.importance) : null),
    pss_kb: r.pss_kb,
    rss_kb: r.rss_kb,
    description: r.description,
    line: formatExitInfoLine(r),
  };
}
