/**
 * `<data dir>/build-history.json`: every process's builds, newest last, at most MAX_HISTORY. It is
 * changed only under the data lock and written atomically, so two processes finishing builds at
 * once both land and a reader never sees half a file. Its record format is `formats/build-record.ts`
 * (versioned; records of every earlier version parse, `build-history.test.ts` loads one). Records
 * that do not parse (a newer droidbus wrote them) are skipped when read and kept when rewritten.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUILD_HISTORY_VERSION, buildRecordSchema, type BuildRecord } from './formats/build-record.js';
import { writeFileAtomic } from './atomic.js';
import { dataDirPath, ensureDataDir } from './data-dir.js';
import { withDataLock } from './lock.js';
import { logger } from '../util/log.js';

const log = logger('build-history');

/** Builds kept in the history file. */
export const MAX_HISTORY = 100;

/** The history file's path. */
export function historyPath(): string {
  return path.join(dataDirPath(), 'build-history.json');
}

function readRaw(): unknown[] {
  let text: string;
  try {
    text = readFileSync(historyPath(), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      log.warn('build-history.json is unreadable', { error: (err as Error).message });
    }
    return [];
  }
  try {
    const parsed = JSON.parse(text) as { builds?: unknown };
    return Array.isArray(parsed.builds) ? parsed.builds : [];
  } catch (err) {
    log.warn('build-history.json is not JSON; starting a new history', { error: (err as Error).message });
    return [];
  }
}

/** Every readable record, oldest first. */
export function readHistory(): BuildRecord[] {
  const out: BuildRecord[] = [];
  for (const raw of readRaw()) {
    const r = buildRecordSchema.safeParse(raw);
    if (r.success) {
      out.push(r.data);
    }
  }
  return out;
}

/** The newest records of one project (every project when `root` is null), newest first. */
export function recentBuilds(root: string | null, limit: number): BuildRecord[] {
  return readHistory()
    .filter((r) => root === null || r.project_root === root)
    .reverse()
    .slice(0, limit);
}

/** Appends a record under the data lock, keeping the newest MAX_HISTORY. */
export async function appendHistory(record: BuildRecord): Promise<void> {
  ensureDataDir();
  await withDataLock(() => {
    const builds = readRaw().filter((b) => (b as { id?: unknown } | null)?.id !== record.id);
    builds.push(record);
    const kept = builds.slice(-MAX_HISTORY);
    writeFileAtomic(
      historyPath(),
      JSON.stringify({ version: BUILD_HISTORY_VERSION, builds: kept }, null, 1) + '\n',
      0o600,
    );
  });
}
