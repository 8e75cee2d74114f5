/**
 * An incremental parser of Gradle's console output. Feed it lines (or chunks) as the build prints
 * them; it returns the diagnostics each line completes, with the task they came from, and keeps a
 * summary: result, failed tasks, duration, versions, APKs and mapping files. Diagnostics printed
 * twice (in the task's output and again under "What went wrong") are kept once. It never throws.
 */
import { DiagnosticSet, type BuildDiagnostic } from './diagnostic.js';
import { recognizeLine, type LineContext } from './line-diagnostics.js';
import type { R8Context } from './gradle-line-patterns.js';
import { continuePending, finishPending, type Pending } from './multiline-diagnostics.js';
import { OLD_TASK_HEADER, TASK_HEADER, taskSource } from './task-source.js';
import {
  blockDiagnostic,
  blockText,
  EXECUTION_FAILED,
  saysMoreThan,
  WHERE_LOCATION,
  type WhatWentWrong,
} from './what-went-wrong.js';
import {
  matchResultLine,
  matchTotalTime,
  noteArtifacts,
  noteVersions,
  type ArtifactFacts,
  type BuildResult,
  type VersionFacts,
} from './gradle-build-facts.js';
import { DependencyReport, type ResolvedConfiguration } from './dependency-report.js';

export interface BuildOutputSummary {
  /** `unknown` when the output ended without a result line and no exit code was given. */
  result: BuildResult | 'unknown';
  failedTasks: string[];
  durationMs: number | null;
  /** The output had no `BUILD …` line: it was cut short, or the process died. */
  truncated: boolean;
  /** The last `> Task …` seen. */
  lastTask: string | null;
  errorCount: number;
  warningCount: number;
  /** Diagnostics beyond the stored maximum (counted, not kept). */
  droppedDiagnostics: number;
  gradleVersion: string | null;
  agpVersion: string | null;
  /** Dependency trees the output printed (`dependencies` reports), with resolved versions. */
  resolvedConfigurations: ResolvedConfiguration[];
  apks: string[];
  mappingFiles: string[];
  /** Reports the output points to (configuration cache, lint, R8 missing rules). */
  reports: string[];
  /** The "What went wrong" paragraphs, as printed (trimmed, capped). */
  whatWentWrong: string[];
  lines: number;
}

export interface GradleOutputParser {
  /** Feeds one line (without its newline); returns the diagnostics it completed. */
  pushLine(line: string): BuildDiagnostic[];
  /** Feeds raw output; partial lines are kept until their newline arrives. */
  pushChunk(chunk: string): BuildDiagnostic[];
  /** Ends the output; completes pending diagnostics and settles the result. */
  end(opts?: { exitCode?: number | null; cancelled?: boolean }): BuildDiagnostic[];
  /** All diagnostics so far (copies; tasks filled in where the output named the failed task later). */
  diagnostics(): BuildDiagnostic[];
  summary(): BuildOutputSummary;
  readonly currentTask: string | null;
}

export interface GradleOutputParserOptions {
  /** Diagnostics kept at most (default 2,000); further ones are counted. */
  maxDiagnostics?: number;
  /** Longer lines are cut here before parsing (default 64 KiB). */
  maxLineLength?: number;
}

const FLUTTER_PREFIX = /^\[\s*\+?\d+ ms\] /;
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

class Parser implements GradleOutputParser {
  private lineNo = 0;
  private task: string | null = null;
  private pending: Pending | null = null;
  private readonly set: DiagnosticSet;
  private readonly failed: string[] = [];
  private www: WhatWentWrong | null = null;
  private readonly wwwTexts: string[] = [];
  private whereNext = false;
  private where: { file: string; line: number } | null = null;
  private r8Context: R8Context = null;
  private ccContext = false;
  private result: BuildResult | null = null;
  private durationMs: number | null = null;
  private sawFailureBanner = false;
  private sawResultLine = false;
  private ended = false;
  private partial = '';
  private readonly versions: VersionFacts = {
    gradleVersion: null,
    gradleVersionCertain: false,
    agpVersion: null,
  };
  private readonly artifacts: ArtifactFacts = { apks: [], mappingFiles: [], reports: [] };
  private readonly dependencies = new DependencyReport();
  private readonly maxLine: number;

  constructor(opts: GradleOutputParserOptions) {
    this.set = new DiagnosticSet(opts.maxDiagnostics ?? 2000);
    this.maxLine = opts.maxLineLength ?? 64 * 1024;
  }

  get currentTask(): string | null {
    return this.task;
  }

