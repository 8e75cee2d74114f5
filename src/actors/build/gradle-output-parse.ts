/**
 * An incremental parser of Gradle's console output. Feed it lines (or chunks) as the build prints
 * them; it returns the diagnostics each line completes, with the task they came from, and keeps a
 * summary: result, failed tasks, duration, versions, APKs and mapping files. Diagnostics printed
 * twice (in the task's output and again under "What went wrong") are kept once. It never throws.
 */
import { DiagnosticSet, diagnostic, type BuildDiagnostic, type DiagnosticSource } from './diagnostic.js';
import {
  matchAapt,
  matchAgpbi,
  matchConfigCacheProblem,
  matchDuplicate,
  matchJavacHeader,
  matchKotlinPayload,
  matchKsp,
  matchLint,
  matchR8,
} from './gradle-line-patterns.js';
import {
  matchResultLine,
  matchTotalTime,
  noteArtifacts,
  noteVersions,
  type ArtifactFacts,
  type BuildResult,
  type VersionFacts,
} from './gradle-build-facts.js';

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

const TASK_HEADER = /^> Task (\S+)(?: (UP-TO-DATE|FAILED|NO-SOURCE|FROM-CACHE|SKIPPED))?$/;
const OLD_TASK_HEADER = /^(:[\w.-]+(?::[\w.-]+)*)(?: (UP-TO-DATE|FAILED|NO-SOURCE|FROM-CACHE|SKIPPED))?$/;
const EXECUTION_FAILED = /Execution failed for task '([^']+)'/;
const WHERE_LOCATION = /^(?:Build file|Settings file|Script|Init script) '(.+)' line: (\d+)$/;
const FLUTTER_PREFIX = /^\[\s*\+?\d+ ms\] /;
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

type Pending =
  | { kind: 'javac'; d: BuildDiagnostic; stage: 'source' | 'caret' | 'details'; details: string[] }
  | { kind: 'ksp'; d: BuildDiagnostic; extra: string[] }
  | { kind: 'r8'; d: BuildDiagnostic }
  | { kind: 'duplicate'; groups: Map<string, { d: BuildDiagnostic; firstClass: string; count: number }> };

interface WhatWentWrong {
  lines: string[];
  task: string | null;
  startedAt: number;
  where: { file: string; line: number } | null;
}

/** What kind of tool a task runs, for diagnostics that do not say so themselves. */
export function taskSource(task: string | null): DiagnosticSource | null {
  if (task === null) {
    return null;
  }
  const name = task.slice(task.lastIndexOf(':') + 1);
  if (/^kapt\w*Kotlin$|^kaptGenerateStubs/.test(name)) {
    return 'kapt';
  }
  if (/^ksp\w*Kotlin/.test(name)) {
    return 'ksp';
  }
  if (/JavaWithJavac$|^compile\w*Java$|^hiltJavaCompile/.test(name)) {
    return 'javac';
  }
  if (/^compile\w*Kotlin/.test(name)) {
    return 'kotlin';
  }
  if (/^(?:process|link|verify|merge)\w*Resources$|^(?:compile|link)\w*Resources/.test(name)) {
    return 'aapt2';
  }
  if (
    /^minify\w*With(?:R8|Proguard)$|^dexBuilder|^mergeDex|^mergeExtDex|^mergeLibDex|^mergeProjectDex/.test(
      name,
    )
  ) {
    return 'r8';
  }
  if (/^lint/.test(name)) {
    return 'lint';
  }
  if (/^check\w*DuplicateClasses$/.test(name)) {
    return 'duplicate-class';
  }
  return null;
}

