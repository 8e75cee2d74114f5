/**
 * The log lines around one crash, as a debug session keeps them: the device's lines just before
 * the crash, the crash's own lines, its group's signature, and the `Start proc` line that started
 * the crashed process (a debug session checks that the process started after the install). Seqs are
 * consecutive in the store, so a crash's position is found by arithmetic, not by a search.
 */
import type { CrashContext } from '../../bus/messages/logcat.js';
import type { CrashGroups } from './crash-group.js';
import type { LogStore } from './log-store.js';
import type { LogEntry } from './logcat-types.js';
import { formatLogTime } from './logcat-time.js';

/** Entries looked at past the crash's first line for its own lines (other processes interleave). */
const MAX_SCAN_AFTER = 20_000;
/** Entries looked at before the crash for the lines before it and the process start. */
const MAX_SCAN_BEFORE = 200_000;
/** Characters of one kept line. */
const MAX_LINE_CHARS = 2_000;

const START_PROC = /^Start proc (\d+):([^/\s]+)\//;

/** One entry as a kept line: `MM-DD HH:MM:SS.mmm  PID  TID L TAG: message`. */
export function formatKeptLine(e: LogEntry): string {
  const time = e.ts > 0 ? formatLogTime(e.ts).slice(5) : '??-?? ??:??:??.???';
  const line = `${time} ${String(e.pid).padStart(5)} ${String(e.tid).padStart(5)} ${e.level} ${e.tag}: ${e.message}`;
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} […]` : line;
}

export interface CrashContextParams {
  serial: string;
  seq: number;
  group_id: string;
  pid: number;
  package: string | null;
  before: number;
  max_lines: number;
}

const EMPTY: CrashContext = {
  found: false,
  kind: null,
  time: '',
  ts: 0,
  before: [],
  lines: [],
  truncated: false,
  signature: null,
  title: null,
  process_start: null,
};

/** The context of the crash whose first line has `seq`, or `found: false` when the store lost it. */
export function crashContext(store: LogStore, groups: CrashGroups, p: CrashContextParams): CrashContext {
  const oldest = store.at(0);
  if (oldest === undefined) {
    return EMPTY;
  }
  const index = p.seq - oldest.seq;
  const first = store.at(index);
  if (first === undefined || first.seq !== p.seq || first.device !== p.serial) {
    return EMPTY;
  }
  const crash = store
    .crashes({ device: p.serial, count: 200 })
    .find((c) => c.seq === p.seq && c.group_id === p.group_id);
  const want = Math.min(p.max_lines, crash?.lines.length ?? p.max_lines);
  const lines: string[] = [];
  for (
    let i = index, scanned = 0;
    i < store.size && lines.length < want && scanned < MAX_SCAN_AFTER;
    i++, scanned++
  ) {
    const e = store.at(i)!;
    if (e.device === p.serial && e.crash_group === p.group_id) {
      lines.push(formatKeptLine(e));
    }
  }
  const before: string[] = [];
  let processStart: CrashContext['process_start'] = null;
  for (let i = index - 1, scanned = 0; i >= 0 && scanned < MAX_SCAN_BEFORE; i--, scanned++) {
    const e = store.at(i)!;
    if (e.device !== p.serial) {
      continue;
    }
    if (before.length < p.before) {
      before.push(formatKeptLine(e));
    }
    if (processStart === null && e.message.startsWith('Start proc ')) {
      const m = START_PROC.exec(e.message);
      if (m && Number(m[1]) === p.pid && (p.package === null || m[2] === p.package)) {
        processStart = { seq: e.seq, ts: e.ts, time: e.ts > 0 ? formatLogTime(e.ts) : '' };
      }
    }
    if (before.length >= p.before && processStart !== null) {
      break;
    }
  }
  before.reverse();
  const group = groups.get(p.group_id);
  return {
    found: true,
    kind: crash?.kind ?? first.crash,
    time: first.ts > 0 ? formatLogTime(first.ts) : '',
    ts: first.ts,
    before,
    lines,
    truncated: (crash?.truncated ?? false) || (crash !== undefined && crash.lines.length > lines.length),
    signature: group?.signature ?? null,
    title: group?.title ?? null,
    process_start: processStart,
  };
}
