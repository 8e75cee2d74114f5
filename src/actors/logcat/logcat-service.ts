/**
 * The logcat actor's state: one LogStore and one CrashGroups for every device, one DeviceStream per
 * started device, the once-a-second timer that finishes quiet crashes (running only while a stream
 * does), and the queries. Events go out on the bus: `logcat.crash` per finished crash and
 * `logcat.state` per stream change.
 */
import type { Device } from '../../device/device.js';
import { fail } from '../../bus/errors.js';
import type { PayloadOf, ResponseOf } from '../../bus/registry.js';
import type { BufferWait, StreamInfo } from '../../bus/messages/logcat.js';
import { readSettings } from '../../store/settings.js';
import { settledWithin } from '../../util/sleep.js';
import type { ActorContext } from '../actor.js';
import { CrashGroups, takeRoundRobin } from './crash-group.js';
import { readAnrReport, remember, type AnrStacksCache } from './anr-stacks.js';
import { DeviceStream } from './device-stream.js';
import { LogStore } from './log-store.js';
import type { LogJournal } from './log-journal.js';
import { queryLogsYielding } from './log-query.js';
import { FairSlices } from './fair-slices.js';
import { LogcatQueryError } from './logcat-query-error.js';
import type { Crash } from './logcat-types.js';
import { RecentRequests } from './recent-requests.js';
import { crashSummary, fitCrashes, fitEntries, toWireCrash, toWireGroup } from './logcat-wire.js';
import { minePackages } from './mine-packages.js';
import { resumePointOf } from './resume-point.js';

/** start_logcat's startup timeout (the reference's 5 s). */
export const START_TIMEOUT_MS = 5_000;
/** How long start_logcat reads the device's buffer before it follows the stream with what it has. */
export const BUFFER_TIMEOUT_MS = 8_000;
/** How long a read waits for a stream still reading its device's buffer before it answers. */
export const BUFFER_WAIT_MS = 8_000;
const TICK_MS = 1_000;
/** Stopped streams remembered for stats (the most recent ones). */
const MAX_STOPPED = 64;
const SETTINGS_TTL_MS = 5_000;

/** How long a finished ANR waits for the device's report of it before it is filed without. */
const ANR_REPORT_MS = 5_000;

/** Crash groups a crash list names at most (one short line each). */
const MAX_NAMED_GROUPS = 50;

/** Where a started stream begins: the device's buffer, now, or after the store's newest line of it. */
export type StreamStart = 'buffer' | 'now' | 'resume';

/** Options of the service (tests shrink the store). */
export interface LogcatServiceOptions {
  maxEntries?: number;
  maxBytes?: number;
  /** Where the store is journaled; what it holds is replayed first (a replaced worker's store). */
  journal?: LogJournal;
}

/** The logcat actor's state (see the module comment). */
export class LogcatService {
  readonly store: LogStore;
  readonly groups = new CrashGroups();
  /** ANR reports read from the devices, by device and pid (anr-stacks.ts). */
  readonly anrStacks: AnrStacksCache = new Map();
  /** The last requests each device's network capture saw (shown beside its crashes). */
  readonly requests = new RecentRequests();
  private readonly streams = new Map<string, DeviceStream>();
  private readonly starting = new Map<string, Promise<ResponseOf<'logcat.start'>>>();
  private readonly stopped = new Map<string, StreamInfo>();
  private timer: NodeJS.Timeout | undefined;
  private settings: { count: number; at: number } | null = null;
  /** The scans' turns on this thread, shared round the sessions that query. */
  private readonly slices = new FairSlices();

  constructor(
    private readonly ctx: Pick<ActorContext, 'emit' | 'log'>,
    private readonly deviceOf: (serial: string) => Device,
    options: LogcatServiceOptions = {},
  ) {
    this.store = new LogStore({
      ...(options.maxEntries !== undefined ? { maxEntries: options.maxEntries } : {}),
      ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    });
    this.journal = options.journal ?? null;
    if (this.journal !== null) {
      const { records, refused } = this.journal.load();
      this.journalRefused = refused;
      for (const why of refused) {
        ctx.log.warn('the logcat journal has a file it will not read', { why });
      }
      this.store.attachJournal(this.journal, records);
      for (const r of records) {
        if (r.t === 'c') {
          this.groups.add(r.c);
        } else if (r.t === 'r') {
          this.groups.clear();
        }
      }
      if (records.length > 0) {
        ctx.log.info('restored the logcat store from its journal', {
          entries: this.store.size,
          crashes: this.store.crashes().length,
          ...(this.journal.adoptedFrom !== null ? { from: this.journal.adoptedFrom } : {}),
        });
      }
    }
  }

