/**
 * One build, from spawning the wrapper to its history record. The output is parsed as it streams
 * (one parser per build), kept as a bounded tail, and published in batches as `build.lines`; the
 * requester gets progress every 2 s when it asked for it. A timeout or a cancel stops the process
 * tree; whatever the ending, the build is recorded with what it wrote and who cancelled it.
 */
import type { BuildDiagnosticWire, BuildRecord, RunningBuild } from '../../bus/messages/build.js';
import type { Progress } from '../../bus/envelope.js';
import type { Origin } from '../../bus/origin.js';
import type { EventOf, EventTopic } from '../../bus/registry.js';
import type { ProjectModel } from '../../project/project-model.js';
import type { Logger } from '../../util/log.js';
import type { BuildDiagnostic } from './diagnostic.js';
import { appendHistory } from '../../store/build-history.js';
import { keepMapping } from '../../store/mappings.js';
import type { BuildEnv } from './build-env.js';
import { collectBuildOutputs } from './build-outputs.js';
import { MAX_LINE_CHARS, saveBuildOutput } from './build-output-store.js';
import { gitProvenance, type GitProvenanceResult } from './git-provenance.js';
import { pickResolvedDependencies } from './dependency-report.js';
import { createGradleOutputParser, type GradleOutputParser } from './gradle-output-parse.js';
import { startGradle, wrapperName, type GradleExit, type GradleProcess } from './gradle-process.js';
import { LogTail } from './log-tail.js';

/** How often progress goes to a requester that asked for it (the reference's BUILD_PROGRESS_INTERVAL). */
export const PROGRESS_INTERVAL_MS = 2_000;
/** `build.lines` batches go out at least this often while lines arrive… */
const LINES_FLUSH_MS = 200;
/** …or as soon as this many lines wait. */
const LINES_BATCH = 1_000;

export interface BuildRunInit {
  id: string;
  project: ProjectModel;
  task: string;
  requestedTask: string;
  variant: string | null;
  module: string | null;
  origin: Origin;
  timeoutSec: number;
  env: BuildEnv;
  /** The build files as this build reads them, hashed once before Gradle runs (null: unreadable). */
  buildFiles: { path: string; sha256: string }[] | null;
  /** Gradle's arguments after the task (`-Pandroid.testInstrumentationRunnerArguments.class=…`). */
  extraArgs?: readonly string[];
  emit<E extends EventTopic>(topic: E, payload: EventOf<E>): void;
  /** Set when the requester wants progress notifications. */
  progress?: (p: Progress) => void;
  log: Logger;
}

/** A build that ended: its record and what get_build_errors / get_build_log read. */
export interface FinishedBuild {
  record: BuildRecord;
  diagnostics: BuildDiagnosticWire[];
  whatWentWrong: string[];
  tail: LogTail;
}

/** The parser's diagnostic in the wire's snake_case. */
export function diagnosticToWire(d: BuildDiagnostic): BuildDiagnosticWire {
  return {
    severity: d.severity,
    source: d.source,
    message: d.message,
    file: d.file,
    line: d.line,
    column: d.column,
    end_line: d.endLine,
    end_column: d.endColumn,
    task: d.task,
    code: d.code,
    output_line: d.outputLine,
  };
}

