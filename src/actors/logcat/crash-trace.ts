/**
 * Reads the messages of one crash block into crash fields: a Java `FATAL EXCEPTION` (exception,
 * message, frames, `Caused by:` chain, `Suppressed:`, `... N more`), a native tombstone (pid/tid,
 * `>>> process <<<`, signal, code, fault address, abort message, backtrace), or an ANR (process,
 * component, pid, reason). Pure functions over strings; the detector decides which lines form a block.
 */
import type { JavaThrowable } from './logcat-types.js';

/** Most frames kept per throwable / backtrace. */
export const MAX_FRAMES = 256;

/** Fields read from a Java crash block. */
export interface JavaTrace {
  thread: string | null;
  process: string | null;
  pid: number;
  top: JavaThrowable | null;
  causes: JavaThrowable[];
}

/** Leading whitespace as a nesting level: a tab or four spaces (Studio's pastes) per level. */
function indentOf(line: string): { level: number; start: number } {
  let tabs = 0;
  let spaces = 0;
  let i = 0;
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 9) {
      tabs++;
    } else if (c === 32) {
      spaces++;
    } else {
      break;
    }
  }
  return { level: tabs + Math.floor(spaces / 4), start: i };
}

/** `pkg.Type: message` → type and message; null when the line does not start with a type name. */
export function splitThrowable(text: string): { exception: string; message: string | null } | null {
  const colon = text.indexOf(': ');
  const head = colon >= 0 ? text.slice(0, colon) : text.trimEnd();
  if (head.length === 0 || head.length > 300 || !/^[A-Za-z_$][\w$]*(?:[.$][\w$]+)*$/.test(head)) {
    return null;
  }
  // A bare word is only a type when it looks like one (`Exception`, `kotlin.KotlinNullPointerException`).
  if (!head.includes('.') && !/(?:Exception|Error|Throwable)$/.test(head)) {
    return null;
  }
  return { exception: head, message: colon >= 0 ? text.slice(colon + 2) : null };
}

function newThrowable(exception: string, message: string | null): JavaThrowable {
  return { exception, message, frames: [], more: 0, suppressed: [] };
}

const MORE = /^\.\.\. (\d+) more$/;

/** Parses the messages of an AndroidRuntime `FATAL EXCEPTION` block. */
export function parseJavaTrace(messages: readonly string[]): JavaTrace {
  const out: JavaTrace = { thread: null, process: null, pid: -1, top: null, causes: [] };
  let current: JavaThrowable | null = null;
  let suppressedOwner: JavaThrowable | null = null;
  let suppressedLevel = -1;
  let messageOpen = false;
  for (let i = 0; i < messages.length; i++) {
    const raw = messages[i] ?? '';
    const { level, start } = indentOf(raw);
    const line = start > 0 ? raw.slice(start) : raw;
    if (i === 0) {
      const fe = /FATAL EXCEPTION(?: IN SYSTEM PROCESS)?: (.*)$/.exec(line);
      if (fe !== null) {
        out.thread = fe[1] ?? null;
        if (line.includes('IN SYSTEM PROCESS')) {
          out.process = 'system_server';
        }
        continue;
      }
    }
    if (out.top === null && line.startsWith('Process: ')) {
      const m = /^Process: ([^,\s]+)(?:, PID: (\d+))?/.exec(line);
      if (m !== null) {
        out.process = m[1] ?? null;
        out.pid = m[2] !== undefined ? Number(m[2]) : -1;
      }
      continue;
    }
    if (line.startsWith('at ')) {
      messageOpen = false;
      if (current !== null && current.frames.length < MAX_FRAMES) {
        current.frames.push(line.slice(3));
      }
      continue;
    }
    const more = MORE.exec(line);
    if (more !== null) {
      messageOpen = false;
      if (current !== null) {
        current.more = Number(more[1]);
      }
      continue;
    }
    if (line.startsWith('Caused by: ')) {
      const t = splitThrowable(line.slice(11));
      if (t !== null) {
        const cause = newThrowable(t.exception, t.message);
        if (suppressedOwner !== null && level >= suppressedLevel && level > 0) {
          // A cause printed inside a suppressed exception belongs to it, not to the main chain.
          suppressedOwner.suppressed.push(cause);
        } else {
          suppressedOwner = null;
          out.causes.push(cause);
        }
        current = cause;
        messageOpen = true;
        continue;
      }
    }
    if (line.startsWith('Suppressed: ')) {
      const t = splitThrowable(line.slice(12));
      const owner = current ?? out.top;
      if (t !== null && owner !== null) {
        const s = newThrowable(t.exception, t.message);
        owner.suppressed.push(s);
        suppressedOwner = s;
        suppressedLevel = level;
        current = s;
        messageOpen = true;
        continue;
      }
    }
    if (out.top === null) {
      const t = splitThrowable(line);
      if (t !== null) {
        out.top = newThrowable(t.exception, t.message);
        current = out.top;
        messageOpen = true;
        continue;
      }
    }
    if (messageOpen && current !== null) {
      // A multi-line exception message continues until the first frame.
      current.message = current.message === null ? line : `${current.message}\n${line}`;
    }
  }
  return out;
}

/** Fields read from a native crash (tombstone lines and/or the libc `Fatal signal` line). */
export interface NativeTrace {
  pid: number;
  tid: number;
  thread: string | null;
  process: string | null;
  signal: string | null;
  signal_number: number | null;
  signal_code: string | null;
  fault_addr: string | null;
  abort_message: string | null;
  cause: string | null;
  abi: string | null;
  frames: string[];
}

/** An empty native trace. */
export function emptyNativeTrace(): NativeTrace {
  return {
    pid: -1,
    tid: -1,
    thread: null,
    process: null,
    signal: null,
    signal_number: null,
    signal_code: null,
    fault_addr: null,
    abort_message: null,
    cause: null,
    abi: null,
    frames: [],
  };
}

