import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';

/** True when a process with this pid exists (also when it belongs to another user). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) {
    return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A process's arguments and working directory, as far as this platform tells them. */
export interface CommandLine {
  /** The arguments, argv[0] first. On platforms without /proc the line is split on spaces. */
  args: string[];
  /** Its working directory, when known (relative arguments resolve against it). */
  cwd: string | null;
}

/** The command line of a live process; null when it is gone or cannot be read. */
export function processCommandLine(pid: number): CommandLine | null {
  if (process.platform === 'linux') {
    try {
      const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      let cwd: string | null = null;
      try {
        cwd = readlinkSync(`/proc/${pid}/cwd`);
      } catch {
        // Another user's process: its cwd is not ours to read.
      }
      return { args: raw.split('\0').filter((a) => a.length > 0), cwd };
    } catch {
      return null;
    }
  }
  if (process.platform === 'win32') {
    return null;
  }
  try {
    const line = execFileSync('ps', ['-p', String(pid), '-o', 'command='], {
      encoding: 'utf8',
      timeout: 2_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return line ? { args: line.split(/\s+/), cwd: null } : null;
  } catch {
    return null;
  }
}
