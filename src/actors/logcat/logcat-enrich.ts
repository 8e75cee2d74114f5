/**
 * Per-line enrichment: package (from the line, else the pid map), category, a trailing JSON payload,
 * and `Displayed` / `Fully drawn` launch times. It also keeps the pid map current from the lifecycle
 * lines it reads. The common path is a tag lookup, a pid lookup and a few character checks; message
 * regexes run only for the handful of tags that need them.
 */
import type { LaunchTime, LogCategory, LogEntry } from './logcat-types.js';
import { PidMap } from './pid-map.js';

const TAG_CATEGORY = new Map<string, LogCategory>([
  ['AndroidRuntime', 'crash'],
  ['DEBUG', 'crash'],
  ['libc', 'crash'],
  ['crash_dump64', 'crash'],
  ['crash_dump32', 'crash'],
  ['tombstoned', 'crash'],
  ['/system/bin/tombstoned', 'crash'],
  ['ActivityManager', 'lifecycle'],
  ['ActivityTaskManager', 'lifecycle'],
  ['Zygote', 'lifecycle'],
  ['Process', 'lifecycle'],
  ['OkHttp', 'network'],
  ['okhttp.OkHttpClient', 'network'],
  ['NetworkSecurityConfig', 'network'],
  ['ConnectivityManager', 'network'],
  ['ConnectivityService', 'network'],
  ['NetworkMonitor', 'network'],
  ['DnsResolver', 'network'],
  ['Volley', 'network'],
  ['Choreographer', 'jank'],
  ['StrictMode', 'strictmode'],
]);

/** Tags whose messages carry process lifecycle or launch facts. */
const AM_TAGS = new Set(['ActivityManager', 'ActivityTaskManager']);

/** Longest message the JSON detector looks at. */
export const MAX_JSON_CHARS = 16_384;

const START_PROC_NEW = /^Start proc (\d+):([^/\s]+)\//;
const START_PROC_OLD = /^Start proc ([^\s]+) for .*?: pid=(\d+)/;
const RUNTIME_PROCESS = /^Process: ([^,\s]+), PID: (\d+)/;
const KILLING = /^Killing (\d+):([^/\s]+)\//;
const HAS_DIED = /^Process (\S+) \(pid (\d+)\) has died/;
const NO_LONGER_WANT = /^No longer want (\S+) \(pid (\d+)\)/;
const LAUNCH = /^(Displayed|Fully drawn) (\S+?)(?: for user \d+)?: \+(\S+?)(?: \(total \+(\S+?)\))?\s*$/;
const DURATION_PART = /(\d+)(ms|d|h|m|s)/g;

/** `+1s234ms`-style durations (android.util.TimeUtils.formatDuration) to ms; NaN when unreadable. */
export function parseDurationMs(text: string): number {
  let total = 0;
  let matched = 0;
  DURATION_PART.lastIndex = 0;
  for (let m = DURATION_PART.exec(text); m !== null; m = DURATION_PART.exec(text)) {
    const v = Number(m[1]);
    matched += (m[0] ?? '').length;
    switch (m[2]) {
      case 'd':
        total += v * 86_400_000;
        break;
      case 'h':
        total += v * 3_600_000;
        break;
      case 'm':
        total += v * 60_000;
        break;
      case 's':
        total += v * 1000;
        break;
      default:
        total += v;
    }
  }
  return matched === text.length && matched > 0 ? total : NaN;
}

/** Reads `Displayed com.pkg/.Main for user 0: +812ms` and the other real forms; null otherwise. */
export function parseLaunchTime(message: string): LaunchTime | null {
  const m = LAUNCH.exec(message);
  if (m === null) {
    return null;
  }
  const component = m[2] ?? '';
  const slash = component.indexOf('/');
  if (slash <= 0) {
    return null;
  }
  const pkg = component.slice(0, slash);
  const cls = component.slice(slash + 1);
  const ms = parseDurationMs(m[3] ?? '');
  if (Number.isNaN(ms)) {
    return null;
  }
  const totalText = m[4];
  const total = totalText === undefined ? null : parseDurationMs(totalText);
  return {
    kind: m[1] === 'Displayed' ? 'displayed' : 'fully_drawn',
    package: pkg,
    component,
    activity: cls.startsWith('.') ? pkg + cls : cls,
    ms,
    total_ms: total === null || Number.isNaN(total) ? null : total,
  };
}

function plausibleJsonStart(s: string, i: number, depth: number): boolean {
  let j = i + 1;
  const n = s.length;
  while (j < n && (s.charCodeAt(j) === 32 || s.charCodeAt(j) === 9)) {
    j++;
  }
  if (j >= n) {
    return false;
  }
  const c = s.charCodeAt(j);
  if (s.charCodeAt(i) === 123) {
    return c === 34 || c === 125; // `"` or `}`
  }
  if (c === 123) {
    return depth < 1 && plausibleJsonStart(s, j, depth + 1);
  }
  // `[` followed by `"`, `[`, `]`, a digit, `-`, or true/false/null.
  return (
    c === 34 ||
    c === 91 ||
    c === 93 ||
    (c >= 48 && c <= 57) ||
    c === 45 ||
    c === 116 ||
    c === 102 ||
    c === 110
  );
}

/**
 * The JSON object or array a message is or ends with, parsed; null when there is none. Only
 * messages ending in `}` or `]` are looked at, and only candidate starts that can begin JSON are
 * tried (at most four), so `Intent { act=… }` costs two character checks.
 */
