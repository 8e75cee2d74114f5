/**
 * Which process, and so which application package, each pid is. Kept current from the log itself
 * (ActivityManager's `Start proc`, `Killing`, `has died`; AndroidRuntime's `Process:`; Studio's
 * `PROCESS STARTED`) and seeded by the actor from `ps -A`.
 */

/** A process as `ps -A` lists it. */
export interface PsProcess {
  pid: number;
  user: string;
  name: string;
}

/** The package part of a process name: `com.example:remote` → `com.example`; null for non-apps. */
export function packageOfProcess(process: string): string | null {
  const colon = process.indexOf(':');
  const name = colon >= 0 ? process.slice(0, colon) : process;
  // Application processes are named after a Java package; daemons are paths or bare words, and
  // Studio shortens long names with `...`.
  let dots = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 46) {
      if (i === 0 || name.charCodeAt(i - 1) === 46) {
        return null;
      }
      dots++;
    } else if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95)) {
      return null;
    }
  }
  return dots > 0 && name.charCodeAt(name.length - 1) !== 46 ? name : null;
}

/** pid → process name and package, bounded (oldest learned first out). */
export class PidMap {
  private readonly packages = new Map<number, string | null>();
  private readonly processes = new Map<number, string>();

  constructor(private readonly max = 8192) {}

  /** Records that `pid` runs `process`. */
  set(pid: number, process: string): void {
    if (!(pid > 0) || process.length === 0) {
      return;
    }
    if (this.processes.get(pid) === process) {
      return;
    }
    this.processes.delete(pid);
    this.packages.delete(pid);
    if (this.processes.size >= this.max) {
      const oldest = this.processes.keys().next().value;
      if (oldest !== undefined) {
        this.processes.delete(oldest);
        this.packages.delete(oldest);
      }
    }
    this.processes.set(pid, process);
    this.packages.set(pid, packageOfProcess(process));
  }

  /** The package of `pid`, or null. */
  packageOf(pid: number): string | null {
    return this.packages.get(pid) ?? null;
  }

  /** The process name of `pid`, or null. */
  processOf(pid: number): string | null {
    return this.processes.get(pid) ?? null;
  }

  /** Seeds from a process list (`ps -A`); entries already learned from the log are replaced. */
  seed(list: readonly { pid: number; name: string }[]): void {
    for (const p of list) {
      this.set(p.pid, p.name);
    }
  }

  /** All known pids of a package (for `package:` queries and `pidof`-like lookups). */
  pidsOf(pkg: string): number[] {
    const out: number[] = [];
    for (const [pid, p] of this.packages) {
      if (p === pkg) {
        out.push(pid);
      }
    }
    return out;
  }

  get size(): number {
    return this.processes.size;
  }

  clear(): void {
    this.processes.clear();
    this.packages.clear();
  }
}

/**
 * Parses `ps -A` / `ps -A -o …` / legacy `ps` output. The PID column is found from the header; the
 * process name is the last column. Lines that do not fit are skipped.
 */
export function parsePs(text: string): PsProcess[] {
  const lines = text.split(/\r?\n/);
  const header = lines[0]?.trim().split(/\s+/) ?? [];
  const pidCol = header.indexOf('PID');
  const userCol = header.indexOf('USER');
  if (pidCol < 0) {
    return [];
  }
  const out: PsProcess[] = [];
  for (let i = 1; i < lines.length; i++) {
    const cols = (lines[i] ?? '').trim().split(/\s+/);
    if (cols.length <= pidCol + 1) {
      continue;
    }
    const pid = Number(cols[pidCol]);
    const name = cols[cols.length - 1] ?? '';
    if (!Number.isInteger(pid) || pid <= 0 || name.length === 0) {
      continue;
    }
    out.push({ pid, user: userCol >= 0 ? (cols[userCol] ?? '') : '', name });
  }
  return out;
}
