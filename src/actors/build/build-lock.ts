/**
 * The cross-process build lock: one Gradle build per project across every droidbus process, held
 * as `<data dir>/build-locks/<hash of the canonical project root>.lock` (a proper-lockfile lock
 * directory, kept fresh while the build runs) with `<hash>.owner.json` beside it naming the holder.
 * A lock that cannot be taken for any other reason (an unwritable data directory) refuses the build
 * with that reason: builds never run unlocked.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { writeFileAtomic } from '../../store/atomic.js';
import { dataDirPath } from '../../store/data-dir.js';
import { logger } from '../../util/log.js';
import type { Origin } from '../../bus/origin.js';

const log = logger('build-lock');

/** A lock whose directory was not refreshed for this long belongs to a process that died. */
const STALE_MS = 30_000;
const UPDATE_MS = 5_000;

/** Who holds a project's build lock. */
export interface BuildLockHolder {
  pid: number;
  project_root: string;
  build_id: string;
  task: string;
  started_at: string;
  /** Who asked for the build (absent in owner files of older droidbus versions). */
  origin?: Origin;
}

export type BuildLockResult =
  | { ok: true; lockPath: string; release(): Promise<void> }
  | { ok: false; held: boolean; reason: string; holder: BuildLockHolder | null };

/** The lock directory's path for a canonical project root. */
export function buildLockPath(canonicalRoot: string): string {
  const hash = createHash('sha256').update(canonicalRoot).digest('hex').slice(0, 24);
  return path.join(dataDirPath(), 'build-locks', `${hash}.lock`);
}

function ownerPath(lockPath: string): string {
  return lockPath.replace(/\.lock$/, '.owner.json');
}

function readOwner(lockPath: string): BuildLockHolder | null {
  return readOwnerFile(ownerPath(lockPath));
}

/** A lock's owner file, or null when it is missing or unreadable. */
export function readOwnerFile(file: string): BuildLockHolder | null {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<BuildLockHolder>;
    return typeof raw.pid === 'number' ? (raw as BuildLockHolder) : null;
  } catch {
    return null;
  }
}

/** True unless the process is known to be gone (another user's process counts as alive). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

function describeHolder(holder: BuildLockHolder | null): string {
  if (!holder) {
    return 'another droidbus process is building this project (its pid is not recorded yet)';
  }
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(holder.started_at)) / 1000));
  return `another droidbus process (pid ${holder.pid}) is building this project (task ${holder.task}, started ${seconds} s ago)`;
}

async function tryLock(lockPath: string): Promise<() => Promise<void>> {
  // The target need not exist (realpath: false); its lock directory is `<target>.lock`. One target
  // per project also keeps proper-lockfile's in-process bookkeeping per project.
  return lockfile.lock(lockPath.replace(/\.lock$/, ''), {
    realpath: false,
    stale: STALE_MS,
    update: UPDATE_MS,
    retries: 0,
    // proper-lockfile throws from a timer by default, which would take the worker down.
    onCompromised: (err) =>
      log.warn('the build lock was compromised', { lock: lockPath, error: err.message }),
  });
}

/**
 * Takes the project's build lock for `holder`. Refuses, naming the holder's pid, when another
 * process builds the project; refuses with the reason when the lock cannot be taken at all.
 */
export async function acquireBuildLock(holder: BuildLockHolder): Promise<BuildLockResult> {
  let lockPath: string;
  try {
    lockPath = buildLockPath(holder.project_root);
    mkdirSync(path.dirname(lockPath), { recursive: true, mode: 0o700 });
  } catch (err) {
    return {
      ok: false,
      held: false,
      reason: `cannot create the build lock folder in the droidbus data directory (${dataDirPath()}): ${(err as Error).message}`,
      holder: null,
    };
  }
  let release: () => Promise<void>;
  for (let attempt = 0; ; attempt++) {
    try {
      release = await tryLock(lockPath);
      break;
    } catch (err) {
      if (errnoOf(err) !== 'ELOCKED') {
        return {
          ok: false,
          held: false,
          reason: `cannot take the build lock ${lockPath}: ${(err as Error).message}`,
          holder: null,
        };
      }
      let owner = readOwner(lockPath);
      for (let i = 0; owner === null && i < 10; i++) {
        // The holder writes its owner file right after taking the lock.
        await new Promise((r) => setTimeout(r, 20));
        owner = readOwner(lockPath);
      }
      if (attempt === 0 && owner !== null && owner.pid !== process.pid && !isAlive(owner.pid)) {
        // Its process is gone (crashed): the lock is stale now, not in STALE_MS.
        log.info('removing the build lock of a process that is gone', { pid: owner.pid });
        try {
          rmdirSync(lockPath);
        } catch {
          // Someone else removed or retook it; the next attempt tells.
        }
        continue;
      }
      return { ok: false, held: true, reason: describeHolder(owner), holder: owner };
    }
  }
  try {
    writeFileAtomic(ownerPath(lockPath), JSON.stringify(holder) + '\n', 0o600);
  } catch (err) {
    await release().catch(() => undefined);
    return {
      ok: false,
      held: false,
      reason: `cannot record the build lock's owner in ${path.dirname(lockPath)}: ${(err as Error).message}`,
      holder: null,
    };
  }
  return {
    ok: true,
    lockPath,
    release: async () => {
      if (readOwner(lockPath)?.build_id === holder.build_id) {
        rmSync(ownerPath(lockPath), { force: true });
      }
      await release().catch((err: unknown) =>
        log.warn('releasing the build lock failed', { lock: lockPath, error: String(err) }),
      );
    },
  };
}
