import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { BusError } from '../../../bus/errors.js';
import { dataPath } from '../../../store/data-dir.js';
import { sleep } from '../../../util/sleep.js';

/** The lock file of a device's UI Automator, shared by every droidbus process of this user. */
export function uiLockPath(serial: string): string {
  const hash = createHash('sha256').update(serial).digest('hex').slice(0, 24);
  return dataPath('ui-automator-locks', `${hash}.lock`);
}

function holderPid(file: string): number | null {
  try {
    const pid = (JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid;
    return typeof pid === 'number' ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Runs `work` holding the device's UI Automator lock across processes (a device serves one UI
 * Automator client at a time). Waits for another process's capture until `deadline`, then fails
 * BUSY naming that process. The lock goes stale 15 s after a holder died without releasing it.
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
      if (Date.now() + 50 >= deadline) {
        const pid = holderPid(file);
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
    writeFileSync(file, JSON.stringify({ pid: process.pid, since: Date.now() }), { mode: 0o600 });
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}