  private readonly journal: LogJournal | null;
  /** Journal files the replay would not read, with why. */
  private journalRefused: string[] = [];

  /**
   * Starts a device's stream, or reports the one that runs. `resume` carries on after the newest
   * line the store holds of the device (all of its buffer when the store holds none). `precheck`
   * runs first (the device must be online), inside the start reads wait for.
   */
  start(
    serial: string,
    from: StreamStart,
    signal: AbortSignal,
    precheck: () => Promise<unknown> = () => Promise.resolve(),
  ): Promise<ResponseOf<'logcat.start'>> {
    const running = this.streams.get(serial);
    if (running && running.state === 'streaming') {
      return Promise.resolve({ stream: running.info(), already_streaming: true });
    }
    const pending = this.starting.get(serial);
    if (pending) {
      return pending;
    }
    // Registered before the precheck's await: a read arriving meanwhile waits for this start.
    const started = precheck()
      .then(() => this.open(serial, from, signal))
      .finally(() => this.starting.delete(serial));
    this.starting.set(serial, started);
    return started;
  }

  private async open(
    serial: string,
    from: StreamStart,
    signal: AbortSignal,
  ): Promise<ResponseOf<'logcat.start'>> {
    let point = from === 'resume' ? resumePointOf(this.store, serial) : null;
    const stream = new DeviceStream(this.deviceOf(serial), this.store, this.groups, {
      crashes: (s, crashes) => this.onCrashes(s, crashes),
      state: (s) => this.onState(s),
      beforeFiling: (s, crash) => this.anrReportFor(s.serial, crash),
    });
    this.streams.set(serial, stream);
    this.stopped.delete(serial);
    this.onState(stream);
    this.ensureTimer();
    if (from === 'buffer') {
      // The buffer to its end first, then follow from just after its newest line.
      if ((await stream.readBuffer(BUFFER_TIMEOUT_MS, signal)) > 0) {
        point = resumePointOf(this.store, serial);
      }
    }
    await stream.start(
      point !== null ? { kind: 'resume', point } : { kind: from === 'now' ? 'now' : 'buffer' },
      START_TIMEOUT_MS,
      signal,
    );
    return { stream: stream.info(), already_streaming: false };
  }

  /**
   * Waits, at most BUFFER_WAIT_MS, for the streams still reading their device's buffer (the
   * serial's, or every one): a read right after start_logcat — or in parallel with it — answers
   * from the whole buffer instead of a confident "none". Says how long it waited and which
   * streams had still not read theirs; undefined when none was starting.
   */
  async awaitBuffers(serial: string | undefined): Promise<BufferWait | undefined> {
    const pending = [...this.starting].filter(([s]) => serial === undefined || s === serial);
    if (pending.length === 0) {
      return undefined;
    }
    const since = Date.now();
    const unread = new Set(pending.map(([s]) => s));
    await settledWithin(
      pending.map(([s, p]) => p.finally(() => unread.delete(s))),
      BUFFER_WAIT_MS,
    );
    return { waited_ms: Date.now() - since, unread: [...unread] };
  }

  /** Stops one stream, or all of them. */
  async stop(serial: string | undefined, reason: string): Promise<StreamInfo[]> {
    const targets =
      serial === undefined
        ? [...this.streams.values()]
        : [this.streams.get(serial)].filter((s) => s !== undefined);
    await Promise.all(targets.map((s) => s.stop(reason)));
    return targets.map((s) => s.info());
  }

  /** A device changed state: a stream on a device that left stops with a clear reason. */
  onDeviceState(serial: string, state: string): void {
    const stream = this.streams.get(serial);
    if (stream === undefined || state === 'device') {
      return;
    }
    const reason = state === 'gone' ? 'device disconnected' : `device disconnected (adb reports it ${state})`;
    void stream.stop(reason);
  }

  /** Every stream: running ones, then the most recently stopped. */
  streamInfos(): StreamInfo[] {
    return [...[...this.streams.values()].map((s) => s.info()), ...this.stopped.values()];
  }

  /** Streams whose socket is open. */
  liveStreams(): number {
    let n = 0;
    for (const s of this.streams.values()) {
      n += s.live ? 1 : 0;
    }
    return n;
  }

  /** Whether the crash timer runs. */
  get ticking(): boolean {
    return this.timer !== undefined;
  }

