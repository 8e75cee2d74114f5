/**
 * ANR thread dumps as a user build keeps them: `dumpsys dropbox --print data_app_anr` (and
 * `system_app_anr`) prints each entry as DropBoxManagerService.dump does — a `====…` line, then
 * `<yyyy-MM-dd HH:mm:ss> <tag> (text, N bytes)`, then the text ActivityManagerService wrote
 * (`Process:`, `PID:`, `Subject:` headers, a blank line, the CPU report and the traces ART printed
 * between `----- pid N at … -----` and `----- end N -----`). Each thread of ART's dump starts with
 * `"name" [daemon] prio=N tid=N State`, then `| …` detail lines, frames (`at pkg.Cls.m(File.kt:1)`,
 * `native: #00 pc …` or `#00 pc …`) and lock lines (`- waiting to lock <0x…> (a Cls) held by thread
 * N`, `- locked <0x…>`, `- waiting on <0x…>`). Pure functions over text: no device here.
 *
 * Evidence: AOSP DropBoxManagerService.dump (aosp-mirror/platform_frameworks_base); ART thread
 * dumps pasted in public issue threads (tests/fixtures/anr/SOURCES.md).
 */
import type { AnrReport } from './logcat-types.js';

/** A thread of an ART dump. */
export interface AnrThread {
  name: string;
  tid: number;
  /** As ART prints it: Blocked, Waiting, TimedWaiting, Sleeping, Native, Runnable, Suspended… */
  state: string;
  /** Java frames without `at `, as printed (`pkg.Cls.m(File.kt:1)`). */
  frames: string[];
  /** The monitor it waits to lock, and the tid of the thread that holds it. */
  waiting_to_lock: { monitor: string; of: string; held_by: number | null } | null;
  /** Monitors it holds (`- locked <0x…>`). */
  locked: string[];
}

/** One ANR's dump of a process. */
export interface AnrDump {
  pid: number;
  /** When ART wrote it, as printed (`2024-01-10 10:23:40`), or null. */
  at: string | null;
  threads: AnrThread[];
}

/** One dropbox entry with its headers and the dumps in it. */
export interface DropboxAnr {
  tag: string;
  /** The entry's time as DropBoxManagerService printed it. */
  time: string;
  process: string | null;
  pid: number;
  subject: string | null;
  dumps: AnrDump[];
}

/** The most frames kept per thread. */
export const MAX_THREAD_FRAMES = 64;

const THREAD = /^"(.*)"(?: daemon)?(?: prio=\d+)? tid=(\d+) (\w+)/;
const WAITING = /^- waiting to lock <(0x[0-9a-f]+)> \(a ([^)]+)\)(?: held by (?:thread|tid=)\s*(\d+))?/;

/** The threads of one ART dump (the text between its `----- pid` and `----- end` lines, or a paste). */
export function parseThreads(text: string): AnrThread[] {
  const threads: AnrThread[] = [];
  let current: AnrThread | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const head = THREAD.exec(line);
    if (head !== null) {
      current = {
        name: head[1]!,
        tid: Number(head[2]),
        state: head[3]!,
        frames: [],
        waiting_to_lock: null,
        locked: [],
      };
      threads.push(current);
      continue;
    }
    if (current === null) {
      continue;
    }
    if (line.startsWith('at ')) {
      if (current.frames.length < MAX_THREAD_FRAMES) {
        // Play Console pastes put a space before the parenthesis: `Cls.m (File.java:43)`.
        current.frames.push(line.slice(3).replace(/ \(/, '('));
      }
      continue;
    }
    const waiting = WAITING.exec(line);
    if (waiting !== null) {
      current.waiting_to_lock = {
        monitor: waiting[1]!,
        of: waiting[2]!,
        held_by: waiting[3] !== undefined ? Number(waiting[3]) : null,
      };
      continue;
    }
    const locked = /^- locked <(0x[0-9a-f]+)>/.exec(line);
    if (locked !== null) {
      current.locked.push(locked[1]!);
    }
  }
  return threads;
}

