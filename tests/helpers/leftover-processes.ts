/**
 * The processes a test run must not leave behind: adb servers (`adb … fork-server`) and droidbus
 * processes (`node …/cli.js …`) that carry this run's tag in their environment. vitest.config.ts
 * sets DROIDBUS_TEST_RUN to a fresh id per run, and every process a test starts inherits it (the
 * adb client forks its server with its own environment), so another run beside this one, the
 * developer's own adb server or a host they run are never counted.
 *
 *   const left = await leftoverProcesses(process.env.DROIDBUS_TEST_RUN, 5_000);
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const RUN_TAG = 'DROIDBUS_TEST_RUN';

export interface WatchedProcess {
  pid: number;
  cmdline: string;
}

function nulSeparated(file: string): string[] | null {
  try {
    const raw = readFileSync(file, 'utf8');
    return raw.length === 0 ? null : raw.replace(/\0$/, '').split('\0');
  } catch {
    return null;
  }
}

/** True for an adb server (the client forks `adb -L tcp:PORT fork-server server …`). */
export function isAdbServer(argv: readonly string[]): boolean {
  return path.basename(argv[0] ?? '') === 'adb' && argv.includes('fork-server');
}

/** True for a process of droidbus's built CLI (`node …/dist/cli.js sim`, `… host`, …). */
export function isDroidbusProcess(argv: readonly string[]): boolean {
  return argv.slice(1, 3).some((a) => a.endsWith(`${path.sep}cli.js`) || a === 'droidbus');
}

/** The adb servers and droidbus processes running now whose environment carries `tag`. */
export function taggedProcesses(tag: string): WatchedProcess[] {
  const found: WatchedProcess[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) {
      continue;
    }
    const argv = nulSeparated(`/proc/${entry}/cmdline`);
    if (!argv || !(isAdbServer(argv) || isDroidbusProcess(argv))) {
      continue;
    }
    if (nulSeparated(`/proc/${entry}/environ`)?.includes(`${RUN_TAG}=${tag}`)) {
      found.push({ pid: Number(entry), cmdline: argv.join(' ') });
    }
  }
  return found;
}

/**
 * This run's adb servers and droidbus processes still running after giving them up to `graceMs`
 * to exit (a server told to quit a moment ago may still be closing its sockets).
 */
export async function leftoverProcesses(tag: string, graceMs: number): Promise<WatchedProcess[]> {
  const deadline = Date.now() + graceMs;
  for (;;) {
    const left = taggedProcesses(tag);
    if (left.length === 0 || Date.now() >= deadline) {
      return left;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
