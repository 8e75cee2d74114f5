/**
 * One device's stream through the core: parse → enrich → crash detection → store, and finished
 * crashes filed under their groups. The logcat actor owns one pipeline per streamed device and one
 * store and group table for all of them.
 */
import type { Crash, LogEntry } from './logcat-types.js';
import { LogcatParser, type ParserOptions } from './logcat-parse.js';
import { LogEnricher } from './logcat-enrich.js';
import { CrashDetector, type DetectedCrash } from './crash-detect.js';
import type { CrashGroups } from './crash-group.js';
import type { LogStore } from './log-store.js';
import { PidMap, type PsProcess } from './pid-map.js';

/** Options for a device pipeline. */
export interface PipelineOptions {
  /** The device serial (stamped on entries and crashes). */
  device: string | null;
  store: LogStore;
  groups: CrashGroups;
  /** Parser options other than the device. */
  parser?: Omit<ParserOptions, 'device'>;
  /** Parse JSON payloads (default true). */
  json?: boolean;
  /** Most lines kept per crash (default 400). */
  maxCrashLines?: number;
  /** Host clock (default Date.now). */
  now?: () => number;
  /**
   * A finished crash that needs more than its lines before it is filed (an ANR's threads, read
   * from the device): a promise to wait for, or null to file it now.
   */
  beforeFiling?: (crash: Crash) => Promise<void> | null;
  /** Crashes filed after the push that finished them returned (those beforeFiling waited for). */
  late?: (crashes: Crash[]) => void;
}

/** What one push produced. */
export interface PushResult {
  /** Entries stored by this push. */
  entries: number;
  /** Crashes completed by this push (already filed and stored). */
  crashes: Crash[];
}

/** The per-device pipeline. */
export class LogcatPipeline {
  readonly device: string | null;
  readonly pids = new PidMap();
  readonly parser: LogcatParser;
  readonly enricher: LogEnricher;
  readonly detector: CrashDetector;
  private readonly store: LogStore;
  private readonly groups: CrashGroups;
  private readonly now: () => number;
  private readonly batch: LogEntry[] = [];
  private readonly detected: DetectedCrash[] = [];
  private readonly beforeFiling: PipelineOptions['beforeFiling'];
  private readonly late: PipelineOptions['late'];

  constructor(options: PipelineOptions) {
    this.device = options.device;
    this.beforeFiling = options.beforeFiling;
    this.late = options.late;
    this.store = options.store;
    this.groups = options.groups;
    this.now = options.now ?? Date.now;
    this.parser = new LogcatParser({ ...options.parser, device: options.device });
    const enricherOptions: { pids: PidMap; json?: boolean } = { pids: this.pids };
    if (options.json !== undefined) {
      enricherOptions.json = options.json;
    }
    this.enricher = new LogEnricher(enricherOptions);
    this.detector = new CrashDetector({
      device: options.device,
      pids: this.pids,
      maxLines: options.maxCrashLines ?? 400,
      now: this.now,
    });
  }

  /** Seeds the pid map from `ps -A` (see parsePs). */
  seedProcesses(list: readonly PsProcess[]): void {
    this.pids.seed(list);
  }

  /** Feeds a chunk of logcat output. */
  push(chunk: string | Uint8Array): PushResult {
    this.batch.length = 0;
    this.parser.push(chunk, this.batch);
    return this.process();
  }

  /** End of the stream: flushes the partial line and finishes open crashes. */
  end(): PushResult {
    this.batch.length = 0;
    this.parser.end(this.batch);
    const r = this.process();
    this.detector.flush(this.detected);
    r.crashes.push(...this.file());
    return r;
  }

  /**
   * The input reached a known end without ending (a buffer dump read to its last line, the stream
   * follows): finishes open crashes, whose lines are all there, and keeps the parser going.
   */
  settle(): Crash[] {
    this.detector.flush(this.detected);
    return this.file();
  }

  /** Timer hook: finishes crashes whose process went quiet since the previous tick. */
  tick(): Crash[] {
    this.detector.tick(this.detected);
    return this.file();
  }

  private process(): PushResult {
    const batch = this.batch;
    const now = this.now();
    const store = this.store;
    const enricher = this.enricher;
    const detector = this.detector;
    const detected = this.detected;
    for (let i = 0; i < batch.length; i++) {
      const e = batch[i] as LogEntry;
      enricher.enrich(e);
      detector.feed(e, detected);
      store.push(e, now);
    }
    return { entries: batch.length, crashes: detected.length > 0 ? this.file() : [] };
  }

  private file(): Crash[] {
    if (this.detected.length === 0) {
      return [];
    }
    const out: Crash[] = [];
    for (const { crash, entries } of this.detected) {
      if (crash.seq === 0) {
        crash.seq = entries[0]?.seq ?? 0;
      }
      const wait = this.beforeFiling?.(crash) ?? null;
      if (wait === null) {
        this.fileOne(crash, entries);
        out.push(crash);
      } else {
        void wait
          .catch(() => undefined)
          .then(() => {
            this.fileOne(crash, entries);
            this.late?.([crash]);
          });
      }
    }
    this.detected.length = 0;
    return out;
  }

  /** Files a crash under its group, marks its lines, and stores it. */
  private fileOne(crash: Crash, entries: readonly LogEntry[]): void {
    const g = this.groups.add(crash);
    for (const e of entries) {
      e.crash_group = g.id;
    }
    this.store.addCrash(crash);
  }
}
