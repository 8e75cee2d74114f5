/**
 * Finds crashes in a stream of entries, across interleaved processes. A block opens on its first
 * line (AndroidRuntime `FATAL EXCEPTION`, DEBUG `*** *** ***`, ActivityManager `ANR in`, or a libc
 * `Fatal signal` awaiting its tombstone), collects the following lines of the same logging process,
 * and closes when that process logs something else, a new block starts, it goes idle (`tick`), or
 * the input ends (`flush`). While nothing is open the per-line cost is one level comparison.
 */
import type { Crash, CrashKind, LogEntry } from './logcat-types.js';
import {
  emptyNativeTrace,
  FRAME_LINE,
  parseAnr,
  parseFatalSignal,
  parseJavaTrace,
  parseTombstone,
  type NativeTrace,
} from './crash-trace.js';
import { packageOfProcess, type PidMap } from './pid-map.js';

/** A finished crash and the entries it was read from (to stamp their crash group). */
export interface DetectedCrash {
  crash: Crash;
  entries: LogEntry[];
}

/** Detector options. */
export interface CrashDetectorOptions {
  device?: string | null;
  /** Resolves pids to packages when a crash does not name its process. */
  pids?: PidMap | null;
  /** Most lines kept per crash (default 400); later lines are consumed but not kept. */
  maxLines?: number;
  /** A block is closed after this many other lines without one of its own (default 5,000). */
  idleLines?: number;
  /** Host clock for `received_at`. */
  now?: () => number;
}

interface Block {
  kind: CrashKind;
  pid: number;
  tid: number;
  tag: string;
  ts: number;
  entries: LogEntry[];
  truncated: boolean;
  lastLine: number;
  lastTick: number;
  /** Native blocks: a backtrace frame arrived (until then the block waits longer for the rest). */
  sawFrames: boolean;
}

interface PendingSignal {
  entry: LogEntry;
  trace: NativeTrace;
  lastLine: number;
  lastTick: number;
}

const RUNTIME = 'AndroidRuntime';

/**
 * Ticks (seconds) a libc `Fatal signal` waits for its tombstone, and a tombstone for its backtrace:
 * crash_dump has to attach to and unwind the process first, which on a loaded phone takes seconds, and
 * logd delivers its lines in bursts. Once the backtrace began, a tombstone ends like any block.
 */
const TOMBSTONE_WAIT_TICKS = 5;

function isJavaStart(message: string): boolean {
  return message.startsWith('FATAL EXCEPTION') || message.startsWith('*** FATAL EXCEPTION IN SYSTEM PROCESS');
}

function isTombstoneStart(message: string): boolean {
  return message.startsWith('*** *** ***');
}

/** Stateful crash detector for one device stream. */
export class CrashDetector {
  private readonly device: string | null;
  private readonly pids: PidMap | null;
  private readonly maxLines: number;
  private readonly idleLines: number;
  private readonly now: () => number;
  private readonly java = new Map<number, Block>();
  private readonly native = new Map<number, Block>();
  private readonly anr = new Map<number, Block>();
  private readonly signals = new Map<number, PendingSignal>();
  private open = 0;
  private lineNo = 0;
  private tickNo = 0;

  constructor(options: CrashDetectorOptions = {}) {
    this.device = options.device ?? null;
    this.pids = options.pids ?? null;
    this.maxLines = options.maxLines ?? 400;
    this.idleLines = options.idleLines ?? 5000;
    this.now = options.now ?? Date.now;
  }

  /** Blocks and pending signals not yet finished. */
  get pending(): number {
    return this.open;
  }

  /** Looks at one entry; finished crashes are appended to `out`. */
  feed(e: LogEntry, out: DetectedCrash[]): void {
    this.lineNo++;
    if (this.open > 0) {
      if (this.route(e, out)) {
        return;
      }
      if ((this.lineNo & 255) === 0) {
        this.expire(out, false);
      }
    }
    const lv = e.level;
    if (e.tag === 'chromium' && lv === 'I') {
      // A WebView's uncaught error is one line: a crash of its own kind, complete as it is read.
      const js = parseWebViewError(e.message);
      if (js !== null) {
        out.push({ crash: this.jsCrash(e, js), entries: [e] });
      }
      return;
    }
    if (lv === 'E' || lv === 'F' || (e.message.charCodeAt(0) === 42 && e.tag === 'DEBUG')) {
      this.start(e, out);
    }
  }