  /** Empties the store (one device's part, or all of it with the crash groups). */
  clear(serial: string | undefined): ResponseOf<'logcat.clear'> {
    const before = this.store.size;
    const crashes = this.store.crashes({ ...(serial !== undefined ? { device: serial } : {}) }).length;
    this.store.clear(serial);
    if (serial === undefined) {
      this.groups.clear();
    }
    return { cleared_entries: before - this.store.size, cleared_crashes: crashes };
  }

  /**
   * The entry query, once the streams starting meanwhile have read their buffers; `session` is who
   * asks (its scan's slices take turns with other sessions').
   */
  async entries(p: PayloadOf<'logcat.entries'>, session = ''): Promise<ResponseOf<'logcat.entries'>> {
    const waited = await this.awaitBuffers(p.serial);
    const count = p.count ?? this.defaultCount();
    let result;
    try {
      result = await queryLogsYielding(
        this.store,
        {
          count,
          ...(p.min_level !== undefined ? { min_level: p.min_level } : {}),
          ...(p.tag !== undefined ? { tag: p.tag } : {}),
          ...(p.text !== undefined ? { text: p.text } : {}),
          ...(p.package !== undefined ? { package: p.package } : {}),
          ...(p.only_crashes !== undefined ? { only_crashes: p.only_crashes } : {}),
          ...(p.serial !== undefined ? { device_serial: p.serial } : {}),
          ...(p.query !== undefined ? { query: p.query } : {}),
          ...(p.since_seq !== undefined ? { since_seq: p.since_seq } : {}),
          ...(p.before_seq !== undefined ? { before_seq: p.before_seq } : {}),
        },
        { mine: p.mine ? minePackages(p.mine) : [], now: Date.now() },
        undefined,
        { slices: this.slices, session },
      );
    } catch (err) {
      if (err instanceof LogcatQueryError) {
        throw fail.invalid(err.message);
      }
      throw err;
    }
    const fitted = fitEntries(result.entries, p.max_chars);
    return {
      entries: fitted.kept,
      has_more: result.has_more || fitted.cut > 0,
      cut_for_size: fitted.cut,
      scanned: result.scanned,
      count,
      streams: this.streamInfos(),
      ...(waited ? { buffer_wait: waited } : {}),
      ...(result.stopped !== undefined ? { stopped: result.stopped } : {}),
    };
  }

  /** Store and stream figures. */
  stats(): ResponseOf<'logcat.stats'> {
    return {
      store: this.store.stats(Date.now()),
      streams: this.streamInfos(),
      groups: this.groups.size,
      live_streams: this.liveStreams(),
      tick_timer: this.ticking,
      ...(this.journal !== null
        ? {
            journal: {
              bytes: this.journal.bytes(),
              cap_bytes: this.journal.cap,
              refused: this.journalRefused,
            },
          }
        : {}),
    };
  }

  /** The newest crashes with their groups, once the streams starting meanwhile have read their buffers. */
  async crashes(p: PayloadOf<'logcat.crashes'>): Promise<ResponseOf<'logcat.crashes'>> {
    const waited = await this.awaitBuffers(p.serial);
    const all = this.store.crashes({
      ...(p.package !== undefined ? { package: p.package } : {}),
      ...(p.serial !== undefined ? { device: p.serial } : {}),
    });
    const before = p.before_seq;
    const chosen = takeRoundRobin(before === undefined ? all : all.filter((c) => c.seq < before), p.count);
    const fitted = fitCrashes(chosen, (id) => (id !== null ? this.groups.get(id) : undefined));
    // Every group the matching crashes belong to, over the whole store, newest first: named even
    // when none of its crashes has room in the answer (25 of one app never hide another's one).
    const groupIds = [...new Set(all.map((c) => c.group_id).filter((id) => id !== null))].slice(
      0,
      MAX_NAMED_GROUPS,
    );
    return {
      crashes: fitted.kept,
      groups: groupIds.flatMap((id) => {
        const g = this.groups.get(id);
        return g ? [toWireGroup(g)] : [];
      }),
      total: all.length,
      cut_for_size: fitted.cut,
      streaming: [...this.streams.values()].filter((s) => s.state === 'streaming').map((s) => s.serial),
      ...(waited ? { buffer_wait: waited } : {}),
    };
  }

