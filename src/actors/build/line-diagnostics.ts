/**
 * Recognises the diagnostic a single output line starts: complete ones (Kotlin, AGPBI, AAPT2, lint,
 * configuration cache) and the first line of multi-line ones (javac/kapt, KSP, R8, duplicate classes).
 */
import { diagnostic, type BuildDiagnostic } from './diagnostic.js';
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
  type R8Context,
} from './gradle-line-patterns.js';
import { addDuplicate, type DuplicateGroup, type Pending } from './multiline-diagnostics.js';
import { taskSource } from './task-source.js';

/** What the parser knows when a line arrives; `r8` and `configCache` are updated by the line. */
export interface LineContext {
  task: string | null;
  /**
   * Inside R8 output, where bare `Missing class …` lines are R8's: the severity they take (that of the
   * `ERROR: R8:` or `WARNING:R8:` line they follow); null outside.
   */
  r8: R8Context;
  /** Inside a configuration-cache problem list. */
  configCache: boolean;
  /** Inside a "What went wrong" block (a failure, not a warning). */
  inBlock: boolean;
}

export type LineResult =
  { kind: 'diagnostic'; diagnostic: BuildDiagnostic } | { kind: 'pending'; pending: Pending };

function javacPending(d: BuildDiagnostic): LineResult {
  if (d.source === 'javac' && taskSource(d.task) === 'kapt') {
    d.source = 'kapt';
  }
  return { kind: 'pending', pending: { kind: 'javac', d, stage: 'source', details: [] } };
}

/** `<test class> > <test name> FAILED`, as Gradle's test logging and AGP's connected runner print it. */
const TEST_FAILED = /^([A-Za-z_$][\w$.]*) > (.+?) FAILED\s*$/;

/** Recognises one trimmed line; null when it starts no diagnostic. */

export function recognizeLine(t: string, ctx: LineContext, outputLine: number): LineResult | null {
  if (t === '' || /^~+$/.test(t)) {
    return null;
  }
  const withTask = (d: BuildDiagnostic): BuildDiagnostic => {
    d.task ??= ctx.task;
    return d;
  };
  const done = (d: BuildDiagnostic): LineResult => ({ kind: 'diagnostic', diagnostic: withTask(d) });

  const agpbi = matchAgpbi(t);
  if (agpbi) {
    return done(agpbi);
  }
  // A failed test: Gradle's test logging (`com.x.FooTest > bar FAILED`) and AGP's connected runner
  // (`com.x.FooTest > bar[Pixel 7 - 14] FAILED `), its trace on the indented lines after it.
  const test = ctx.inBlock ? null : TEST_FAILED.exec(t);
  if (test) {
    const d = withTask(
      diagnostic({
        severity: 'error',
        source: 'test',
        message: `${test[1]} > ${test[2]} FAILED`,
        outputLine,
      }),
    );
    return { kind: 'pending', pending: { kind: 'test', d, trace: [], consumed: 0 } };
  }
  if (t.startsWith('e: ') || t.startsWith('w: ')) {
    const severity = t[0] === 'e' ? 'error' : 'warning';
    const payload = t.slice(3);
    const ksp = matchKsp(payload, severity);
    if (ksp) {
      return { kind: 'pending', pending: { kind: 'ksp', d: withTask(ksp), extra: [] } };
    }
    const javac = matchJavacHeader(payload);
    if (javac) {
      return javacPending(withTask(javac));
    }
    if (payload.trim() === '') {
      return null;
    }
    const k = withTask(matchKotlinPayload(payload, severity));
    const kind = taskSource(k.task);
    if (k.file === null && (kind === 'kapt' || kind === 'ksp')) {
      k.source = kind;
    }
    return done(k);
  }
  const javac = matchJavacHeader(t);
  if (javac) {
    return javacPending(withTask(javac));
  }
  const located = matchLint(t) ?? matchAapt(t);
  if (located) {
    return done(located);
  }
  const r8 = matchR8(t, ctx.r8);
  if (r8) {
    if (r8.kind !== 'missing') {
      ctx.r8 = r8.diagnostic.severity === 'warning' ? 'warning' : 'error';
    }
    return r8.kind === 'summary'
      ? done(r8.diagnostic)
      : { kind: 'pending', pending: { kind: 'r8', d: withTask(r8.diagnostic) } };
  }
  const dup = matchDuplicate(t);
  if (dup) {
    const groups = new Map<string, DuplicateGroup>();
    addDuplicate(groups, dup.className, dup.modules, ctx.task, outputLine);
    return { kind: 'pending', pending: { kind: 'duplicate', groups } };
  }
  if (
    /^\d+ problems? (?:was|were) found (?:storing|reusing) the configuration cache/.test(t) ||
    t.startsWith('Configuration cache problems found')
  ) {
    ctx.configCache = true;
    return null;
  }
  if (ctx.configCache) {
    const cc = matchConfigCacheProblem(t);
    if (cc) {
      // Problems listed outside a failure are warnings (`problems=warn`).
      cc.severity = ctx.inBlock ? 'error' : 'warning';
      return { kind: 'diagnostic', diagnostic: cc };
    }
  }
  const bare = /^(error|warning): (.+)$/.exec(t);
  if (bare && !/^error: failed (?:linking|processing|compiling)/.test(t)) {
    const source = taskSource(ctx.task);
    if (source === 'javac' || source === 'kapt' || source === 'aapt2') {
      return done(
        diagnostic({
          severity: bare[1] === 'error' ? 'error' : 'warning',
          source,
          message: (bare[2] as string).trim(),
        }),
      );
    }
  }
  return null;
}
