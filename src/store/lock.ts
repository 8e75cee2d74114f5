import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { ensureDataDir } from './data-dir.js';

/**
 * Runs `work` while holding an inter-process lock on `target` (a path; the lock is a directory
 * `<target>.lock` beside it, which proper-lockfile keeps fresh and treats as stale after 10 s).
 */
export async function withFileLock<T>(target: string, work: () => Promise<T> | T): Promise<T> {
  mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  // proper-lockfile resolves the target's real path unless told not to; the target may not exist yet.
  writeFileSync(target, '', { flag: 'a', mode: 0o600 });
  const release = await lockfile.lock(target, {
    stale: 10_000,
    update: 2_000,
    retries: { retries: 200, factor: 1.2, minTimeout: 5, maxTimeout: 100 },
    realpath: false,
  });
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}

/** Runs `work` under the data directory's lock: settings, history and activity changes go through here. */
export function withDataLock<T>(work: () => Promise<T> | T): Promise<T> {
  return withFileLock(path.join(ensureDataDir(), 'data.lock'), work);
}