  /** The newest crash of a package and/or group, with its group (after the starting streams' buffers). */
  async crashTrace(p: PayloadOf<'logcat.crash_trace'>): Promise<ResponseOf<'logcat.crash_trace'>> {
    const waited = await this.awaitBuffers(undefined);
    const group = p.crash_group_id !== undefined ? this.groups.get(p.crash_group_id) : undefined;
    if (p.crash_group_id !== undefined && group === undefined) {
      throw fail.notFound(
        `no crash group '${p.crash_group_id}' is known (it may have been cleared); call get_crash_logs for the current groups`,
      );
    }
    const [crash] = this.store.crashes({
      count: 1,
      ...(p.package !== undefined ? { package: p.package } : {}),
      ...(p.crash_group_id !== undefined ? { group_id: p.crash_group_id } : {}),
    });
    const latest = group?.latest;
    const found: Crash | undefined =
      crash ?? (latest && (p.package === undefined || latest.package === p.package) ? latest : undefined);
    if (found === undefined) {
      const streaming = [...this.streams.values()].filter((s) => s.state === 'streaming').length;
      throw fail.notFound(
        `no crash${p.package !== undefined ? ` of ${p.package}` : ''} was read from logcat${
          streaming === 0
            ? " (no logcat stream runs: call start_logcat, which reads what the device's log buffer still holds, crashes included, then ask again; reproduce the crash only if it is older than the buffer)"
            : ''
        }${
          waited && waited.unread.length > 0
            ? `; logcat on ${waited.unread.join(', ')} was still reading the device's buffer after ${waited.waited_ms} ms, so a crash it holds may not be read yet: ask again`
            : ''
        }`,
      );
    }
    const g = found.group_id !== null ? this.groups.get(found.group_id) : undefined;
    return {
      crash: toWireCrash(found, g),
      group: g ? toWireGroup(g) : null,
      ...(waited ? { buffer_wait: waited } : {}),
    };
  }

  /**
   * An ANR waits, before it is filed, for the report the device kept of it (its threads: grouped by
   * where the main thread is stuck, answered whole); at most ANR_REPORT_MS, then it is filed as
   * logcat told it. Other crashes are filed at once (null).
   */
  private anrReportFor(serial: string, crash: Crash): Promise<void> | null {
    if (crash.kind !== 'anr' || crash.pid <= 0) {
      return null;
    }
    return readAnrReport(
      this.deviceOf(serial),
      crash.pid,
      crash.process ?? crash.package,
      AbortSignal.timeout(ANR_REPORT_MS),
    ).then((report) => {
      if (report !== null) {
        crash.anr = report;
        remember(this.anrStacks, `${serial}|${crash.pid}`, report);
      }
    });
  }

  /** Crashes of a package read so far (for the runtime state). */
  crashCountOf(pkg: string): number {
    return this.store.crashes({ package: pkg }).length;
  }

  /** Stops every stream and the timer. */
  async shutdown(): Promise<void> {
    await this.stop(undefined, 'droidbus is shutting down');
    this.stopTimer();
    this.journal?.remove();
  }

  private defaultCount(): number {
    const now = Date.now();
    if (this.settings === null || now - this.settings.at > SETTINGS_TTL_MS) {
      let count = 200;
      try {
        count = readSettings().mcp.logcat_default_count;
      } catch (err) {
        this.ctx.log.warn('could not read settings; using 200 lines', { error: String(err) });
      }
      this.settings = { count, at: now };
    }
    return this.settings.count;
  }

  private onCrashes(stream: DeviceStream, crashes: Crash[]): void {
    for (const crash of crashes) {
      const group = crash.group_id !== null ? this.groups.get(crash.group_id) : undefined;
      this.ctx.emit('logcat.crash', {
        device: stream.serial,
        package: crash.package,
        group_id: crash.group_id ?? '',
        kind: crash.kind,
        summary: crashSummary(crash, group),
        pid: crash.pid,
        seq: crash.seq,
        received_at: crash.received_at,
      });
    }
  }

  private onState(stream: DeviceStream): void {
    if (stream.state === 'stopped' && this.streams.get(stream.serial) === stream) {
      this.streams.delete(stream.serial);
      this.stopped.delete(stream.serial);
      this.stopped.set(stream.serial, stream.info());
      while (this.stopped.size > MAX_STOPPED) {
        const oldest = this.stopped.keys().next().value;
        if (oldest === undefined) {
          break;
        }
        this.stopped.delete(oldest);
      }
      if (this.streams.size === 0) {
        this.stopTimer();
      }
    }
    this.ctx.emit('logcat.state', { serial: stream.serial, state: stream.state, reason: stream.reason });
  }

  private ensureTimer(): void {
    if (this.timer === undefined) {
      this.timer = setInterval(() => {
        for (const s of this.streams.values()) {
          s.tick();
        }
      }, TICK_MS);
      this.timer.unref();
    }
  }

  private stopTimer(): void {
    if (this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
