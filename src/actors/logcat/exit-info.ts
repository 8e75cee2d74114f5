/**
 * `dumpsys activity exit-info [PKG]` (Android 11+): the ApplicationExitInfo records per package and
 * uid, read into plain records and compact lines, newest first. Android 11 prints one field per
 * line; later versions three lines per record (`timestamp=… pid=… realUid=…`, `process=… reason=…`,
 * `importance=… pss=… rss=… description=… state=… trace=…`); both are read by key.
 */

/** One process exit. */
export interface ExitInfoRecord {
  package: string | null;
  uid: number | null;
  /** The record's `#N` within its uid. */
  index: number;
  /** As printed, e.g. `2024-05-06 17:38:47.527`. */
  timestamp: string | null;
  /** Epoch ms (device time in the host zone), 0 when unknown. */
  ts: number;
  pid: number | null;
  real_uid: number | null;
  package_uid: number | null;
  defining_uid: number | null;
  user: number | null;
  process: string | null;
  reason_code: number | null;
  /** The API name without `REASON_`: `CRASH`, `CRASH_NATIVE`, `ANR`, `LOW_MEMORY`, `EXIT_SELF`, `SIGNALED` … */
  reason: string;
  /** The label as the device printed it, e.g. `APP CRASH(EXCEPTION)`. */
  reason_label: string | null;
  subreason_code: number | null;
  subreason: string | null;
  status: number | null;
  /** For SIGNALED / CRASH_NATIVE exits: the signal the status names. */
  signal: string | null;
  importance: number | null;
  importance_name: string | null;
  pss_kb: number | null;
  rss_kb: number | null;
  description: string | null;
  state: string | null;
  trace: string | null;
}

const REASONS = [
  'UNKNOWN',
  'EXIT_SELF',
  'SIGNALED',
  'LOW_MEMORY',
  'CRASH',
  'CRASH_NATIVE',
  'ANR',
  'INITIALIZATION_FAILURE',
  'PERMISSION_CHANGE',
  'EXCESSIVE_RESOURCE_USAGE',
  'USER_REQUESTED',
  'USER_STOPPED',
  'DEPENDENCY_DIED',
  'OTHER',
  'FREEZER',
  'PACKAGE_STATE_CHANGE',
  'PACKAGE_UPDATED',
] as const;

const IMPORTANCE: Record<number, string> = {
  100: 'FOREGROUND',
  125: 'FOREGROUND_SERVICE',
  130: 'PERCEPTIBLE_PRE_26',
  150: 'TOP_SLEEPING_PRE_28',
  170: 'CANT_SAVE_STATE_PRE_26',
  200: 'VISIBLE',
  230: 'PERCEPTIBLE',
  300: 'SERVICE',
  325: 'TOP_SLEEPING',
  350: 'CANT_SAVE_STATE',
  400: 'CACHED',
  500: 'EMPTY',
  1000: 'GONE',
};

const SIGNALS: Record<number, string> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  3: 'SIGQUIT',
  4: 'SIGILL',
  5: 'SIGTRAP',
  6: 'SIGABRT',
  7: 'SIGBUS',
  8: 'SIGFPE',
  9: 'SIGKILL',
  11: 'SIGSEGV',
  13: 'SIGPIPE',
  15: 'SIGTERM',
  31: 'SIGSYS',
};

/** Reasons that mean the app failed (the tools point to the crash tools for these). */
export const FAILURE_REASONS: ReadonlySet<string> = new Set(['CRASH', 'CRASH_NATIVE', 'ANR']);

const KEYS = [
  'timestamp',
  'pid',
  'realUid',
  'packageUid',
  'definingUid',
  'user',
  'process',
  'reason',
  'subreason',
  'status',
  'importance',
  'pss',
  'rss',
  'description',
  'state',
  'trace',
];
const KEY_RE = new RegExp(`(?:^|\\s)(${KEYS.join('|')})=`, 'g');

/** `0.00`, `512KB`, `58MB`, `2.5GB` (DebugUtils.sizeValueToString of bytes) → kB. */
export function parseSizeKb(text: string | undefined): number | null {
  if (text === undefined) {
    return null;
  }
  const m = /^([\d.]+)\s*(B|KB|MB|GB|TB|PB)?$/i.exec(text.trim());
  if (m === null) {
    return null;
  }
  const v = Number(m[1]);
  if (!Number.isFinite(v)) {
    return null;
  }
  const unit = (m[2] ?? 'B').toUpperCase();
  const factor: Record<string, number> = {
    B: 1 / 1024,
    KB: 1,
    MB: 1024,
    GB: 1024 ** 2,
    TB: 1024 ** 3,
    PB: 1024 ** 4,
  };
  return Math.round(v * (factor[unit] ?? 1));
}

function int(text: string | undefined): number | null {
  if (text === undefined) {
    return null;
  }
  const m = /^-?\d+/.exec(text.trim());
  return m === null ? null : Number(m[0]);
}

/** `4 (APP CRASH(EXCEPTION))` → code 4, label `APP CRASH(EXCEPTION)`; tolerates a cut-off label. */
function codeAndLabel(text: string | undefined): { code: number | null; label: string | null } {
  if (text === undefined) {
    return { code: null, label: null };
  }
  const t = text.trim();
  const code = int(t);
  const open = t.indexOf('(');
  if (open < 0) {
    return { code, label: null };
  }
  let label = t.slice(open + 1);
  if (label.endsWith(')')) {
    label = label.slice(0, -1);
  }
  return { code, label: label.trim() || null };
}