/** `1m 05s`, `12s`. */
export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m ${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** Who cancelled, in words for the model. */
export function describeOrigin(origin: Origin): string {
  switch (origin.kind) {
    case 'agent':
      return `an agent${origin.client_name ? ` (${origin.client_name})` : ''}, session ${origin.session_id}${origin.standalone ? ' (standalone)' : ''}`;
    case 'host':
      return 'the user on the droidbus host';
    case 'host_quit':
      return 'droidbus host quitting';
    case 'actor':
      return `droidbus (${origin.address})`;
    case 'cli':
      return 'the droidbus command line';
    default: {
      const never: never = origin;
      return String(never);
    }
  }
}

export class BuildRun {
  readonly id: string;
  readonly startedAt = Date.now();
  readonly tail = new LogTail();
  readonly done: Promise<FinishedBuild>;
  /** Set once the build ended and its record is made (before it is written): it is no longer running. */
  finalRecord: BuildRecord | null = null;
  private readonly parser: GradleOutputParser = createGradleOutputParser();
  private process: GradleProcess | null = null;
  private cancelledBy: Origin | null = null;
  private stopReason: string | null = null;
  private timedOut = false;
  private batch: string[] = [];
  private batchFrom = 0;
  private readonly timers: NodeJS.Timeout[] = [];
  private resolveDone!: (f: FinishedBuild) => void;
  private readonly git: Promise<GitProvenanceResult>;
  private readonly buildFiles: Promise<{ path: string; sha256: string }[] | null>;

  constructor(private readonly init: BuildRunInit) {
    this.id = init.id;
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
    this.git = gitProvenance(init.project.root).catch((err: unknown) => ({
      git: null,
      reason: `git failed: ${String(err)}`,
    }));
    this.buildFiles = Promise.resolve(init.buildFiles);
  }

  /** Starts Gradle (unless the build was cancelled before it could start). */
  start(): void {
    const { init } = this;
    init.emit('build.started', {
      id: this.id,
      project_root: init.project.root,
      task: init.task,
      variant: init.variant,
      module: init.module,
      origin: init.origin,
      started_at: new Date(this.startedAt).toISOString(),
      pid: process.pid,
    });
    if (this.cancelledBy !== null || this.stopReason !== null) {
      void this.finish({ code: null, signal: null });
      return;
    }
    this.process = startGradle({
      root: init.project.root,
      args: ['--console=plain', init.task, ...(init.extraArgs ?? [])],
      env: init.env.env,
      onLine: (line) => this.onLine(line),
    });
    this.timers.push(
      setTimeout(() => {
        this.timedOut = true;
        this.stopReason = `timed out after ${init.timeoutSec} s (settings.json mcp.build_timeout_sec); droidbus stopped it`;
        this.process?.stop();
      }, init.timeoutSec * 1000),
    );
    if (init.progress) {
      const report = init.progress;
      this.timers.push(setInterval(() => report(this.progressNow()), PROGRESS_INTERVAL_MS));
    }
    this.timers.push(setInterval(() => this.flush(), LINES_FLUSH_MS));
    void this.process.exited.then((exit) => this.finish(exit));
  }

  /** Stops the build on behalf of `by` (null: droidbus itself is stopping, with `reason`). */
  cancel(by: Origin | null, reason: string): void {
    if (this.cancelledBy !== null || this.stopReason !== null) {
      return;
    }
    this.cancelledBy = by;
    this.stopReason = reason;
    this.process?.stop();
  }

  /** The status snapshot get_build_status shows. */
  snapshot(): RunningBuild {
    const summary = this.parser.summary();
    return {
      id: this.id,
      project_root: this.init.project.root,
      task: this.init.task,
      variant: this.init.variant,
      module: this.init.module,
      origin: this.init.origin,
      started_at: new Date(this.startedAt).toISOString(),
      elapsed_ms: Date.now() - this.startedAt,
      current_task: this.parser.currentTask,
      log_lines: this.tail.total,
      errors: summary.errorCount,
      warnings: summary.warningCount,
      cancelling: this.stopReason !== null ? this.cancelledBy : null,
    };
  }

  /** Diagnostics parsed so far. */
  diagnosticsNow(): BuildDiagnosticWire[] {
    return this.parser.diagnostics().map(diagnosticToWire);
  }

  private progressNow(): Progress {
    const elapsed = Date.now() - this.startedAt;
    const task = this.parser.currentTask;
    return {
      progress: Math.floor(elapsed / 1000),
      message: `${formatElapsed(elapsed)} elapsed${task ? ` — > Task ${task}` : ''}`,
    };
  }

  private onLine(raw: string): void {
    const line = raw.length > MAX_LINE_CHARS ? `${raw.slice(0, MAX_LINE_CHARS)} […]` : raw;
    this.tail.push(line);
    this.parser.pushLine(raw);
    this.batch.push(line);
    if (this.batch.length >= LINES_BATCH) {
      this.flush();
    }
  }

  private flush(): void {
    if (this.batch.length === 0) {
      return;
    }
    const lines = this.batch;
    this.batch = [];
    this.init.emit('build.lines', { id: this.id, from: this.batchFrom, lines });
    this.batchFrom += lines.length;
  }

  private async finish(exit: GradleExit): Promise<void> {
    this.timers.forEach((t) => clearTimeout(t));
    this.flush();
    const { init } = this;
    const cancelled = this.cancelledBy !== null || (this.stopReason !== null && !this.timedOut);
    this.parser.end({ exitCode: exit.code, cancelled });
    const summary = this.parser.summary();
    const diagnostics = this.parser.diagnostics().map(diagnosticToWire);
    const endedAt = Date.now();
    let result: BuildRecord['result'];
    let reason: string | null;
    if (cancelled) {
      result = 'cancelled';
      reason =
        this.cancelledBy !== null
          ? `cancelled by ${describeOrigin(this.cancelledBy)}`
          : (this.stopReason ?? 'cancelled');
    } else if (this.timedOut) {
      result = 'failed';
      reason = this.stopReason;
    } else if (exit.spawnError !== undefined) {
      result = 'failed';
      reason = `could not start ${wrapperName()}: ${exit.spawnError}`;
    } else if (exit.code === 0) {
      result = 'success';
      reason = null;
    } else {
      result = 'failed';
      const how = exit.code !== null ? `exited with code ${exit.code}` : `was killed by ${exit.signal}`;
      reason = `Gradle ${how}${summary.failedTasks.length > 0 ? `; failed tasks: ${summary.failedTasks.join(', ')}` : ''}`;
    }
    let outputs: Awaited<ReturnType<typeof collectBuildOutputs>> = { apks: [], mappings: [] };
    if (exit.spawnError === undefined && this.process !== null) {
      try {
        outputs = await collectBuildOutputs(
          init.project,
          this.startedAt,
          summary,
          init.module,
          exit.code === 0 && !cancelled ? init.variant : null,
        );
      } catch (err) {
        init.log.warn('reading the build outputs failed', { id: this.id, error: String(err) });
      }
    }
    const git = await this.git;
    const buildFiles = await this.buildFiles;
    const apkAgp = outputs.apks.find((a) => a.agp_version)?.agp_version ?? null;
    const agpVersion = summary.agpVersion ?? apkAgp;
    const record: BuildRecord = {
      id: this.id,
      project_root: init.project.root,
      task: init.task,
      requested_task: init.requestedTask,
      variant: init.variant,
      module: init.module,
      origin: init.origin,
      cancelled_by: cancelled ? this.cancelledBy : null,
      pid: process.pid,
      started_at: new Date(this.startedAt).toISOString(),
      ended_at: new Date(endedAt).toISOString(),
      duration_ms: endedAt - this.startedAt,
      result,
      reason,
      timed_out: this.timedOut,
      exit_code: exit.code,
      signal: exit.signal,
      failed_tasks: summary.failedTasks,
      diagnostics: {
        errors: summary.errorCount,
        warnings: summary.warningCount,
        infos: diagnostics.filter((d) => d.severity === 'info').length,
        dropped: summary.droppedDiagnostics,
      },
      output_truncated: summary.truncated,
      log_lines: this.tail.total,
      apks: outputs.apks,
      mapping_files: outputs.mappings,
      gradle_version: summary.gradleVersion,
      agp_version: agpVersion,
      java_home: init.env.javaHome,
      provenance: { git: git.git, git_reason: git.reason },
      jdk_version: init.env.java.version,
      agp_version_source: summary.agpVersion !== null ? 'output' : apkAgp !== null ? 'apk' : null,
      dependencies: pickResolvedDependencies(summary.resolvedConfigurations, init.variant),
      build_files: buildFiles,
    };
    this.finalRecord = record;
    try {
      await appendHistory(record);
    } catch (err) {
      init.log.error('could not append to build-history.json', { id: this.id, error: String(err) });
    }
    // The project's mapping.txt is overwritten by the next build: keep a copy, so a crash of this
    // build on a device can be deobfuscated later.
    for (const mapping of outputs.mappings) {
      await keepMapping(mapping.path, {
        build_id: this.id,
        project_root: init.project.root,
        module: init.module,
        variant: mapping.variant ?? init.variant,
      }).catch((err: unknown) =>
        init.log.warn('could not keep the mapping', { path: mapping.path, error: String(err) }),
      );
    }
    saveBuildOutput({
      id: this.id,
      total_lines: this.tail.total,
      log: this.tail.last(this.tail.total),
      diagnostics,
      what_went_wrong: summary.whatWentWrong,
    });
    init.emit('build.completed', { record });
    this.resolveDone({ record, diagnostics, whatWentWrong: summary.whatWentWrong, tail: this.tail });
  }
}
