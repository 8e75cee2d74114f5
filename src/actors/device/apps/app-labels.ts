/**
 * The labels `list_apps` prints, read from each app's base APK on the device in ranges (the zip's
 * end with `tail -c`, the manifest and resource table with `dd`; see util/apk-label.ts), a few apps
 * at a time, within a byte and time budget per request. A label read once is kept (in the device
 * actor's `LabelCache`) for the APK (path and update time) and locale, so the next listing costs
 * nothing for it.
 */
import { APK_BLOCK_BYTES, READS, readCommand } from '../../../adb/device-reads.js';
import { readApkLabel, type ApkRangeReader } from '../../../util/apk-label.js';
import { adbClient } from '../../adb-instance.js';

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

function deviceReader(serial: string, apk: string, signal: AbortSignal): ApkRangeReader {
  const run = async (command: ReturnType<typeof readCommand>): Promise<Uint8Array> => {
    // Shell v2 keeps dd's transfer report (stderr) out of the bytes.
    const r = await adbClient().shellBytes(serial, command, { signal, timeoutMs: 30_000 });
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

/**
 * Labels of `targets` in `locale`, by package; an app left out when the budget ran out is in
 * `unread` (its label is read by a later request: what was read is kept).
 */
export async function readLabels(
  serial: string,
  cache: LabelCache,
  targets: readonly LabelTarget[],
  locale: string,
  signal: AbortSignal,
  budget: LabelBudget = DEFAULT_LABEL_BUDGET,
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
  let bytes = 0;
  const unread: string[] = [];
  const next = async (): Promise<void> => {
    for (let job = todo.shift(); job; job = todo.shift()) {
      if (signal.aborted || Date.now() > deadline || bytes > budget.bytes) {
        unread.push(job.target.package);
        continue;
      }
      let label: string | null = null;
      try {
        const r = await readApkLabel(deviceReader(serial, job.target.apk, signal), locale);
        bytes += r.bytesRead;
        label = r.label;
      } catch {
        // An APK droidbus cannot read (gone, not readable by the shell user, malformed, too
        // large) has no label here; the listing still names the package.
        if (signal.aborted) {
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