function localEpoch(ts: string | null): number {
  if (ts === null) {
    return 0;
  }
  const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,3}))?/.exec(ts);
  if (m === null) {
    return 0;
  }
  const n = (i: number): number => Number(m[i] ?? 0);
  return new Date(n(1), n(2) - 1, n(3), n(4), n(5), n(6), Number((m[7] ?? '0').padEnd(3, '0'))).getTime();
}

function fieldsOf(text: string): Map<string, string> {
  const found: { key: string; at: number; valueAt: number }[] = [];
  KEY_RE.lastIndex = 0;
  for (let m = KEY_RE.exec(text); m !== null; m = KEY_RE.exec(text)) {
    const key = m[1] ?? '';
    found.push({ key, at: m.index, valueAt: m.index + m[0].length });
  }
  const out = new Map<string, string>();
  for (let i = 0; i < found.length; i++) {
    const f = found[i];
    if (f === undefined || out.has(f.key)) {
      continue;
    }
    const end = found[i + 1]?.at ?? text.length;
    out.set(f.key, text.slice(f.valueAt, end).trim());
  }
  return out;
}

function record(pkg: string | null, uid: number | null, index: number, text: string): ExitInfoRecord {
  const f = fieldsOf(text);
  const reason = codeAndLabel(f.get('reason'));
  const sub = codeAndLabel(f.get('subreason'));
  const status = int(f.get('status'));
  const importance = int(f.get('importance'));
  const reasonName = reason.code !== null ? (REASONS[reason.code] ?? 'UNKNOWN') : 'UNKNOWN';
  const timestamp = f.get('timestamp') ?? null;
  const nullIfNull = (v: string | undefined): string | null => (v === undefined || v === 'null' ? null : v);
  return {
    package: pkg,
    uid,
    index,
    timestamp,
    ts: localEpoch(timestamp),
    pid: int(f.get('pid')),
    real_uid: int(f.get('realUid')),
    package_uid: int(f.get('packageUid')),
    defining_uid: int(f.get('definingUid')),
    user: int(f.get('user')),
    process: f.get('process') ?? null,
    reason_code: reason.code,
    reason: reasonName,
    reason_label: reason.label,
    subreason_code: sub.code,
    subreason: sub.label,
    status,
    signal:
      (reasonName === 'SIGNALED' || reasonName === 'CRASH_NATIVE') && status !== null
        ? (SIGNALS[status] ?? null)
        : null,
    importance,
    importance_name: importance !== null ? (IMPORTANCE[importance] ?? null) : null,
    pss_kb: parseSizeKb(f.get('pss')),
    rss_kb: parseSizeKb(f.get('rss')),
    description: nullIfNull(f.get('description')),
    state: f.get('state') ?? null,
    trace: nullIfNull(f.get('trace')),
  };
}

/** Parses the dump; records come back newest first. */
export function parseExitInfo(text: string): ExitInfoRecord[] {
  const out: ExitInfoRecord[] = [];
  let pkg: string | null = null;
  let uid: number | null = null;
  let current: { index: number; parts: string[] } | null = null;
  const close = (): void => {
    if (current !== null) {
      out.push(record(pkg, uid, current.index, current.parts.join(' ')));
      current = null;
    }
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.length === 0) {
      continue;
    }
    const p = /^package: (\S+)/.exec(line);
    if (p !== null) {
      close();
      pkg = p[1] ?? null;
      continue;
    }
    const u = /^Historical Process Exit for uid=(\d+)/.exec(line);
    if (u !== null) {
      close();
      uid = Number(u[1]);
      continue;
    }
    const r = /^ApplicationExitInfo #(\d+):/.exec(line);
    if (r !== null) {
      close();
      current = { index: Number(r[1]), parts: [] };
      continue;
    }
    if (current !== null) {
      (current as { parts: string[] }).parts.push(line);
    }
  }
  close();
  // Stable: dumpsys already lists each uid's records newest first.
  return out
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.ts - a.r.ts || a.i - b.i)
    .map((x) => x.r);
}

function size(kb: number | null): string {
  if (kb === null) {
    return '?';
  }
  return kb >= 1024 ? `${(kb / 1024).toFixed(kb >= 10240 ? 0 : 1)} MB` : `${kb} kB`;
}

/** One compact line per exit (time, reason/sub-reason, status or signal, process, importance, memory, description). */
export function formatExitInfoLine(r: ExitInfoRecord): string {
  const reason = r.subreason !== null && r.subreason !== 'UNKNOWN' ? `${r.reason}/${r.subreason}` : r.reason;
  const status = r.signal !== null ? `signal ${r.signal}` : r.status !== null ? `status ${r.status}` : '';
  const parts = [
    r.timestamp ?? '?',
    reason,
    status,
    `${r.process ?? r.package ?? '?'} (pid ${r.pid ?? '?'})`,
    r.importance !== null ? `importance ${r.importance_name ?? r.importance}` : '',
    r.pss_kb !== null || r.rss_kb !== null ? `pss ${size(r.pss_kb)} rss ${size(r.rss_kb)}` : '',
  ].filter((s) => s.length > 0);
  const line = parts.join('  ');
  return r.description !== null ? `${line}: ${r.description}` : line;
}

/** Compact lines, newest first, bounded, with a pointer to the crash tools when a crash or ANR is listed. */
export function summarizeExitInfo(
  records: readonly ExitInfoRecord[],
  limit = 20,
): { lines: string[]; total: number; failures: number; hint: string | null } {
  const shown = records.slice(0, Math.max(0, limit));
  const failures = shown.filter((r) => FAILURE_REASONS.has(r.reason)).length;
  return {
    lines: shown.map(formatExitInfoLine),
    total: records.length,
    failures,
    hint:
      failures > 0
        ? 'Crashes or ANRs are listed: get_crash_logs and get_crash_stack_trace show their stacks when logcat was streaming.'
        : null,
  };
}
