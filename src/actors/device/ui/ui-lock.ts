import { createHash } from 'node:crypto';
import { lstatSync, lutimesSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { configuredAdbServers } from '../../../adb/servers.js';
import { BusError } from '../../../bus/errors.js';
import { dataPath } from '../../../store/data-dir.js';
import { sleep } from '../../../util/sleep.js';
import { isProcessAlive } from '../../../util/process-info.js';

/**
 * The lock file of a device's UI Automator, shared by every droidbus process of this user: keyed by
 * the device's adb server address and serial, so processes that name the server differently agree.
 */
export function uiLockPath(serial: string): string {
  const key = configuredAdbServers().lockKeyOf(serial);
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 24);
  return dataPath('ui-automator-locks', `${hash}.lock`);
}

/**
 * The lock is a symbolic link, `<hash>.lock` → `pid:thread:since`: creating it is the atomic
 * test-and-set (EEXIST when held) and its target names the holder, so taking and releasing the lock
 * are one system call each and touch no data blocks (proper-lockfile's folder plus a holder file cost
 * ~0.7 ms a capture on ext4, where truncating a file flushes it). A holder refreshes the link's time
 * every STALE_REFRESH_MS; a link older than STALE_MS is abandoned.
 */
const STALE_MS = 15_000;
const STALE_REFRESH_MS = 3_000;

/** Takes the lock: the link's target when taken, null when another holds it. */
function tryLock(file: string, purpose: string | null): string | null {
  const mine = `${process.pid}:${threadId}:${Date.now()}${purpose === null ? '' : `:${encodeURIComponent(purpose)}`}`;
  try {
    symlinkSync(mine, file);
    return mine;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      return null;
    }
    throw new BusError(
      'FAILED',
      `cannot take the UI Automator lock ${path.basename(file)}: ${(err as Error).message}`,
    );
  }
}

/**
 * The lock's holder as its link names it (`pid:thread:since`, and `:purpose` for a long hold), and
 * how long ago it was last refreshed; null when free.
 */
function holderOf(
  file: string,
): { pid: number | null; thread: number | null; purpose: string | null; ageMs: number } | null {
  try {
    const ageMs = Date.now() - lstatSync(file).mtimeMs;
    // Not a link: a lock file of an earlier droidbus, which names nobody.
    const [pid, thread, , purpose] = (holderLink(file) ?? '').split(':');
    const known = (n: string | undefined): number | null =>
      n !== undefined && /^\d+$/.test(n) ? Number(n) : null;
    const said = (() => {
      try {
        return purpose === undefined ? null : decodeURIComponent(purpose);
      } catch {
        return null;
      }
    })();
    return { pid: known(pid), thread: known(thread), purpose: said, ageMs };
  } catch {
    return null;
  }
}

function holderLink(file: string): string | null {
  try {
    return readlinkSync(file);
  } catch {
    return null;
  }
}

/** Removes a lock its holder can no longer release. */
function breakLock(file: string): void {
  rmSync(file, { force: true });
}

/**
 * Releases the UI Automator locks a worker thread of process `pid` held when it ended (the
 * supervisor calls it when it replaces a crashed or stuck worker): the next capture need not wait
 * for them to go stale. Returns how many it released.
 */
export function releaseUiLocksOf(pid: number, thread: number): number {
  const dir = path.dirname(uiLockPath('x'));
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.lock'));
  } catch {
    return 0;
  }
  let released = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const holder = holderOf(file);
    if (holder?.pid === pid && holder.thread === thread) {
      breakLock(file);
      released++;
    }
  }
  return released;
}

/**
 * Runs `work` holding the device's UI Automator lock across processes (a device serves one UI
 * Automator client at a time). Waits for another process's capture until `deadline`, then fails
 * BUSY naming that process. A lock whose holder process has died is taken over at once; one whose
 * holder thread died is released by the supervisor (releaseUiLocksOf); any other goes stale 15 s
 * after its holder stopped refreshing it.
 */
export async function withUiAutomatorLock<T>(
  serial: string,
  deadline: number,
  signal: AbortSignal,
  work: () => Promise<T>,
  purpose: string | null = null,
): Promise<T> {
  const file = uiLockPath(serial);
  let mine: string | null;
  while ((mine = tryLock(file, purpose)) === null) {
    const holder = holderOf(file);
    if (holder === null) {
      continue; // released between the two calls
    }
    if (holder.pid === null || !isProcessAlive(holder.pid) || holder.ageMs > STALE_MS) {
      // The holder died mid-capture (killed, crashed), stopped refreshing, or is an earlier
      // droidbus's leftover file: its lock is nobody's.
      breakLock(file);
      continue;
    }
    if (holder.purpose !== null) {
      // A long hold (connected tests): waiting for it would only time out.
      throw new BusError(
        'BUSY',
        `device ${serial} is lent to ${holder.purpose} (droidbus pid ${holder.pid}): UI Automator serves one client at a time, and reading the screen now would take the UiAutomation they use. Read it when they are done (get_build_status); a screenshot works meanwhile`,
        undefined,
        { holder_pid: holder.pid },
      );
    }
    if (Date.now() + 50 >= deadline) {
      throw new BusError(
        'BUSY',
        `device ${serial} is busy with a UI Automator request from another droidbus process (pid ${holder.pid}); try again when it is done`,
        undefined,
        { holder_pid: holder.pid },
      );
    }
    await sleep(50, signal, true);
  }
  const refresh = setInterval(() => {
    try {
      const now = new Date();
      lutimesSync(file, now, now);
    } catch {
      // Broken by another process after STALE_MS without a refresh: nothing left to keep fresh.
    }
  }, STALE_REFRESH_MS);
  refresh.unref();
  try {
    return await work();
  } finally {
    clearInterval(refresh);
    // Ours unless another process found it stale (this thread blocked for STALE_MS) and took it.
    if (holderLink(file) === mine) {
      breakLock(file);
    }
  }
}

/**
 * Takes the device's UI Automator lock for `purpose` and keeps it until `release` is called (or
 * `maxMs` passes): no droidbus process reads the screen meanwhile, and each that tries is told at
 * once what holds it. Waits until `deadline` for a capture in flight; BUSY after that. `ended`
 * resolves once the lock is let go.
 */
export async function holdUiAutomatorLock(
  serial: string,
  purpose: string,
  deadline: number,
  signal: AbortSignal,
  maxMs: number,
): Promise<{ release: () => Promise<void>; ended: Promise<void> }> {
  let letGo!: () => void;
  const released = new Promise<void>((r) => (letGo = r));
  let taken!: () => void;
  const isTaken = new Promise<void>((r) => (taken = r));
  const holding = withUiAutomatorLock(
    serial,
    deadline,
    signal,
    async () => {
      taken();
      const expiry = setTimeout(letGo, maxMs);
      expiry.unref();
      await released;
      clearTimeout(expiry);
    },
    purpose,
  );
  await Promise.race([isTaken, holding]);
  return {
    release: async () => {
      letGo();
      await holding;
    },
    ended: holding,
  };
}
