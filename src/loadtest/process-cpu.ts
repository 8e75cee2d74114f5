import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux Node runs on). */
const TICKS_PER_S = 100;

/**
 * CPU time (user + system, ms) a process has used, or one of its threads when `tid` is given (the
 * main thread's tid is the pid). Linux only (/proc); null elsewhere or when it is gone.
 */
export function cpuMs(pid: number, tid?: number): number | null {
  if (process.platform !== 'linux') {
    return null;
  }
  try {
    const file = tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`;
    const stat = readFileSync(file, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
  } catch {
    return null;
  }
}

/** How busy a process and its main thread were over a window: CPU ms used per wall ms, in percent. */
export interface CpuShare {
  process_pct: number | null;
  main_thread_pct: number | null;
}

/** Starts measuring a process's CPU share; `stop()` answers it for the time since. */
export function startCpuWindow(pid: number): { stop(): CpuShare } {
  const t0 = performance.now();
  const process0 = cpuMs(pid);
  const main0 = cpuMs(pid, pid);
  return {
    stop() {
      const wall = performance.now() - t0;
      const process1 = cpuMs(pid);
      const main1 = cpuMs(pid, pid);
      const pct = (a: number | null, b: number | null): number | null =>
        a === null || b === null || wall <= 0 ? null : Math.round(((b - a) / wall) * 1000) / 10;
      return { process_pct: pct(process0, process1), main_thread_pct: pct(main0, main1) };
    },
  };
}
