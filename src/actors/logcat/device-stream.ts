/**
 * One device's logcat stream: `logcat -v threadtime` read through the adb server socket into a
 * LogcatPipeline, with the pid → package map seeded from `ps -A` first. It owns its socket (through
 * an AbortController) and its pipeline; `stop` closes the socket, ends the pipeline (finishing open
 * crashes) and resolves once nothing of the stream is left running.
 */
import { READS, readCommand } from '../../device/reads.js';
import type { Device } from '../../device/device.js';
import type { ShellCommand } from '../../adb/shell-command.js';
import { BusError, fail } from '../../bus/errors.js';
import type { StreamInfo } from '../../bus/messages/logcat.js';
import type { CrashGroups } from './crash-group.js';
import { sleep } from '../../util/sleep.js';
import type { LogStore } from './log-store.js';
import type { Crash } from './logcat-types.js';
import { LogcatPipeline } from './logcat-pipeline.js';
import { afterNewestOld, afterResumePoint, type LineDecision, type ResumePoint } from './resume-point.js';
import { parsePs, type PsProcess } from './pid-map.js';

/** What a stream tells its owner. */
export interface StreamHooks {
  /** Crashes the stream finished reading (already stored and grouped). */
  crashes(stream: DeviceStream, crashes: Crash[]): void;
  /** What a finished crash waits for before it is filed (an ANR's threads), or null. */
  beforeFiling?: (stream: DeviceStream, crash: Crash) => Promise<void> | null;
  /** The stream changed state. */
  state(stream: DeviceStream): void;
}

/** Chunks held while the process list is read, at most (then they are parsed without it). */
const MAX_QUEUED_BYTES = 16 * 1024 * 1024;
/** How long `ps` may take before the stream goes on without it. */
const PS_TIMEOUT_MS = 5_000;

/**
 * Where a stream starts: the device's whole buffer, now (what the buffer already holds is skipped),
 * or just after a resume point (what the store already has is skipped).
 */
export type StreamFrom = { kind: 'buffer' } | { kind: 'now' } | { kind: 'resume'; point: ResumePoint };

/** The logcat command a stream runs. */
export function logcatCommand(from: StreamFrom): ShellCommand {
  switch (from.kind) {
    case 'buffer':
      return readCommand(READS.logStream);
    case 'now':
      return readCommand(READS.logStreamFromNow);
    case 'resume':
      return readCommand(READS.logStreamSince, { since: from.point.since });
    default: {
      const never: never = from;
      return never;
    }
  }
}

