import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { until } from './until.js';
import { CLI } from './paths.js';

/**
 * A temporary folder directly under /tmp (os.tmpdir() can be long on macOS): the host's socket
 * path must stay under the 103-byte unix socket limit.
 */
export function shortTempDir(prefix = 'db-'): { dir: string; remove(): void } {
  const base = process.platform === 'win32' ? (process.env['TEMP'] ?? '.') : '/tmp';
  const dir = mkdtempSync(path.join(base, prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Polls `check` until it returns something truthy, or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  return until(
    what,
    async () => {
      const value = await check();
      return value ? (value as NonNullable<T>) : undefined;
    },
    timeoutMs,
    { everyMs: 20 },
  );
}

export interface HostProcess {
  proc: ChildProcessWithoutNullStreams;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when a signal ended it) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the built `droidbus host` and waits until it listens. */
export async function startHostProcess(
  args: string[],
  options: { env: Record<string, string>; cwd?: string },
): Promise<HostProcess> {
  const proc = spawn(process.execPath, [CLI, 'host', ...args], {
    env: { ...process.env, ...options.env },
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  proc.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let gone = false;
  void exited.then(() => (gone = true));
  await waitFor(() => {
    if (gone) {
      throw new Error(`droidbus host exited before it listened:\n${err}`);
    }
    return out.includes('listening on');
  }, 'the host to listen');
  return {
    proc,
    pid: proc.pid!,
    stdout: () => out,
    stderr: () => err,
    exited,
    stop: (signal = 'SIGTERM') => {
      if (!gone) {
        proc.kill(signal);
      }
      return exited;
    },
  };
}