const WWW_NOISE = [
  /^A failure occurred while executing /,
  /^\d+ exceptions? (?:was|were) raised by workers:$/,
  /^Fix the issues identified by lint, or add the following/,
  /^(?:\.\.\.|android \{|lintOptions \{|lint \{|abortOnError false|\})$/,
];

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
  private r8Context = false;
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
    if (this.pending && this.continuePending(this.pending, line)) {
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
    if (p.kind === 'duplicate') {
      // One diagnostic per pair of clashing artifacts, not one per class.
      for (const [modules, g] of p.groups) {
        if (g.count > 1) {
          g.d.message = `Duplicate class ${g.firstClass} found in modules ${modules} (and ${g.count - 1} more duplicate classes from the same modules)`;
        }
        this.emit(g.d, out);
      }
      return;
    }
    if (p.kind === 'javac' && p.details.length > 0) {
      p.d.message = [p.d.message, ...p.details].join('\n');
    } else if (p.kind === 'ksp' && p.extra.length > 0) {
      p.d.message = [p.d.message, ...p.extra].filter((s) => s !== '').join('\n');
    }
    this.emit(p.d, out);
  }

  /** Tries `line` as the continuation of a multi-line diagnostic; true when consumed. */
  private continuePending(p: Pending, rawLine: string): boolean {
    switch (p.kind) {
      case 'javac': {
        // kapt run through the Kotlin reporter prefixes every line with `e: `.
        const line = rawLine.startsWith('e: ') ? rawLine.slice(3) : rawLine === 'e:' ? '' : rawLine;
        if (p.stage === 'source') {
          if (line.trim() === '' || matchJavacHeader(line.trim()) || line.startsWith('> Task ')) {
            return false;
          }
          p.stage = 'caret';
          return true;
        }
        if (p.stage === 'caret') {
          const caret = /^(\s*)\^\s*$/.exec(line);
          if (caret) {
            p.d.column = (caret[1] as string).length + 1;
            p.stage = 'details';
            return true;
          }
          p.stage = 'details';
        }
        if (/^\s+\S/.test(line) && p.details.length < 12 && !line.trimStart().startsWith('at ')) {
          p.details.push(line.trim());
          return true;
        }
        return false;
      }
      case 'ksp': {
        const t = rawLine.trim();
        if (
          t === '' ||
          p.extra.length >= 20 ||
          /^(?:[ew]: |> |\* |FAILURE|BUILD |Execution failed)/.test(t) ||
          TASK_HEADER.test(t)
        ) {
          return false;
        }
        if (p.d.message === '') {
          p.d.message = t;
        } else {
          p.extra.push(t);
        }
        return true;
      }
      case 'r8': {
        const t = rawLine.trim();
        if (/^\(referenced from|^and \d+ other contexts?\)?$/.test(t)) {
          p.d.message += ` ${t}`;
          return true;
        }
        return false;
      }
      case 'duplicate': {
        const dup = matchDuplicate(rawLine);
        if (!dup) {
          return false;
        }
        this.addDuplicate(p.groups, dup.className, dup.modules);
        return true;
      }
    }
  }

  private setTask(task: string, status: string | undefined): void {
    this.task = task;
    this.r8Context = taskSource(task) === 'r8';
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
    if (t === '' || /^~+$/.test(t)) {
      return;
    }
    const task = this.currentSourceTask();
    const withTask = (d: BuildDiagnostic): BuildDiagnostic => {
      d.task ??= task;
      return d;
    };

    const agpbi = matchAgpbi(t);
    if (agpbi) {
      this.emit(withTask(agpbi), out);
      return;
    }
    if (t.startsWith('e: ') || t.startsWith('w: ')) {
      const severity = t[0] === 'e' ? 'error' : 'warning';
      const payload = t.slice(3);
      const ksp = matchKsp(payload, severity);
      if (ksp) {
        this.pending = { kind: 'ksp', d: withTask(ksp), extra: [] };
        return;
      }
      const javac = matchJavacHeader(payload);
      if (javac) {
        this.startJavac(withTask(javac));
        return;
      }
      if (payload.trim() === '') {
        return;
      }
      const k = withTask(matchKotlinPayload(payload, severity));
      if (taskSource(k.task) === 'kapt' && k.file === null) {
        k.source = 'kapt';
      } else if (taskSource(k.task) === 'ksp' && k.file === null) {
        k.source = 'ksp';
      }
      this.emit(k, out);
      return;
    }
    const javac = matchJavacHeader(t);
    if (javac) {
      this.startJavac(withTask(javac));
      return;
    }
    const lint = matchLint(t);
    if (lint) {
      this.emit(withTask(lint), out);
      return;
    }
    const aapt = matchAapt(t);
    if (aapt) {
      this.emit(withTask(aapt), out);
      return;
    }
    const r8 = matchR8(t, this.r8Context);
    if (r8) {
      this.r8Context = true;
      if (r8.kind === 'missing' || r8.kind === 'tool') {
        this.pending = { kind: 'r8', d: withTask(r8.diagnostic) };
      } else {
        this.emit(withTask(r8.diagnostic), out);
      }
      return;
    }
    const dup = matchDuplicate(t);
    if (dup) {
      const groups = new Map<string, { d: BuildDiagnostic; firstClass: string; count: number }>();
      this.addDuplicate(groups, dup.className, dup.modules);
      this.pending = { kind: 'duplicate', groups };
      return;
    }
    if (
      /^\d+ problems? (?:was|were) found (?:storing|reusing) the configuration cache/.test(t) ||
      t.startsWith('Configuration cache problems found')
    ) {
      this.ccContext = true;
      return;
    }
    if (this.ccContext) {
      const cc = matchConfigCacheProblem(t);
      if (cc) {
        if (!inBlock) {
          // Problems listed outside a failure are warnings (`problems=warn`).
          cc.severity = 'warning';
        }
        this.emit(cc, out);
        return;
      }
    }
    const bare = /^(error|warning): (.+)$/.exec(t);
    if (bare && !/^error: failed (?:linking|processing|compiling)/.test(t)) {
      const source = taskSource(task);
      if (source === 'javac' || source === 'kapt' || source === 'aapt2') {
        this.emit(
          withTask(
            diagnostic({
              severity: bare[1] === 'error' ? 'error' : 'warning',
              source,
              message: (bare[2] as string).trim(),
            }),
          ),
          out,
        );
      }
    }
  }

  private addDuplicate(
    groups: Map<string, { d: BuildDiagnostic; firstClass: string; count: number }>,
    className: string,
    modules: string,
  ): void {
    const g = groups.get(modules);
    if (g) {
      g.count++;
      return;
    }
    const d = diagnostic({
      severity: 'error',
      source: 'duplicate-class',
      message: `Duplicate class ${className} found in modules ${modules}`,
      task: this.currentSourceTask(),
      outputLine: this.lineNo,
    });
    groups.set(modules, { d, firstClass: className, count: 1 });
  }

  private startJavac(d: BuildDiagnostic): void {
    if (d.source === 'javac' && taskSource(d.task) === 'kapt') {
      d.source = 'kapt';
    }
    this.pending = { kind: 'javac', d, stage: 'source', details: [] };
  }

  /** Closes a "What went wrong" block; adds its message as a diagnostic unless something more specific explains the failure. */
  private endWhatWentWrong(out: BuildDiagnostic[]): void {
    const block = this.www;
    if (!block) {
      return;
    }
    this.flushPending(out);
    this.www = null;
    this.ccContext = false;
    const text = block.lines
      .map((l) => l.replace(/^[\s>]+/, '').trimEnd())
      .filter((l) => l !== '' && !EXECUTION_FAILED.test(l) && !WWW_NOISE.some((re) => re.test(l)));
    const full = block.lines
      .map((l) => l.trimEnd())
      .join('\n')
      .trim();
    if (full !== '' && this.wwwTexts.length < 20) {
      this.wwwTexts.push(full.length > 4000 ? `${full.slice(0, 4000)}…` : full);
    }
    const producedInBlock = this.set.list.length > block.startedAt;
    const explained = this.set.list.some(
      (d) => d.severity === 'error' && (d.task === block.task || (d.task === null && block.task !== null)),
    );
    if (producedInBlock || explained) {
      return;
    }
    let message = text.slice(0, 20).join('\n');
    if (message.length > 2000) {
      message = `${message.slice(0, 2000)}…`;
    }
    if (message === '') {
      message =
        block.task !== null
          ? `Execution failed for task '${block.task}'.`
          : 'The build failed (no details were printed).';
    }
    const source = taskSource(block.task);
    this.emit(
      diagnostic({
        severity: 'error',
        source:
          source === 'lint' || source === 'kapt' || source === 'ksp' || source === 'r8' ? source : 'gradle',
        message,
        task: block.task,
        file: block.where?.file ?? null,
        line: block.where?.line ?? null,
      }),
      out,
    );
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
      apks: [...this.artifacts.apks],
      mappingFiles: [...this.artifacts.mappingFiles],
      reports: [...this.artifacts.reports],
      whatWentWrong: [...this.wwwTexts],
      lines: this.lineNo,
    };
  }
}

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
