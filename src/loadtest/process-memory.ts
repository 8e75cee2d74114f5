import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A process's resident memory now and at its peak, MiB. */
export interface ProcessMemory {
  rss_mb: number;
  /** Peak RSS (VmHWM); null where the platform does not report it. */
  peak_mb: number | null;
}

const mb = (kb: number): number => Math.round((kb / 1024) * 10) / 10;

/**
 * Reads a process's memory: /proc/PID/status (VmRSS, VmHWM) on Linux, `ps -o rss=` elsewhere
 * (no peak there: the sampler keeps the largest value it saw). Null when the process is gone.
 */
export function readProcessMemory(pid: number): ProcessMemory | null {
  if (process.platform === 'linux') {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const field = (name: string): number | null => {
        const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
        return m ? Number(m[1]) : null;
      };
      const rss = field('VmRSS');
      if (rss === null) {
        return null;
      }
      const hwm = field('VmHWM');
      return { rss_mb: mb(rss), peak_mb: hwm === null ? null : mb(hwm) };
    } catch {
      return null;
    }
  }
  if (process.platform === 'win32') {
    return null;
  }
  try {
    const out = execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], {
      encoding: 'utf8',
      timeout: 2_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return out === '' ? null : { rss_mb: mb(Number(out)), peak_mb: null };
  } catch {
    return null;
  }
}

/** One point of the memory series: RSS per role, MiB (frontends summed). */
export interface RssSample {
  t_s: number;
  host_mb: number | null;
  frontends_mb: number;
  frontend_max_mb: number;
  sim_mb: number | null;
  loadtest_mb: number;
}

/** Where the processes of a run are. */
export interface RunPids {
  host: number | null;
  frontends: number[];
  sim: number | null;
}

/**
 * Samples the RSS of every process of a run at a fixed interval (the series a soak prints) and
 * keeps each process's largest value, for platforms without VmHWM.
 */
export class RssSampler {
  readonly series: RssSample[] = [];
  private readonly largest = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly started = performance.now();

  constructor(private readonly pids: () => RunPids) {}

  /** Takes a sample now and then every `intervalMs`. */
  start(intervalMs: number): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
    this.sample();
  }

  /** A process's peak RSS: VmHWM where known, else the largest sample. */
  peak(pid: number | null): number | null {
    if (pid === null) {
      return null;
    }
    const now = readProcessMemory(pid);
    const seen = this.largest.get(pid) ?? null;
    const values = [now?.peak_mb ?? null, now?.rss_mb ?? null, seen].filter((v): v is number => v !== null);
    return values.length === 0 ? null : Math.max(...values);
  }

  /** The largest RSS this process reached, read from the process itself (the load test's own). */
  static ownPeak(): number {
    const own = readProcessMemory(process.pid);
    return own?.peak_mb ?? own?.rss_mb ?? mb(process.memoryUsage().rss / 1024);
  }

  private read(pid: number | null): number | null {
    if (pid === null) {
      return null;
    }
    const m = readProcessMemory(pid);
    if (m === null) {
      return null;
    }
    this.largest.set(pid, Math.max(this.largest.get(pid) ?? 0, m.rss_mb));
    return m.rss_mb;
  }

  private sample(): void {
    const pids = this.pids();
    const fronts = pids.frontends.map((p) => this.read(p) ?? 0);
    this.series.push({
      t_s: Math.round((performance.now() - this.started) / 100) / 10,
      host_mb: this.read(pids.host),
      frontends_mb: Math.round(fronts.reduce((a, b) => a + b, 0) * 10) / 10,
      frontend_max_mb: fronts.length === 0 ? 0 : Math.max(...fronts),
      sim_mb: this.read(pids.sim),
      loadtest_mb: mb(process.memoryUsage().rss / 1024),
    });
  }
}