  /**
   * Call periodically (the actor's timer): blocks and pending signals that received nothing since
   * the previous tick are finished. A crash is complete at most two ticks after its last line; a libc
   * line waiting for its tombstone, or a tombstone for its backtrace, waits up to six.
   */
  tick(out: DetectedCrash[]): void {
    this.tickNo++;
    if (this.open > 0) {
      this.expire(out, true);
    }
  }

  /** Finishes everything open (end of input, stream stopped). */
  flush(out: DetectedCrash[]): void {
    for (const b of [...this.java.values(), ...this.anr.values(), ...this.native.values()]) {
      this.finish(b, out);
    }
    for (const [pid, s] of [...this.signals]) {
      this.signals.delete(pid);
      this.open--;
      out.push(this.nativeCrash(s.trace, [s.entry], false, s.entry));
    }
  }

  /** Drops all state (clear_logcat). */
  reset(): void {
    this.java.clear();
    this.native.clear();
    this.anr.clear();
    this.signals.clear();
    this.open = 0;
  }

  private start(e: LogEntry, out: DetectedCrash[]): void {
    const tag = e.tag;
    const m = e.message;
    if (tag === RUNTIME) {
      if (isJavaStart(m)) {
        this.openBlock('java', e, this.java);
      }
    } else if (tag === 'DEBUG') {
      if (isTombstoneStart(m)) {
        this.openBlock('native', e, this.native);
      }
    } else if (tag === 'libc') {
      const trace = emptyNativeTrace();
      if (parseFatalSignal(m, trace)) {
        // The crashing process logs this line itself; its own pid is the crashing pid.
        const pid = trace.pid > 0 ? trace.pid : e.pid;
        trace.pid = pid;
        const old = this.signals.get(pid);
        if (old !== undefined) {
          this.signals.delete(pid);
          this.open--;
          out.push(this.nativeCrash(old.trace, [old.entry], false, old.entry));
        }
        e.crash = 'native';
        e.category = 'crash';
        this.signals.set(pid, { entry: e, trace, lastLine: this.lineNo, lastTick: this.tickNo });
        this.open++;
      }
    } else if ((tag === 'ActivityManager' || tag === 'ActivityTaskManager') && m.startsWith('ANR in ')) {
      this.openBlock('anr', e, this.anr);
    }
  }

  private openBlock(kind: CrashKind, e: LogEntry, map: Map<number, Block>): void {
    const b: Block = {
      kind,
      pid: e.pid,
      tid: e.tid,
      tag: e.tag,
      ts: e.ts,
      entries: [],
      truncated: false,
      lastLine: this.lineNo,
      lastTick: this.tickNo,
      sawFrames: false,
    };
    map.set(e.pid, b);
    this.open++;
    this.add(b, e);
  }

  private add(b: Block, e: LogEntry): void {
    e.crash = b.kind;
    e.category = b.kind === 'anr' ? 'anr' : 'crash';
    b.lastLine = this.lineNo;
    b.lastTick = this.tickNo;
    if (b.kind === 'native' && !b.sawFrames && FRAME_LINE.test(e.message.trim())) {
      b.sawFrames = true;
    }
    if (b.entries.length < this.maxLines) {
      b.entries.push(e);
    } else {
      b.truncated = true;
    }
  }

  /** Adds `e` to the open block of its process; returns true when consumed. */
  private route(e: LogEntry, out: DetectedCrash[]): boolean {
    const pid = e.pid;
    const jb = this.java.get(pid);
    if (jb !== undefined) {
      if (e.tag === RUNTIME) {
        if (!isJavaStart(e.message)) {
          this.add(jb, e);
          return true;
        }
      }
      this.finish(jb, out);
    }
    const nb = this.native.get(pid);
    if (nb !== undefined) {
      if (e.tag === nb.tag && !isTombstoneStart(e.message)) {
        this.add(nb, e);
        return true;
      }
      this.finish(nb, out);
    }
    const ab = this.anr.get(pid);
    if (ab !== undefined) {
      // One ANR report is one log record: same tag and thread, same time (or a pasted continuation).
      if (
        e.tag === ab.tag &&
        e.tid === ab.tid &&
        (e.cont || e.ts === ab.ts) &&
        !e.message.startsWith('ANR in ')
      ) {
        this.add(ab, e);
        return true;
      }
      this.finish(ab, out);
    }
    return false;
  }

