/**
 * The plain-data shapes of the logcat core. Everything here is structured-clone safe: entries, crashes
 * and groups cross from the logcat actor's worker thread to the MCP frontend as they are.
 */

/** Logcat priority letters, lowest first. `A` (assert) is folded into `F`, as logcat prints it. */
export type LogLevel = 'V' | 'D' | 'I' | 'W' | 'E' | 'F';

/** Ranks for comparing levels: V=2 … F=7, matching android.util.Log priorities. */
export const LEVEL_RANK: Readonly<Record<LogLevel, number>> = { V: 2, D: 3, I: 4, W: 5, E: 6, F: 7 };

/** Levels in ascending order. */
export const LEVELS: readonly LogLevel[] = ['V', 'D', 'I', 'W', 'E', 'F'];

/** What a line is about, when it is about something worth filtering on. */
export type LogCategory = 'crash' | 'anr' | 'lifecycle' | 'launch' | 'network' | 'gc' | 'jank' | 'strictmode';

/** The kinds of crash the detector recognises. */
/** `js`: an uncaught JavaScript error a WebView handed to logcat (tag chromium). */
export type CrashKind = 'java' | 'native' | 'anr' | 'js';

/** A `Displayed` or `Fully drawn` launch time read from ActivityManager/ActivityTaskManager. */
export interface LaunchTime {
  /** `Displayed` or `Fully drawn`. */
  kind: 'displayed' | 'fully_drawn';
  package: string;
  /** The component as logged, e.g. `com.example/.MainActivity`. */
  component: string;
  /** The activity class with the package's shorthand expanded, e.g. `com.example.MainActivity`. */
  activity: string;
  ms: number;
  /** The `(total +…)` figure when the line has one. */
  total_ms: number | null;
}

/**
 * One logcat line after parsing and enrichment. A multi-line message is one entry per line, as
 * logcat prints it; `cont` marks lines that continue the previous entry's log record.
 */
export interface LogEntry {
  /** Position in the store (assigned on insertion; 0 before). Increases by one per stored entry. */
  seq: number;
  /** Device time as epoch ms (host time zone assumed for formats without a zone), or 0 when unknown. */
  ts: number;
  /** Process id, or -1 when the format has none. */
  pid: number;
  /** Thread id, or -1 when the format has none. */
  tid: number;
  level: LogLevel;
  tag: string;
  message: string;
  /** Application package owning the process, from the line itself or the pid map; null when unknown. */
  package: string | null;
  category: LogCategory | null;
  /** Set when the line belongs to a detected crash block. */
  crash: CrashKind | null;
  /** The crash group of that block, once the crash is complete. */
  crash_group: string | null;
  /** A JSON object or array the message is or ends with, parsed. */
  json: unknown;
  launch: LaunchTime | null;
  /** The device serial the line came from, or null when not known (a pasted file). */
  device: string | null;
  /** The logcat buffer named by the last `--------- beginning of X` separator, or null. */
  buffer: string | null;
  /** True when this line continues the previous line's log record (same header, or an indented paste). */
  cont: boolean;
}

/** One throwable in a Java crash: the top-level exception, a `Caused by:` or a `Suppressed:`. */
export interface JavaThrowable {
  exception: string;
  message: string | null;
  /** Frames without the leading `at `, e.g. `com.example.Foo.bar(Foo.kt:12)`. */
  frames: string[];
  /** The `... N more` count, 0 when absent. */
  more: number;
  suppressed: JavaThrowable[];
}

/** A crash read from the log: a Java `FATAL EXCEPTION`, a native tombstone, or an ANR. */
export interface Crash {
  kind: CrashKind;
  /** Store seq of the crash's first line, or 0 when it was never stored. */
  seq: number;
  device: string | null;
  /** Application package, when known. */
  package: string | null;
  /** Process name as the crash names it (may carry a `:suffix`). */
  process: string | null;
  pid: number;
  tid: number;
  /** Device time of the first line as epoch ms, 0 when unknown. */
  ts: number;
  /** Host time when the crash was completed. */
  received_at: number;
  /** Java: the thread named by `FATAL EXCEPTION:`; native: the thread name from `pid: …, name:`. */
  thread: string | null;
  /** Java: the top-level exception type. */
  exception: string | null;
  /** Java: the top-level exception message; ANR: the reason. */
  message: string | null;
  /** Java: top-level frames; native: backtrace lines (`#00 pc …`) without the leading spaces. */
  frames: string[];
  /** Java: the `Caused by:` chain, outermost first. */
  causes: JavaThrowable[];
  suppressed: JavaThrowable[];
  /** Native: e.g. `SIGSEGV`. */
  signal: string | null;
  signal_number: number | null;
  /** Native: e.g. `SEGV_MAPERR`. */
  signal_code: string | null;
  fault_addr: string | null;
  abort_message: string | null;
  /** Native `Cause:` line, e.g. `null pointer dereference`. */
  cause: string | null;
  abi: string | null;
  /** ANR: the component in `ANR in pkg (component)`. */
  component: string | null;
  /** The messages of the crash's lines, as logcat printed them (bounded). */
  lines: string[];
  /** True when lines past the bound were left out. */
  truncated: boolean;
  /** Stable group id, set by CrashGroups. */
  group_id: string | null;
  /** ANR: its threads, read from the report the device kept (anr-stacks.ts), when it kept one. */
  anr?: AnrReport;
}

/** A thread of an ANR report: its top frames and the monitor it waits for. */
export interface AnrThreadInfo {
  name: string;
  tid: number;
  state: string;
  frames: string[];
  waiting_to_lock: { monitor: string; of: string; held_by: number | null } | null;
}

/** An ANR's main thread and the thread that holds what it waits for (src/bus/messages/logcat.ts anrStacksSchema). */
export interface AnrReport {
  source: string;
  main: AnrThreadInfo;
  holder: AnrThreadInfo | null;
  deadlock: boolean;
}

/** Aggregated identical crashes. */
export interface CrashGroup {
  id: string;
  kind: CrashKind;
  /** The text the id hashes. */
  signature: string;
  /** One line for people: `java.lang.IllegalStateException at com.example.Foo.bar(Foo.kt:12)`. */
  title: string;
  count: number;
  first_seen: number;
  last_seen: number;
  packages: string[];
  devices: string[];
  /** The most recent crash of the group. */
  latest: Crash;
}