export function extractJson(message: string): unknown {
  const n = message.length;
  if (n < 2 || n > MAX_JSON_CHARS) {
    return null;
  }
  const last = message.charCodeAt(n - 1);
  if (last !== 125 && last !== 93) {
    return null;
  }
  let from = 0;
  for (let attempt = 0; attempt < 4; attempt++) {
    const a = message.indexOf('{', from);
    const b = message.indexOf('[', from);
    const i = a < 0 ? b : b < 0 ? a : Math.min(a, b);
    if (i < 0) {
      return null;
    }
    if (plausibleJsonStart(message, i, 0)) {
      try {
        return JSON.parse(i === 0 ? message : message.slice(i)) as unknown;
      } catch {
        // not JSON from here; try the next candidate
      }
    }
    from = i + 1;
  }
  return null;
}

function isGcMessage(m: string): boolean {
  const c = m.charCodeAt(0);
  // ART: `Background concurrent copying GC freed …`, `Explicit concurrent …`, `Alloc …`; Dalvik: `GC_…`.
  if (c === 66 || c === 69 || c === 65 || c === 87) {
    return m.includes(' GC freed') || m.startsWith('WaitForGcToComplete');
  }
  return c === 71 && (m.startsWith('GC_') || m.startsWith('GC freed'));
}

/** Options for the enricher. */
export interface EnricherOptions {
  /** The pid map to use and keep current (shared with the crash detector). */
  pids?: PidMap;
  /** Parse JSON payloads (default true). */
  json?: boolean;
}

/** Enriches entries in place and learns pid → package from them. */
export class LogEnricher {
  readonly pids: PidMap;
  private readonly json: boolean;

  constructor(options: EnricherOptions = {}) {
    this.pids = options.pids ?? new PidMap();
    this.json = options.json ?? true;
  }

  /** Fills package, category, json and launch on `e`. */
  enrich(e: LogEntry): void {
    const tag = e.tag;
    const message = e.message;
    let category = TAG_CATEGORY.get(tag) ?? null;
    if (category !== null) {
      if (category === 'lifecycle') {
        category = this.lifecycle(e, tag, message);
      } else if (category === 'crash' && tag === 'AndroidRuntime' && message.charCodeAt(0) === 80) {
        const m = RUNTIME_PROCESS.exec(message);
        if (m !== null) {
          this.pids.set(Number(m[2]), m[1] ?? '');
        }
      } else if (category === 'jank' && !message.startsWith('Skipped ')) {
        category = null;
      }
    } else if (tag.length === 0) {
      category = this.studioProcess(e, message);
    } else if (isGcMessage(message)) {
      category = 'gc';
    } else if (message.charCodeAt(0) === 68 && message.startsWith('Davey!')) {
      category = 'jank';
    }
    e.category = category;
    if (e.package === null) {
      if (e.pid > 0) {
        e.package = this.pids.packageOf(e.pid);
      }
    } else if (e.pid > 0 && this.pids.processOf(e.pid) !== e.package) {
      // Studio copies name the package per line: learn it for the lines that do not.
      this.pids.set(e.pid, e.package);
    }
    if (this.json) {
      const last = message.charCodeAt(message.length - 1);
      if (last === 125 || last === 93) {
        e.json = extractJson(message);
      }
    }
  }

  private lifecycle(e: LogEntry, tag: string, message: string): LogCategory {
    if (!AM_TAGS.has(tag)) {
      return 'lifecycle';
    }
    switch (message.charCodeAt(0)) {
      case 83: {
        // S: `Start proc 1234:com.pkg/u0a123 for …`, or before Android 8 `Start proc com.pkg for …: pid=1234`.
        if (message.startsWith('Start proc ')) {
          const m = START_PROC_NEW.exec(message) ?? null;
          if (m !== null) {
            this.pids.set(Number(m[1]), m[2] ?? '');
          } else {
            const o = START_PROC_OLD.exec(message);
            if (o !== null) {
              this.pids.set(Number(o[2]), o[1] ?? '');
            }
          }
        }
        return 'lifecycle';
      }
      case 68:
        // D: `Displayed …`
        if (message.startsWith('Displayed ')) {
          e.launch = parseLaunchTime(message);
          return e.launch !== null ? 'launch' : 'lifecycle';
        }
        return 'lifecycle';
      case 70:
        // F: `Fully drawn …`
        if (message.startsWith('Fully drawn ')) {
          e.launch = parseLaunchTime(message);
          return e.launch !== null ? 'launch' : 'lifecycle';
        }
        return 'lifecycle';
      case 65:
        return message.startsWith('ANR in ') ? 'anr' : 'lifecycle';
      case 75: {
        // K: `Killing 1234:com.pkg/u0a123 (adj 900): empty #17`
        const m = KILLING.exec(message);
        if (m !== null) {
          this.pids.set(Number(m[1]), m[2] ?? '');
        }
        return 'lifecycle';
      }
      case 80:
      case 78: {
        // P / N: `Process com.pkg (pid 1234) has died`, `No longer want com.pkg (pid 1234): empty for 1805s`.
        // The process is gone, but its last lines may still be arriving: they keep their package.
        const m = HAS_DIED.exec(message) ?? NO_LONGER_WANT.exec(message);
        if (m !== null) {
          this.pids.set(Number(m[2]), m[1] ?? '');
        }
        return 'lifecycle';
      }
      default:
        return 'lifecycle';
    }
  }

  /** Studio's `PROCESS STARTED (2155) for package com.pkg` lines (tag-less entries from the parser). */
  private studioProcess(e: LogEntry, message: string): LogCategory | null {
    if (message.startsWith('PROCESS ') && e.package !== null) {
      if (message.startsWith('PROCESS STARTED (')) {
        this.pids.set(e.pid, e.package);
      }
      return 'lifecycle';
    }
    return null;
  }
}