  private expire(out: DetectedCrash[], byTick: boolean): void {
    const stale = (lastLine: number, lastTick: number, waitTicks: number): boolean =>
      byTick
        ? lastTick < this.tickNo - waitTicks || this.lineNo - lastLine > this.idleLines
        : this.lineNo - lastLine > this.idleLines;
    for (const map of [this.java, this.anr, this.native]) {
      for (const b of [...map.values()]) {
        const wait = b.kind === 'native' && !b.sawFrames ? TOMBSTONE_WAIT_TICKS : 1;
        if (stale(b.lastLine, b.lastTick, wait)) {
          this.finish(b, out);
        }
      }
    }
    for (const [pid, s] of [...this.signals]) {
      if (stale(s.lastLine, s.lastTick, TOMBSTONE_WAIT_TICKS)) {
        this.signals.delete(pid);
        this.open--;
        out.push(this.nativeCrash(s.trace, [s.entry], false, s.entry));
      }
    }
  }

  private finish(b: Block, out: DetectedCrash[]): void {
    const map = b.kind === 'java' ? this.java : b.kind === 'native' ? this.native : this.anr;
    if (map.get(b.pid) !== b) {
      return;
    }
    map.delete(b.pid);
    this.open--;
    const messages = b.entries.map((e) => e.message);
    if (b.kind === 'java') {
      out.push({ crash: this.javaCrash(b, messages), entries: b.entries });
    } else if (b.kind === 'anr') {
      out.push({ crash: this.anrCrash(b, messages), entries: b.entries });
    } else {
      let trace = emptyNativeTrace();
      trace = parseTombstone(messages, trace);
      const signal = trace.pid > 0 ? this.signals.get(trace.pid) : undefined;
      let entries = b.entries;
      let first: LogEntry | undefined = b.entries[0];
      if (signal !== undefined) {
        this.signals.delete(trace.pid);
        this.open--;
        // The tombstone is authoritative; the libc line fills what it lacks.
        for (const k of ['signal', 'signal_code', 'fault_addr', 'thread'] as const) {
          trace[k] ??= signal.trace[k];
        }
        trace.signal_number ??= signal.trace.signal_number;
        entries = [signal.entry, ...b.entries];
        first = signal.entry;
      }
      out.push(this.nativeCrash(trace, entries, b.truncated, first));
    }
  }

  private base(kind: CrashKind, first: LogEntry | undefined, entries: LogEntry[], truncated: boolean): Crash {
    return {
      kind,
      seq: first?.seq ?? 0,
      device: this.device ?? first?.device ?? null,
      package: null,
      process: null,
      pid: -1,
      tid: first?.tid ?? -1,
      ts: first?.ts ?? 0,
      received_at: this.now(),
      thread: null,
      exception: null,
      message: null,
      frames: [],
      causes: [],
      suppressed: [],
      signal: null,
      signal_number: null,
      signal_code: null,
      fault_addr: null,
      abort_message: null,
      cause: null,
      abi: null,
      component: null,
      lines: entries.map((e) => e.message),
      truncated,
      group_id: null,
    };
  }

  private resolvePackage(process: string | null, pid: number, fallback: LogEntry | undefined): string | null {
    if (process !== null) {
      const pkg = packageOfProcess(process);
      if (pkg !== null) {
        return pkg;
      }
    }
    return (pid > 0 ? this.pids?.packageOf(pid) : null) ?? fallback?.package ?? null;
  }