  pushChunk(chunk: string): BuildDiagnostic[] {
    const out: BuildDiagnostic[] = [];
    const text = this.partial + chunk;
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) {
        break;
      }
      out.push(...this.pushLine(text.slice(start, nl)));
      start = nl + 1;
    }
    this.partial = text.slice(start);
    if (this.partial.length > this.maxLine) {
      out.push(...this.pushLine(this.partial));
      this.partial = '';
    }
    return out;
  }

  pushLine(raw: string): BuildDiagnostic[] {
    if (this.ended) {
      return [];
    }
    let line = raw.length > this.maxLine ? raw.slice(0, this.maxLine) : raw;
    if (line.endsWith('\r')) {
      line = line.slice(0, -1);
    }
    if (line.includes('\x1b')) {
      line = line.replace(ANSI, '');
    }
    if (line.startsWith('[') && FLUTTER_PREFIX.test(line)) {
      line = line.replace(FLUTTER_PREFIX, '');
    }
    this.lineNo++;
    const out: BuildDiagnostic[] = [];
    if (this.pending && continuePending(this.pending, line, this.currentSourceTask(), this.lineNo)) {
      return out;
    }
    this.flushPending(out);
    this.handle(line, out);
    return out;
  }

  private emit(d: BuildDiagnostic, out: BuildDiagnostic[]): void {
    d.outputLine ||= this.lineNo;
    if (this.set.add(d)) {
      out.push(d);
    }
  }

  private flushPending(out: BuildDiagnostic[]): void {
    const p = this.pending;
    if (!p) {
      return;
    }
    this.pending = null;
    for (const d of finishPending(p)) {
      this.emit(d, out);
    }
  }

  private setTask(task: string, status: string | undefined): void {
    this.task = task;
    this.r8Context = taskSource(task) === 'r8' ? 'error' : null;
    this.ccContext = false;
    if (status === 'FAILED') {
      this.noteFailed(task);
    }
  }

  private noteFailed(task: string): void {
    if (!this.failed.includes(task)) {
      this.failed.push(task);
    }
  }

  private handle(line: string, out: BuildDiagnostic[]): void {
    const t = line.trimStart();
    // Facts first: they never consume the line.
    noteVersions(line, this.versions);
    noteArtifacts(line, this.artifacts);
    this.dependencies.note(line);

    if (t.startsWith('> Task ')) {
      const m = TASK_HEADER.exec(t);
      if (m) {
        this.endWhatWentWrong(out);
        this.setTask(m[1] as string, m[2]);
        return;
      }
    }
    if (line.startsWith(':')) {
      const m = OLD_TASK_HEADER.exec(line);
      if (m) {
        this.setTask(m[1] as string, m[2]);
        return;
      }
    }
    if (t.startsWith('BUILD ') || t.startsWith('Build cancel')) {
      const r = matchResultLine(t);
      if (r) {
        this.endWhatWentWrong(out);
        this.sawResultLine = true;
        this.result = r.result;
        this.durationMs = r.durationMs ?? this.durationMs;
        return;
      }
    }
    if (t.startsWith('Total time: ')) {
      this.durationMs = matchTotalTime(t) ?? this.durationMs;
      return;
    }
    if (t.startsWith('FAILURE: ')) {
      this.sawFailureBanner = true;
      return;
    }
    if (/^[*-]?\s*What went wrong:\s*$/.test(t)) {
      this.endWhatWentWrong(out);
      this.www = { lines: [], task: null, startedAt: this.set.list.length, where: this.where };
      this.where = null;
      return;
    }
    if (/^\*\s*Where:\s*$/.test(t)) {
      this.whereNext = true;
      return;
    }
    if (this.whereNext) {
      this.whereNext = false;
      const w = WHERE_LOCATION.exec(t);
      if (w) {
        this.where = { file: w[1] as string, line: Number(w[2]) };
        return;
      }
    }
    if (this.www) {
      if (/^\* (?:Try|Exception is|Get more help)|^={10,}|^\d+: Task failed with an exception\.$/.test(t)) {
        this.endWhatWentWrong(out);
        return;
      }
      if (this.www.lines.length < 400) {
        this.www.lines.push(line);
      }
      const failed = EXECUTION_FAILED.exec(t);
      if (failed) {
        this.www.task ??= failed[1] as string;
        this.noteFailed(failed[1] as string);
        return;
      }
    } else {
      const failed = EXECUTION_FAILED.exec(t);
      if (failed) {
        // Some wrappers print the failure without the "What went wrong" header.
        this.noteFailed(failed[1] as string);
        this.www = { lines: [line], task: failed[1] as string, startedAt: this.set.list.length, where: null };
        return;
      }
    }
    this.matchDiagnostics(line, out);
  }

  private currentSourceTask(): string | null {
    return this.www?.task ?? this.task;
  }

  private matchDiagnostics(line: string, out: BuildDiagnostic[]): void {
    // Inside "What went wrong" lines are indented and may carry `> ` markers.
    const inBlock = this.www !== null;
    const t = inBlock ? line.replace(/^[\s>]+/, '') : line.trimStart();
    const ctx: LineContext = {
      task: this.currentSourceTask(),
      r8: this.r8Context,
      configCache: this.ccContext,
      inBlock,
    };
    const r = recognizeLine(t, ctx, this.lineNo);
    this.r8Context = ctx.r8;
    this.ccContext = ctx.configCache;
    if (r === null) {
      return;
    }
    if (r.kind === 'pending') {
      this.pending = r.pending;
    } else {
      this.emit(r.diagnostic, out);
    }
  }

  /** Closes a "What went wrong" block; its message becomes a diagnostic unless something more specific explains the failure. */
  private endWhatWentWrong(out: BuildDiagnostic[]): void {
    const block = this.www;
    if (!block) {
      return;
    }
    this.flushPending(out);
    this.www = null;
    this.ccContext = false;
    const full = blockText(block);
    if (full !== '' && this.wwwTexts.length < 20) {
      this.wwwTexts.push(full);
    }
    const producedInBlock = this.set.list.length > block.startedAt;
    const ofTask = this.set.list.filter(
      (d) => d.severity === 'error' && (d.task === block.task || (d.task === null && block.task !== null)),
    );
    if (!producedInBlock && (ofTask.length === 0 || saysMoreThan(block, ofTask))) {
      this.emit(blockDiagnostic(block), out);
    }
  }

  end(opts: { exitCode?: number | null; cancelled?: boolean } = {}): BuildDiagnostic[] {
    if (this.ended) {
      return [];
    }
    const out: BuildDiagnostic[] = [];
    if (this.partial !== '') {
      out.push(...this.pushLine(this.partial));
      this.partial = '';
    }
    this.flushPending(out);
    this.endWhatWentWrong(out);
    this.ended = true;
    if (opts.cancelled) {
      this.result = 'cancelled';
    } else if (this.result === null && opts.exitCode !== undefined && opts.exitCode !== null) {
      this.result = opts.exitCode === 0 ? 'success' : 'failed';
    }
    this.exitKnown = opts.exitCode !== undefined && opts.exitCode !== null;
    return out;
  }

  private exitKnown = false;

  diagnostics(): BuildDiagnostic[] {
    const only = this.failed.length === 1 ? (this.failed[0] as string) : null;
    return this.set.list.map((d) => ({ ...d, task: d.task ?? only }));
  }

  summary(): BuildOutputSummary {
    const list = this.set.list;
    const errorCount = list.filter((d) => d.severity === 'error').length;
    let result: BuildResult | 'unknown' = this.result ?? 'unknown';
    if (
      this.result === null &&
      !this.exitKnown &&
      (this.failed.length > 0 || errorCount > 0 || this.sawFailureBanner)
    ) {
      result = 'failed';
    }
    return {
      result,
      failedTasks: [...this.failed],
      durationMs: this.durationMs,
      truncated: !this.sawResultLine,
      lastTask: this.task,
      errorCount,
      warningCount: list.filter((d) => d.severity === 'warning').length,
      droppedDiagnostics: this.set.dropped,
      gradleVersion: this.versions.gradleVersion,
      agpVersion: this.versions.agpVersion,
      resolvedConfigurations: this.dependencies.configurations(),
      apks: [...this.artifacts.apks],
      mappingFiles: [...this.artifacts.mappingFiles],
      reports: [...this.artifacts.reports],
      whatWentWrong: [...this.wwwTexts],
      lines: this.lineNo,
    };
  }
}

export { taskSource } from './task-source.js';

/** Creates an incremental parser for one build's output. */
export function createGradleOutputParser(opts: GradleOutputParserOptions = {}): GradleOutputParser {
  return new Parser(opts);
}

/** Parses a whole captured output at once. */
export function parseGradleOutput(
  text: string,
  opts: GradleOutputParserOptions & { exitCode?: number | null; cancelled?: boolean } = {},
): { diagnostics: BuildDiagnostic[]; summary: BuildOutputSummary } {
  const p = createGradleOutputParser(opts);
  p.pushChunk(text);
  p.end({ exitCode: opts.exitCode ?? null, cancelled: opts.cancelled ?? false });
  return { diagnostics: p.diagnostics(), summary: p.summary() };
}
