/**
 * Recorded files that are not logcat output, told apart so `sim logcat replay` puts each where a
 * phone keeps it instead of reading "0 entries" from them:
 *
 * - a tombstone (debuggerd's text report, `/data/tombstones/tombstone_NN`): starts with the
 *   `*** *** ***` banner and names its `Build fingerprint:`. crash_dump logs the same lines to the
 *   crash buffer as `F DEBUG` (system/core/debuggerd/libdebuggerd/tombstone.cpp, `_LOG` with
 *   `logtype::HEADER` …), and tombstoned logs where it wrote the file;
 * - an ART thread dump (the traces an ANR leaves in `/data/anr`): `----- pid N at DATE -----` and
 *   `DALVIK THREADS (N):` (art/runtime/thread_list.cc ThreadList::Dump), no log lines at all. Since
 *   Android 11 each ANR gets its own file, `anr_yyyy-MM-dd-HH-mm-ss-SSS` (StackTracesDumpHelper).
 */
import type { NewLogEntry } from './log-store.js';

export type RecordedKind = 'tombstone' | 'traces' | 'log';

const TOMBSTONE_BANNER = /^\*\*\* \*\*\* \*\*\* \*\*\* \*\*\* \*\*\* \*\*\* \*\*\* \*\*\* \*\*\*/m;
const TRACES = /^(?:----- pid \d+ at .+ -----|DALVIK THREADS \(\d+\):)$/m;

/** What a recorded file is: a tombstone, an ART thread dump, or log lines. */
export function recordedKind(text: string): RecordedKind {
  if (TOMBSTONE_BANNER.test(text) && /^Build fingerprint: /m.test(text)) {
    return 'tombstone';
  }
  return TRACES.test(text) ? 'traces' : 'log';
}

/** tombstoned's pid on the simulated devices (crashes.ts logs from the same one). */
export const TOMBSTONED_PID = 421;

/**
 * A tombstone's lines as crash_dump logs them (one `F DEBUG` entry per line in the crash buffer,
 * from crash_dump's pid), then tombstoned's note of the file in main — all stamped `now`.
 */
export function tombstoneEntries(text: string, dumperPid: number, file: string, now: number): NewLogEntry[] {
  const lines = text.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  const start = lines.findIndex((l) => TOMBSTONE_BANNER.test(l));
  return [
    ...lines.slice(Math.max(start, 0)).map((message): NewLogEntry => ({
      buffer: 'crash',
      time: now,
      pid: dumperPid,
      tid: dumperPid,
      uid: 0,
      priority: 'F',
      tag: 'DEBUG',
      message,
    })),
    {
      buffer: 'main',
      time: now + 1,
      pid: TOMBSTONED_PID,
      tid: TOMBSTONED_PID,
      uid: 1000,
      priority: 'E',
      tag: 'tombstoned',
      message: `Tombstone written to: ${file}`,
    },
  ];
}

/** `anr_2024-05-14-10-21-33-123`: the name Android 11+ gives an ANR's traces file. */
export function anrFileName(now: number): string {
  const d = new Date(now);
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `anr_${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}-${p(d.getUTCHours())}-${p(d.getUTCMinutes())}-${p(d.getUTCSeconds())}-${p(d.getUTCMilliseconds(), 3)}`;
}
