import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import lockfile from 'proper-lockfile';
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

/** The lock's holder as it wrote itself down (cleared on release), or null. */
function holderOf(file: string): { pid: number; thread: number | null } | null {
  try {
    const { pid, thread } = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; thread?: unknown };
    return typeof pid === 'number' ? { pid, thread: typeof thread === 'number' ? thread : null } : null;
  } catch {
    return null;
  }
}

/** Removes a lock its holder can no longer release (proper-lockfile's lock is the `.lock` folder). */
function breakLock(file: string): void {
  writeFileSync(file, '', { mode: 0o600 });
  rmSync(`${file}.lock`, { recursive: true, force: true });
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
): Promise<T> {
  const file = uiLockPath(serial);
  writeFileSync(file, '', { flag: 'a', mode: 0o600 });
  let release: (() => Promise<void>) | undefined;
  for (;;) {
    try {
      release = await lockfile.lock(file, { retries: 0, stale: 15_000, update: 3_000, realpath: false });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') {
        throw new BusError(
          'FAILED',
          `cannot take the UI Automator lock ${path.basename(file)}: ${(err as Error).message}`,
        );
      }
      const holder = holderOf(file);
      if (holder !== null && !isProcessAlive(holder.pid)) {
        // The holder process died mid-capture (killed, crashed): its lock is nobody's.
        breakLock(file);
        continue;
      }
      if (Date.now() + 50 >= deadline) {
        const pid = holder?.pid ?? null;
        throw new BusError(
          'BUSY',
          `device ${serial} is busy with a UI Automator request from another droidbus process${pid ? ` (pid ${pid})` : ''}; try again when it is done`,
          undefined,
          pid ? { holder_pid: pid } : undefined,
        );
      }
      await sleep(50, signal, true);
    }
  }
  try {
    writeFileSync(file, JSON.stringify({ pid: process.pid, thread: threadId, since: Date.now() }), {
      mode: 0o600,
    });
    return await work();
  } finally {
    // Cleared first: a holder on file always holds (or died holding) the lock.
    writeFileSync(file, '', { mode: 0o600 });
    await release().catch(() => undefined);
  }
}
