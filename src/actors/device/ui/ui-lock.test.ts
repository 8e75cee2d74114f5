import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  lutimesSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { useTempDataHome } from '../../../../tests/helpers/data-home.js';
import { BusError } from '../../../bus/errors.js';
import { holdUiAutomatorLock, releaseUiLocksOf, uiLockPath, withUiAutomatorLock } from './ui-lock.js';

useTempDataHome('droidbus-ui-lock-');

const SERIAL = 'emulator-5554';

/** Whether the lock's link is there (existsSync follows the link to a target that never exists). */
function present(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
const never = new AbortController().signal;

/** A pid no process has: a child that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid;
}

/** A lock as another process holds it: the link naming its holder. */
function heldBy(pid: number, thread: number): string {
  const file = uiLockPath(SERIAL);
  symlinkSync(`${pid}:${thread}:${Date.now()}`, file);
  return file;
}

describe('the UI Automator lock', () => {
  it('records its holder while held and nothing once released', async () => {
    const file = uiLockPath(SERIAL);
    const seen = await withUiAutomatorLock(SERIAL, Date.now() + 1_000, never, () =>
      Promise.resolve(readlinkSync(file)),
    );
    expect(seen).toMatch(new RegExp(`^${process.pid}:${threadId}:\\d+$`));
    expect(present(file)).toBe(false);
  });

  it('fails BUSY naming a live holder once the deadline passes', async () => {
    heldBy(process.pid, 99);
    const started = Date.now();
    const err = await withUiAutomatorLock(SERIAL, Date.now() + 300, never, () => Promise.resolve(1)).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BusError);
    expect((err as BusError).code).toBe('BUSY');
    expect((err as BusError).message).toContain(`pid ${process.pid}`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('takes over at once a lock whose holder process died', async () => {
    heldBy(deadPid(), 1);
    const started = Date.now();
    expect(await withUiAutomatorLock(SERIAL, Date.now() + 5_000, never, () => Promise.resolve('ran'))).toBe(
      'ran',
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('takes over a lock its live holder stopped refreshing 15 s ago', async () => {
    const file = heldBy(process.pid, 99);
    const old = new Date(Date.now() - 16_000);
    lutimesSync(file, old, old);
    expect(await withUiAutomatorLock(SERIAL, Date.now() + 1_000, never, () => Promise.resolve('ran'))).toBe(
      'ran',
    );
  });

  it('leaves alone a lock another process took over while the work ran', async () => {
    const file = uiLockPath(SERIAL);
    await withUiAutomatorLock(SERIAL, Date.now() + 1_000, never, () => {
      rmSync(file);
      symlinkSync('1:0:0', file);
      return Promise.resolve();
    });
    expect(readlinkSync(file)).toBe('1:0:0');
  });

  it('replaces a lock file an earlier droidbus left (a regular file)', async () => {
    const file = uiLockPath(SERIAL);
    writeFileSync(file, '');
    const seen = await withUiAutomatorLock(SERIAL, Date.now() + 1_000, never, () =>
      Promise.resolve(lstatSync(file).isSymbolicLink()),
    );
    expect(seen).toBe(true);
  });

  it('releases the locks of one worker thread of a process, and only those', () => {
    const file = heldBy(process.pid, 7);
    expect(releaseUiLocksOf(process.pid, 8)).toBe(0);
    expect(present(file)).toBe(true);
    expect(releaseUiLocksOf(process.pid, 7)).toBe(1);
    expect(present(file)).toBe(false);
    expect(existsSync(path.dirname(file))).toBe(true);
  });

  it('lends the device for a purpose: every reader is told at once, until the hold is released', async () => {
    const purpose = 'the connected tests of build b-1: :app:connectedDemoDebugAndroidTest';
    const { release } = await holdUiAutomatorLock(SERIAL, purpose, Date.now() + 1_000, never, 60_000);
    const started = Date.now();
    const refused = await withUiAutomatorLock(SERIAL, Date.now() + 10_000, never, () =>
      Promise.resolve('read'),
    ).catch((err: unknown) => err);
    // No wait for the 10 s deadline: the holder's purpose says waiting is useless.
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(refused).toBeInstanceOf(BusError);
    expect((refused as BusError).code).toBe('BUSY');
    expect((refused as BusError).message).toContain(`lent to ${purpose} (droidbus pid ${process.pid})`);
    await release();
    await expect(
      withUiAutomatorLock(SERIAL, Date.now() + 2_000, never, () => Promise.resolve('read')),
    ).resolves.toBe('read');
  });

  it('ends a hold by itself after its longest time', async () => {
    const { ended } = await holdUiAutomatorLock(SERIAL, 'tests', Date.now() + 1_000, never, 50);
    await expect(
      withUiAutomatorLock(SERIAL, Date.now() + 5_000, never, () => Promise.resolve('read')),
    ).rejects.toThrow(/lent to tests/);
    await ended;
    const read = await withUiAutomatorLock(SERIAL, Date.now() + 1_000, never, () => Promise.resolve('read'));
    expect(read).toBe('read');
  });
});