/** The processes of a device, from `ps -A` (or plain `ps` on releases before Android 8). */
async function readProcesses(device: Device, signal: AbortSignal): Promise<PsProcess[]> {
  const options = { signal, timeoutMs: PS_TIMEOUT_MS, maxBytes: 8 * 1024 * 1024 };
  const all = parsePs((await device.read(READS.processes, {}, options)).stdout);
  if (all.length > 1) {
    return all;
  }
  return parsePs((await device.read(READS.processesOld, {}, options)).stdout);
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** One device's stream (see the module comment). */
export class DeviceStream {
  state: StreamInfo['state'] = 'starting';
  reason: string | null = null;
  readonly startedAt = Date.now();
  stoppedAt: number | null = null;
  bytes = 0;
  entries = 0;
  crashCount = 0;
  /** True while the socket is open (the read loop runs). */
  live = false;
  /** Lines of the device's buffer read before the stream followed it (null: started from now or resumed). */
  bufferLines: number | null = null;
  readonly pipeline: LogcatPipeline;
  private readonly abort = new AbortController();
  private stopReason: string | null = null;
  private seeded = false;
  private queue: Buffer[] = [];
  private queuedBytes = 0;
  private readyWaiters: { resolve(): void; reject(err: unknown): void } | null = null;
  private done: Promise<void> | null = null;
  /** Decides the first lines of the stream (from now, or resumed); bytes are held until their line ends. */
  private dropping: { held: Buffer; decide: (line: string) => LineDecision } | null = null;

  get serial(): string {
    return this.device.serial;
  }

  constructor(
    private readonly device: Device,
    store: LogStore,
    groups: CrashGroups,
    private readonly hooks: StreamHooks,
  ) {
    this.pipeline = new LogcatPipeline({
      device: device.serial,
      store,
      groups,
      ...(hooks.beforeFiling !== undefined
        ? { beforeFiling: (crash: Crash) => hooks.beforeFiling!(this, crash) }
        : {}),
      late: (crashes) => this.hooks.crashes(this, crashes),
    });
  }

  /**
   * Reads the device's buffer to its end (`logcat -d`) before the stream follows it, so that no
   * answer after start_logcat misses a line the device already held (a crash read right after
   * start_logcat was a confident "none"): the process list first (the packages of old lines),
   * the dump, then its open crashes finished — their lines are all there. Stops at `timeoutMs`
   * with what it read (the stream then resumes after it). A device that refuses fails the stream.
   */
  async readBuffer(timeoutMs: number, signal: AbortSignal): Promise<number> {
    const deadline = AbortSignal.timeout(timeoutMs);
    const sig = AbortSignal.any([this.abort.signal, signal, deadline]);
    this.seed(await readProcesses(this.device, sig).catch(() => [] as PsProcess[]));
    const before = this.pipeline.parser.stats.lines;
    try {
      for await (const chunk of this.device.stream(readCommand(READS.logDumpDefault), sig)) {
        this.bytes += chunk.length;
        this.feed(chunk);
      }
    } catch (err) {
      if (!deadline.aborted || signal.aborted) {
        const reason = signal.aborted ? 'start_logcat was cancelled' : describe(err);
        this.finish(this.stopReason ?? `did not start: ${reason}`, err);
        if (signal.aborted) {
          throw fail.cancelled('start_logcat was cancelled');
        }
        if (this.stopReason !== null) {
          throw fail.failed(`logcat on ${this.serial}: ${this.stopReason}`);
        }
        throw err;
      }
    }
    const crashes = this.pipeline.settle();
    if (crashes.length > 0) {
      this.crashCount += crashes.length;
      this.hooks.crashes(this, crashes);
    }
    this.bufferLines = this.pipeline.parser.stats.lines - before;
    return this.bufferLines;
  }

  /**
   * Opens the stream and resolves once it is ready: its first bytes arrived, or the process list
   * did (at once when readBuffer read both already). Fails (and leaves nothing running) when
   * neither happens within `timeoutMs`, when the device refuses, or when `signal` aborts.
   */
  async start(from: StreamFrom, timeoutMs: number, signal: AbortSignal): Promise<void> {
    const ready = new Promise<void>((resolve, reject) => {
      this.readyWaiters = { resolve, reject };
    });
    const seeded = this.seeded
      ? Promise.resolve()
      : readProcesses(this.device, this.abort.signal)
          .catch(() => [] as PsProcess[])
          .then((list) => this.seed(list));
    const started = Date.now();
    this.live = true;
    const decide =
      from.kind === 'now' ? afterNewestOld() : from.kind === 'resume' ? afterResumePoint(from.point) : null;
    this.dropping = decide ? { held: Buffer.alloc(0), decide } : null;
    this.done = this.run(this.device.stream(logcatCommand(from), this.abort.signal));
    if (this.seeded) {
      // The buffer was read: logcat answers on this device, and a quiet one may print nothing now.
      this.readyWaiters?.resolve();
    }
    let timer: NodeJS.Timeout | undefined;
    const onAbort = (): void => this.readyWaiters?.reject(fail.cancelled('start_logcat was cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) {
      onAbort();
    }
    try {
      await Promise.race([
        ready,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                fail.timeout(
                  `logcat on ${this.serial} did not start within ${timeoutMs / 1000} s: neither log output nor the process list arrived`,
                ),
              ),
            timeoutMs,
          );
        }),
      ]);
      // Output arrived; let the process list land too (within the same start budget), so the
      // packages of the first lines — and the stats — are known when start_logcat answers.
      await Promise.race([seeded, sleep(Math.max(0, timeoutMs - (Date.now() - started)), signal)]);
    } catch (err) {
      const reason = err instanceof BusError ? err.message : describe(err);
      await this.stop(`did not start: ${reason}`);
      throw err;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
    if (this.state === 'starting') {
      this.state = 'streaming';
      this.hooks.state(this);
    }
  }

  /** Closes the socket and ends the pipeline; resolves when the stream has fully stopped. */
  async stop(reason: string): Promise<void> {
    this.stopReason ??= reason;
    this.abort.abort();
    await this.done;
  }

  /** Finishes crashes whose process went quiet (the once-a-second timer). */
  tick(): void {
    if (this.state === 'stopped') {
      return;
    }
    const crashes = this.pipeline.tick();
    if (crashes.length > 0) {
      this.crashCount += crashes.length;
      this.hooks.crashes(this, crashes);
    }
  }

  /** The stream's figures. */
  info(): StreamInfo {
    const p = this.pipeline.parser.stats;
    return {
      serial: this.serial,
      state: this.state,
      reason: this.reason,
      started_at: this.startedAt,
      stopped_at: this.stoppedAt,
      bytes: this.bytes,
      lines: p.lines,
      entries: this.entries,
      garbage: p.garbage,
      truncated: p.truncated,
      crashes: this.crashCount,
      known_pids: this.pipeline.pids.size,
      buffer_lines: this.bufferLines,
    };
  }

  private seed(list: PsProcess[]): void {
    if (this.seeded) {
      return;
    }
    this.pipeline.seedProcesses(list);
    this.seeded = true;
    const queued = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    for (const chunk of queued) {
      this.feed(chunk);
    }
    this.readyWaiters?.resolve();
  }

  private feed(chunk: Buffer): void {
    const r = this.pipeline.push(chunk);
    this.entries += r.entries;
    if (r.crashes.length > 0) {
      this.crashCount += r.crashes.length;
      this.hooks.crashes(this, r.crashes);
    }
  }

  private async run(chunks: AsyncGenerator<Buffer>): Promise<void> {
    let failure: unknown = null;
    try {
      for await (const raw of chunks) {
        this.bytes += raw.length;
        this.readyWaiters?.resolve();
        const chunk = this.dropping === null ? raw : this.dropFirstLines(raw, this.dropping);
        if (chunk.length === 0) {
          continue;
        }
        if (this.seeded) {
          this.feed(chunk);
        } else {
          this.queue.push(chunk);
          this.queuedBytes += chunk.length;
          if (this.queuedBytes > MAX_QUEUED_BYTES) {
            this.seed([]);
          }
        }
      }
    } catch (err) {
      if (!this.abort.signal.aborted) {
        failure = err;
      }
    } finally {
      // The generator destroyed the socket on its way out; nothing reads from the device any more.
      this.live = false;
    }
    // Not stopped on purpose: tell a device that went away from a logcat that ended.
    const reason = this.stopReason ?? (await this.endReason(failure));
    this.finish(this.stopReason ?? reason, failure);
  }

  /**
   * The first lines of a stream from now or resumed: each is kept or dropped as `decide` says,
   * until it says the rest is new (see resume-point.ts).
   */
  private dropFirstLines(chunk: Buffer, dropping: NonNullable<DeviceStream['dropping']>): Buffer {
    let held = dropping.held.length === 0 ? chunk : Buffer.concat([dropping.held, chunk]);
    const kept: Buffer[] = [];
    for (;;) {
      const nl = held.indexOf(10);
      if (nl < 0) {
        dropping.held = held;
        return Buffer.concat(kept);
      }
      const line = held.subarray(0, nl + 1);
      const decision = dropping.decide(
        line.toString('utf8', 0, Math.min(line.length, 8192)).replace(/\r?\n$/, ''),
      );
      if (decision === 'done') {
        this.dropping = null;
        kept.push(held);
        return Buffer.concat(kept);
      }
      if (decision === 'pass') {
        kept.push(line);
      }
      held = held.subarray(nl + 1);
    }
  }

  private async endReason(failure: unknown): Promise<string> {
    const gone = await this.device
      .adbState({ timeoutMs: 3_000 })
      .then((state) => state !== 'device')
      .catch(() => true);
    if (gone) {
      return 'device disconnected';
    }
    return failure !== null ? `the stream failed: ${describe(failure)}` : 'logcat ended on the device';
  }

  private finish(reason: string, failure: unknown): void {
    if (!this.seeded) {
      this.seed([]);
    }
    const last = this.pipeline.end();
    this.entries += last.entries;
    if (last.crashes.length > 0) {
      this.crashCount += last.crashes.length;
      this.hooks.crashes(this, last.crashes);
    }
    this.queue = [];
    this.readyWaiters?.reject(
      failure instanceof BusError ? failure : fail.failed(`logcat on ${this.serial}: ${reason}`),
    );
    this.readyWaiters = null;
    this.state = 'stopped';
    this.reason = reason;
    this.stoppedAt = Date.now();
    this.hooks.state(this);
  }
}
