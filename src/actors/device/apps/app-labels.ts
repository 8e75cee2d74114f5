/**
 * The labels `list_apps` prints, read from each app's base APK on the device in ranges (the zip's
 * end with `tail -c`, the manifest and resource table with `dd`; see util/apk-label.ts), a few apps
 * at a time, within a byte and time budget per request — bytes counted before each read is asked for,
 * so four reads in flight cannot together pass it (a 48 MB resource table is refused, not read, when
 * the budget has less left). A label read once is kept (in the device
 * actor's `LabelCache`) for the APK (path and update time) and locale, so the next listing costs
 * nothing for it.
 */
import { APK_BLOCK_BYTES, READS, readCommand } from '../../../device/reads.js';
import { readApkLabel, type ApkRangeReader } from '../../../util/apk-label.js';
import { END_RECORD_SEARCH_BYTES } from '../../../util/apk-zip.js';
import type { Device } from '../../../device/device.js';

/** An app whose label to read. */
export interface LabelTarget {
  package: string;
  /** Its base APK, from `pm list packages -f`. */
  apk: string;
  /** Changes when the app is updated (the cache key's part that says the APK changed). */
  lastUpdate: string | null;
}

export interface LabelBudget {
  /** Bytes moved from the device for labels in one request. */
  bytes: number;
  /** Time spent reading labels in one request, ms. */
  ms: number;
}

export const DEFAULT_LABEL_BUDGET: LabelBudget = { bytes: 96 * 1024 * 1024, ms: 20_000 };

/** Apps read at once: adb multiplexes the streams over one transport. */
const CONCURRENCY = 4;
const CACHE_LIMIT = 4096;

/** One device's labels by APK, update time and locale; null is a label the APK does not have (or a read that failed). */
export type LabelCache = Map<string, string | null>;

/** Reads an APK on the device in ranges: its end with `tail -c`, blocks with `dd`. */
export function deviceApkReader(device: Device, apk: string, signal: AbortSignal): ApkRangeReader {
  const run = async (command: ReturnType<typeof readCommand>): Promise<Uint8Array> => {
    // Shell v2 keeps dd's transfer report (stderr) out of the bytes.
    const r = await device.shellBytes(command, { signal, timeoutMs: 30_000 });
    if (r.exitCode !== null && r.exitCode !== 0) {
      throw new Error(r.stderr.toString('utf8').trim() || `exit ${r.exitCode}`);
    }
    return r.stdout;
  };
  return {
    tail: async () => run(readCommand(READS.apkTail, { apk })),
    range: async (offset, length) => {
      const skip = Math.floor(offset / APK_BLOCK_BYTES);
      const count = Math.ceil((offset + length) / APK_BLOCK_BYTES) - skip;
      const blocks = await run(
        readCommand(READS.apkBlocks, { apk, skip: String(skip), count: String(count) }),
      );
      const from = offset - skip * APK_BLOCK_BYTES;
      return blocks.subarray(from, from + length);
    },
  };
}

/** A read the request's byte budget has no room for: its app stays unread (and uncached). */
class BudgetSpent extends Error {}

/**
 * `reader` with every read's bytes taken from `meter` before it is asked for (the most it can bring:
 * the tail's window, the range's length), what it did not bring given back when it arrives: reads in
 * flight together never pass the budget. A read with no room is not made.
 */
function metered(reader: ApkRangeReader, meter: { left: number }): ApkRangeReader {
  const take = async (most: number, read: () => Promise<Uint8Array>): Promise<Uint8Array> => {
    if (most > meter.left) {
      throw new BudgetSpent();
    }
    meter.left -= most;
    let got: Uint8Array | null = null;
    try {
      got = await read();
      return got;
    } finally {
      meter.left += most - Math.min(most, got?.length ?? 0);
    }
  };
  return {
    tail: () => take(END_RECORD_SEARCH_BYTES, () => reader.tail()),
    range: (offset, length) => take(length, () => reader.range(offset, length)),
  };
}

/**
 * Labels of `targets` in `locale`, by package; an app left out when the budget ran out is in
 * `unread` (its label is read by a later request: what was read is kept). `readerOf` reads an APK
 * (the device's, by default).
 */
export async function readLabels(
  device: Device,
  cache: LabelCache,
  targets: readonly LabelTarget[],
  locale: string,
  signal: AbortSignal,
  budget: LabelBudget = DEFAULT_LABEL_BUDGET,
  readerOf: (apk: string) => ApkRangeReader = (apk) => deviceApkReader(device, apk, signal),
): Promise<{ labels: Map<string, string | null>; unread: string[] }> {
  const labels = new Map<string, string | null>();
  const todo: { target: LabelTarget; key: string }[] = [];
  for (const target of targets) {
    const key = [target.apk, target.lastUpdate ?? '', locale].join('\0');
    const hit = cache.get(key);
    if (hit !== undefined) {
      labels.set(target.package, hit);
    } else {
      todo.push({ target, key });
    }
  }
  const deadline = Date.now() + budget.ms;
  const meter = { left: budget.bytes };
  const unread: string[] = [];
  const next = async (): Promise<void> => {
    for (let job = todo.shift(); job; job = todo.shift()) {
      if (signal.aborted || Date.now() > deadline || meter.left <= 0) {
        unread.push(job.target.package);
        continue;
      }
      let label: string | null = null;
      try {
        label = (await readApkLabel(metered(readerOf(job.target.apk), meter), locale)).label;
      } catch (err) {
        // An APK droidbus cannot read (gone, not readable by the shell user, malformed, too
        // large) has no label here; the listing still names the package.
        if (signal.aborted || err instanceof BudgetSpent) {
          unread.push(job.target.package);
          continue;
        }
      }
      labels.set(job.target.package, label);
      if (cache.size >= CACHE_LIMIT) {
        cache.delete(cache.keys().next().value!);
      }
      cache.set(job.key, label);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, next));
  return { labels, unread };
}
