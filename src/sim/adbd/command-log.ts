/**
 * Evidence: none — a log for tests of what clients made the device run; it models nothing a phone
 * does.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** One command a client made a simulated device run, as the `--command-log` file records it. */
export interface CommandLogEntry {
  /** When the device started and finished the command, ms since the epoch (sub-ms precision). */
  t0: number;
  t1: number;
  dev: string;
  kind: 'shell' | 'exec' | 'sync' | 'open';
  cmd: string;
  /** Exit code (shell v2, exec and v1 report the shell's code); sync: 0 or 1 on FAIL; open: -1 if refused. */
  code: number;
  /** Bytes the device sent back (for sync SEND: bytes received). */
  out: number;
}

/** A wall-clock time in ms with the monotonic clock's precision. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

/** How long lines may wait in memory before they are written. */
const FLUSH_DELAY_MS = 50;

/**
 * Appends command records as JSON lines. Lines are batched (one write per burst) but never held
 * longer than FLUSH_DELAY_MS; whatever is left is written on `close()` or when the process exits.
 * Writes are synchronous: one small append every 50 ms costs nothing and keeps lines in order.
 */
export class CommandLog {
  private readonly fd: number;
  private buffer: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly onExit = (): void => this.close();

  constructor(readonly path: string) {
    this.fd = openSync(path, 'a');
    process.once('exit', this.onExit);
  }

  record(entry: CommandLogEntry): void {
    if (this.closed) {
      return;
    }
    this.buffer.push(JSON.stringify(entry) + '\n');
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), FLUSH_DELAY_MS);
      this.timer.unref();
    }
  }

  private flush(): void {
    this.timer = undefined;
    if (this.buffer.length === 0 || this.closed) {
      return;
    }
    const text = this.buffer.join('');
    this.buffer = [];
    writeSync(this.fd, text);
  }

  /** Writes what is buffered and closes the file. */
  close(): void {
    if (this.closed) {
      return;
    }
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.flush();
    this.closed = true;
    process.off('exit', this.onExit);
    closeSync(this.fd);
  }
}
