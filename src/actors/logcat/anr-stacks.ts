/**
 * The threads of an ANR, read where a user build keeps them: logcat says only the reason and CPU
 * use, so for every ANR in a crash answer the logcat actor reads the device's ANR reports
 * (`dumpsys dropbox --print data_app_anr`, then `system_app_anr` for what it did not find), finds
 * the one of the ANR's pid and process, and adds the main thread, the thread holding what it waits
 * for, and whether that is a deadlock — to the crash's fields and to its trace, so a retrace
 * deobfuscates those frames with the rest. A report found is kept (it never changes); a device
 * that cannot be read leaves the ANR as logcat told it.
 */
import { READS, readCommand, type DeviceRead } from '../../device/reads.js';
import type { Device } from '../../device/device.js';
import type { CrashWire } from '../../bus/messages/logcat.js';
import {
  anrStacks,
  parseDropboxAnrs,
  parseDumps,
  stacksText,
  type AnrThread,
  type DropboxAnr,
} from './anr-trace.js';
import type { AnrReport, AnrThreadInfo } from './logcat-types.js';

/** Frames an answer gives of the main thread, and of the thread that holds its monitor. */
const MAIN_FRAMES = 24;
const HOLDER_FRAMES = 12;
/** Reports kept by device and pid. */
const CACHE_LIMIT = 256;
const READ_OPTIONS = { timeoutMs: 20_000, maxBytes: 16 * 1024 * 1024 };

/** The reports found so far, by `device|pid` (the logcat actor keeps one). */
export type AnrStacksCache = Map<string, AnrReport>;

function threadWire(t: AnrThread, frames: number): AnrThreadInfo {
  return {
    name: t.name.slice(0, 200),
    tid: t.tid,
    state: t.state.slice(0, 40),
    frames: t.frames.slice(0, frames).map((f) => f.slice(0, 1_000)),
    waiting_to_lock: t.waiting_to_lock,
  };
}

/** The report of `pid` (its process named `process`) among the entries, as the answer gives it. */
export function stacksOf(
  entries: readonly DropboxAnr[],
  pid: number,
  process: string | null,
): AnrReport | null {
  // The newest report of the pid wins (a pid is reused only long after).
  for (const entry of [...entries].reverse()) {
    if (entry.pid !== pid || (process !== null && entry.process !== null && entry.process !== process)) {
      continue;
    }
    const dump = entry.dumps.find((d) => d.pid === pid) ?? entry.dumps[0];
    const stacks = dump ? anrStacks(dump) : null;
    if (stacks !== null) {
      return {
        source: `dropbox ${entry.tag} ${entry.time}`,
        main: threadWire(stacks.main, MAIN_FRAMES),
        holder: stacks.holder ? threadWire(stacks.holder, HOLDER_FRAMES) : null,
        deadlock: stacks.deadlock,
      };
    }
  }
  return null;
}

async function readReports(device: Device, read: DeviceRead, signal: AbortSignal): Promise<DropboxAnr[]> {
  try {
    const out = await device.shell(readCommand(read), { ...READ_OPTIONS, signal });
    return parseDropboxAnrs(out.stdout);
  } catch {
    return []; // Gone, or no dropbox service: the ANR stays as logcat told it.
  }
}

/**
 * The dump of `pid` among the files of /data/anr (`cat` of them all: ART's `traces` files and the
 * `anr_*` files of newer releases), as a report; null when there is none or the shell may not read
 * them (a user build: only root and system may).
 */
export function stacksFromFiles(text: string, pid: number): AnrReport | null {
  const dumps = parseDumps(text).filter((d) => d.pid === pid);
  const dump = dumps.at(-1);
  const stacks = dump ? anrStacks(dump) : null;
  return stacks === null
    ? null
    : {
        source: `/data/anr (pid ${pid} at ${dump!.at ?? '?'})`,
        main: threadWire(stacks.main, MAIN_FRAMES),
        holder: stacks.holder ? threadWire(stacks.holder, HOLDER_FRAMES) : null,
        deadlock: stacks.deadlock,
      };
}

/**
 * What a device kept of its ANRs, read once: the dropbox's reports (app ANRs, then system apps'),
 * then — read only when asked for a pid the dropbox does not have — ART's dumps in /data/anr where
 * the shell may read them (an emulator after `adb root`, a rooted phone; `Permission denied` on a
 * user build). `find(pid, process)` answers the report of an ANR, or null.
 */
export function deviceReports(
  device: Device,
  signal: AbortSignal,
): { find(pid: number, process: string | null): Promise<AnrReport | null> } {
  const dropbox = new Map<DeviceRead, Promise<DropboxAnr[]>>();
  let files: Promise<string> | null = null;
  const entries = (read: DeviceRead): Promise<DropboxAnr[]> => {
    let p = dropbox.get(read);
    if (p === undefined) {
      p = readReports(device, read, signal);
      dropbox.set(read, p);
    }
    return p;
  };
  return {
    async find(pid, process) {
      for (const read of [READS.dropboxAppAnr, READS.dropboxSystemAnr]) {
        const found = stacksOf(await entries(read), pid, process);
        if (found !== null) {
          return found;
        }
      }
      files ??= device
        .shell(readCommand(READS.anrFiles), { ...READ_OPTIONS, signal })
        .then((out) => out.stdout)
        .catch(() => '');
      return stacksFromFiles(await files, pid);
    },
  };
}

/** The report the device kept of the ANR of `pid` (deviceReports), or null. */
export function readAnrReport(
  device: Device,
  pid: number,
  process: string | null,
  signal: AbortSignal,
): Promise<AnrReport | null> {
  return deviceReports(device, signal).find(pid, process);
}

/** `c` with its ANR report: the `anr` field, and the threads after its trace (what a retrace reads). */
export function withReport(c: CrashWire, anr: AnrReport): CrashWire {
  return { ...c, anr, trace: `${c.trace}\n${stacksText(anr)}` };
}

/**
 * `crashes` with the reports of the ANRs that were filed without one (the device was slow, or the
 * store was restored from before): each device's reports read once per call, a report found kept.
 */
export async function withAnrStacks(
  crashes: readonly CrashWire[],
  cache: AnrStacksCache,
  deviceOf: (serial: string) => Device,
  signal: AbortSignal,
): Promise<CrashWire[]> {
  const devices = new Map<string, ReturnType<typeof deviceReports>>();
  const out: CrashWire[] = [];
  for (const c of crashes) {
    if (c.kind !== 'anr' || c.anr !== undefined || c.device === null || c.pid <= 0) {
      out.push(c);
      continue;
    }
    const key = `${c.device}|${c.pid}`;
    let found = cache.get(key) ?? null;
    if (found === null) {
      let reports = devices.get(c.device);
      if (reports === undefined) {
        reports = deviceReports(deviceOf(c.device), signal);
        devices.set(c.device, reports);
      }
      found = await reports.find(c.pid, c.process ?? c.package);
      if (found !== null) {
        remember(cache, key, found);
      }
    }
    out.push(found === null ? c : withReport(c, found));
  }
  return out;
}

/** Keeps a report found (the oldest go past CACHE_LIMIT). */
export function remember(cache: AnrStacksCache, key: string, report: AnrReport): void {
  if (cache.size >= CACHE_LIMIT) {
    cache.delete(cache.keys().next().value!);
  }
  cache.set(key, report);
}