  private javaCrash(b: Block, messages: string[]): Crash {
    const first = b.entries[0];
    const t = parseJavaTrace(messages);
    const c = this.base('java', first, b.entries, b.truncated);
    c.pid = t.pid > 0 ? t.pid : b.pid;
    c.process = t.process ?? this.pids?.processOf(c.pid) ?? null;
    c.package = this.resolvePackage(t.process, c.pid, first);
    c.thread = t.thread;
    if (t.top !== null) {
      c.exception = t.top.exception;
      c.message = t.top.message;
      c.frames = t.top.frames;
      c.suppressed = t.top.suppressed;
    }
    c.causes = t.causes;
    this.backfill(b.entries, c);
    return c;
  }

  private jsCrash(e: LogEntry, js: WebViewError): Crash {
    e.crash = 'js';
    e.category = 'crash';
    const c = this.base('js', e, [e], false);
    c.pid = e.pid;
    c.process = this.pids?.processOf(e.pid) ?? null;
    c.package = this.resolvePackage(null, e.pid, e);
    c.exception = js.exception;
    c.message = js.message;
    c.frames = js.source !== '' ? [`${js.source}:${js.line}`] : [];
    return c;
  }

  /** Lines logged before the crash named its process get the crash's package. */
  private backfill(entries: readonly LogEntry[], c: Crash): void {
    if (c.package === null) {
      return;
    }
    for (const e of entries) {
      if (e.package === null && e.pid === c.pid) {
        e.package = c.package;
      }
    }
  }

  private anrCrash(b: Block, messages: string[]): Crash {
    const first = b.entries[0];
    const t = parseAnr(messages);
    const c = this.base('anr', first, b.entries, b.truncated);
    c.pid = t.pid;
    c.process = t.process;
    c.package = this.resolvePackage(t.process, t.pid, undefined);
    c.component = t.component;
    c.message = t.reason;
    return c;
  }

  private nativeCrash(
    trace: NativeTrace,
    entries: LogEntry[],
    truncated: boolean,
    first: LogEntry | undefined,
  ): DetectedCrash {
    const c = this.base('native', first, entries, truncated);
    c.pid = trace.pid;
    c.tid = trace.tid;
    // Unnamed (an empty command line): what the device's process list says, else the crashing main
    // thread's name, which is the process's own (its last 15 characters).
    const listed = trace.pid > 0 ? this.pids?.processOf(trace.pid) : undefined;
    const mainThread = trace.pid > 0 && trace.tid === trace.pid ? trace.thread : null;
    c.process = trace.process ?? listed ?? mainThread;
    c.package = this.resolvePackage(trace.process, trace.pid, first?.tag === 'libc' ? first : undefined);
    c.thread = trace.thread;
    c.signal = trace.signal;
    c.signal_number = trace.signal_number;
    c.signal_code = trace.signal_code;
    c.fault_addr = trace.fault_addr;
    c.abort_message = trace.abort_message;
    c.cause = trace.cause;
    c.abi = trace.abi;
    c.frames = trace.frames;
    this.backfill(entries, c);
    return { crash: c, entries };
  }
}

/** An uncaught JavaScript error as a WebView logs it. */
export interface WebViewError {
  /** `TypeError`; `Error` when the message names none. */
  exception: string;
  message: string;
  /** The script's URL, '' when the line names none. */
  source: string;
  line: number;
}

/**
 * `[INFO:CONSOLE(53)] "Uncaught TypeError: x is not a function", source: file:///android_asset/a.html (53)`
 * — Android WebView logs console messages and uncaught errors under the tag chromium at INFO, the
 * uncaught ones starting `Uncaught ` (a phone's lines quoted in public projects); null for any
 * other console line.
 */
export function parseWebViewError(message: string): WebViewError | null {
  const m = /^\[INFO:CONSOLE\((\d+)\)\] "Uncaught (.*)", source: ?(.*?) ?\((\d+)\)$/s.exec(message);
  if (m === null) {
    return null;
  }
  const text = m[2]!;
  const named = /^([A-Z]\w*(?:Error|Exception)):\s*(.*)$/s.exec(text);
  return {
    exception: named?.[1] ?? 'Error',
    message: named?.[2] ?? text,
    source: m[3]!.trim(),
    line: Number(m[4]),
  };
}