const SIGNAL_LINE = /^signal (\d+) \((\w+)\), code (-?\d+)(?: \((\w+)\))?(?:, fault addr (\S+))?/;
const PID_LINE = /^pid: (\d+), tid: (\d+)(?:, name: (.*?))?(?:\s+>>> (.*) <<<)?\s*$/;
/** A backtrace frame of a tombstone (`#00 pc 0004bd80  /apex/…/libc.so`), trimmed. */
export const FRAME_LINE = /^#\d+\s+pc\s+[0-9a-fA-F]+/;

/**
 * The libc line a crashing process logs itself. Forms seen: `Fatal signal 11 (SIGSEGV), code 1
 * (SEGV_MAPERR), fault addr 0x0 in tid 13445 (name), pid 13445 (name)`, the same without the code
 * name or the pid part, and the old `Fatal signal 11 (SIGSEGV) at 0x00000000 (code=1), thread 13692 (name)`.
 */
export function parseFatalSignal(message: string, into: NativeTrace): boolean {
  const m = /^Fatal signal (\d+) \((\w+)\)/.exec(message);
  if (m === null) {
    return false;
  }
  into.signal_number = Number(m[1]);
  into.signal = m[2] ?? null;
  const code = /, code (-?\d+)(?: \((\w+)\))?/.exec(message);
  if (code !== null) {
    into.signal_code = code[2] ?? code[1] ?? null;
  }
  const fault = /fault addr (\S+?)(?:,|\s|$)/.exec(message) ?? /\) at (0x[0-9a-fA-F]+)/.exec(message);
  if (fault !== null) {
    into.fault_addr = fault[1] ?? null;
  }
  const tid = /(?:in tid|thread) (\d+) \(([^)]*)\)?/.exec(message);
  if (tid !== null) {
    into.tid = Number(tid[1]);
    into.thread = tid[2] ?? null;
  }
  const pid = /, pid (\d+) \(/.exec(message);
  if (pid !== null) {
    into.pid = Number(pid[1]);
  }
  return true;
}

/** Parses the messages of a DEBUG tombstone block into `into` (which may hold the libc line's facts). */
export function parseTombstone(messages: readonly string[], into: NativeTrace): NativeTrace {
  let inBacktrace = false;
  let backtraceDone = false;
  let sawPidLine = false;
  for (const raw of messages) {
    const line = raw.trim();
    if (line.length === 0) {
      if (inBacktrace && into.frames.length > 0) {
        inBacktrace = false;
        backtraceDone = true;
      }
      continue;
    }
    if (inBacktrace) {
      if (FRAME_LINE.test(line)) {
        if (into.frames.length < MAX_FRAMES) {
          into.frames.push(line);
        }
        continue;
      }
      inBacktrace = false;
      backtraceDone = into.frames.length > 0;
    }
    if (line === 'backtrace:' || /^\d+ total frames$/.test(line)) {
      if (!backtraceDone) {
        inBacktrace = true;
      }
      continue;
    }
    const pid = PID_LINE.exec(line);
    if (pid !== null) {
      // A file tombstone repeats the pid line for every other thread it dumps: the first is the crash's.
      if (!sawPidLine) {
        sawPidLine = true;
        readPidLine(pid, into);
      }
      continue;
    }
    const sig = SIGNAL_LINE.exec(line);
    if (sig !== null) {
      into.signal_number = Number(sig[1]);
      into.signal = sig[2] ?? null;
      into.signal_code = sig[4] ?? sig[3] ?? null;
      if (sig[5] !== undefined) {
        into.fault_addr = sig[5].replace(/,$/, '');
      }
      continue;
    }
    if (line.startsWith('Abort message: ')) {
      into.abort_message = line.slice(15).replace(/^'/, '').replace(/'$/, '');
    } else if (line.startsWith('Cause: ')) {
      into.cause = line.slice(7);
    } else if (line.startsWith("ABI: '")) {
      into.abi = line.slice(6, -1);
    } else if (line.startsWith('Cmdline: ') && into.process === null) {
      into.process = line.slice(9).trim() || null;
    }
  }
  return into;
}

/**
 * `pid: P, tid: T, name: THREAD  >>> PROCESS <<<`. An empty process (debuggerd prints `>>>  <<<` and an
 * empty `Cmdline:` for a process whose command line is empty) stays unknown here, not "".
 */
function readPidLine(m: RegExpExecArray, into: NativeTrace): void {
  into.pid = Number(m[1]);
  into.tid = Number(m[2]);
  into.thread = (m[3] ?? '').trim() || into.thread;
  into.process = (m[4] ?? '').trim() || into.process;
}

/** Fields read from an ANR block. */
export interface AnrTrace {
  process: string | null;
  component: string | null;
  pid: number;
  reason: string | null;
}

/** Parses `ANR in pkg (pkg/.Act)`, `PID: n`, `Reason: …` from an ActivityManager ANR block. */
export function parseAnr(messages: readonly string[]): AnrTrace {
  const out: AnrTrace = { process: null, component: null, pid: -1, reason: null };
  for (const raw of messages) {
    const line = raw.trim();
    if (line.startsWith('ANR in ')) {
      const m = /^ANR in (\S+)(?: \((\S+)\))?/.exec(line);
      if (m !== null) {
        out.process = m[1] ?? null;
        out.component = m[2] ?? null;
      }
    } else if (line.startsWith('PID: ') && out.pid < 0) {
      out.pid = Number(line.slice(5)) || -1;
    } else if (line.startsWith('Reason: ') && out.reason === null) {
      out.reason = line.slice(8);
    }
  }
  return out;
}