/** The process dumps of a text: each `----- pid N at T -----` … `----- end N -----`; a bare paste is one of pid -1. */
export function parseDumps(text: string): AnrDump[] {
  const dumps: AnrDump[] = [];
  const re = /^----- pid (\d+) at (.+?) -----$([\s\S]*?)^----- end \1 -----$/gm;
  for (const m of text.matchAll(re)) {
    dumps.push({ pid: Number(m[1]), at: m[2]!.trim(), threads: parseThreads(m[3]!) });
  }
  if (dumps.length === 0) {
    const threads = parseThreads(text);
    if (threads.length > 0) {
      dumps.push({ pid: -1, at: null, threads });
    }
  }
  return dumps;
}

/** The ANR entries of `dumpsys dropbox --print <tag>` output, oldest first (as it prints them). */
export function parseDropboxAnrs(text: string): DropboxAnr[] {
  const out: DropboxAnr[] = [];
  for (const block of text.split(/^={40}$/m).slice(1)) {
    const head =
      /^\s*(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?) (\S+) \((?:compressed )?text, \d+ bytes\)$/m.exec(
        block,
      );
    if (head === null) {
      continue;
    }
    const header = (name: string): string | null =>
      new RegExp(`^${name}: (.*)$`, 'm').exec(block)?.[1]?.trim() ?? null;
    out.push({
      tag: head[2]!,
      time: head[1]!,
      process: header('Process'),
      pid: Number(header('PID') ?? -1),
      subject: header('Subject'),
      dumps: parseDumps(block),
    });
  }
  return out;
}

/** What an agent needs first of an ANR dump: the main thread, and the thread that blocks it. */
export interface AnrStacks {
  main: AnrThread;
  /** The thread holding the monitor the main thread waits to lock, when it does. */
  holder: AnrThread | null;
  /** True when the holder (or a thread it waits on, in turn) waits for a monitor the main thread holds. */
  deadlock: boolean;
}

/** The main thread (tid 1, or named "main") of a dump, with the thread holding what it waits for. */
export function anrStacks(dump: AnrDump): AnrStacks | null {
  const main = dump.threads.find((t) => t.tid === 1) ?? dump.threads.find((t) => t.name === 'main');
  if (main === undefined) {
    return null;
  }
  const byTid = new Map(dump.threads.map((t) => [t.tid, t]));
  const heldBy = main.waiting_to_lock?.held_by;
  const holder = heldBy !== null && heldBy !== undefined ? (byTid.get(heldBy) ?? null) : null;
  // Follow the chain of waits from the holder: back to the main thread is a deadlock.
  let deadlock = false;
  const seen = new Set<number>([main.tid]);
  for (let t: AnrThread | undefined = holder ?? undefined; t !== undefined;) {
    const next = t.waiting_to_lock?.held_by;
    if (next === null || next === undefined) {
      break;
    }
    if (next === main.tid) {
      deadlock = true;
      break;
    }
    if (seen.has(next)) {
      break;
    }
    seen.add(next);
    t = byTid.get(next);
  }
  return { main, holder, deadlock };
}

/** The stacks as trace lines (frames as `\tat …`, so a retrace reads them like a crash's). */
export function stacksText(s: AnrReport): string {
  const lock = s.main.waiting_to_lock;
  const lines = [
    `"${s.main.name}" tid=${s.main.tid} ${s.main.state}${lock ? ` — waiting to lock <${lock.monitor}> (a ${lock.of})${lock.held_by !== null ? ` held by thread ${lock.held_by}` : ''}` : ''}${s.deadlock ? ' — a deadlock' : ''}`,
    ...s.main.frames.map((f) => `\tat ${f}`),
  ];
  if (s.holder !== null) {
    lines.push(
      `"${s.holder.name}" tid=${s.holder.tid} ${s.holder.state} — holds <${lock?.monitor ?? '?'}>`,
      ...s.holder.frames.map((f) => `\tat ${f}`),
    );
  }
  return lines.join('\n');
}
