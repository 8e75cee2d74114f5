import { z } from 'zod';
import {
  buildRecordSchema,
  runnerArgsOf,
  TEST_SELECTOR_RE,
  type BuildDiagnosticWire,
  type BuildRecord,
} from '../../bus/messages/build.js';
import { originSchema, type Origin } from '../../bus/origin.js';
import { answerBudget, newestWithin } from '../budgets.js';
import { ArgumentError, ToolError, defineTool } from '../define-tool.js';
import { responseOf } from '../responses.js';
import { fieldsOf } from '../compact.js';
import type { PayloadOf, ResponseOf } from '../../bus/registry.js';
import type { ToolContext } from '../define-tool.js';
import { describeMode, standaloneReason } from '../session.js';

const NO_PROJECT =
  'No Android project is selected. Start droidbus with --project PATH or from inside a Gradle project.';

/** The session's project root; tools that need one fail without it. */
export function requireRoot(ctx: ToolContext): string {
  const root = ctx.session.project.root;
  if (root === null) {
    throw new ToolError(NO_PROJECT, undefined, 'no_project');
  }
  return root;
}

const taskSchema = z
  .string()
  .min(1)
  .max(200)
  .describe(
    'Gradle task (assembleDebug, :app:assembleDemoDebug) or a verb (assemble, install, bundle, lint, test…) that variant completes',
  );
const variantSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a variant name as get_project_info lists it (e.g. demoDebug)')
  .describe('Variant (get_project_info); assemble + demoDebug = assembleDemoDebug');

/** What a build's answer takes from its record, as the record's schema defines it. */
const recordFields = buildRecordSchema.pick({
  task: true,
  variant: true,
  module: true,
  result: true,
  reason: true,
  duration_ms: true,
  exit_code: true,
  failed_tasks: true,
  apks: true,
  mapping_files: true,
  origin: true,
  cancelled_by: true,
});
const buildResultOutput = recordFields.extend({
  build_id: z.string(),
  error_count: z.number().int(),
  warning_count: z.number().int(),
  /** The first errors; get_build_errors has them all. */
  errors: responseOf('build.run').shape.errors,
  mode: z.enum(['standalone', 'attached']),
});
type BuildResultOutput = z.infer<typeof buildResultOutput>;

function whoText(origin: Origin, ctx: ToolContext): string {
  if (origin.kind === 'agent') {
    if (origin.session_id === ctx.session.sessionId) {
      return 'this agent';
    }
    return `another agent${origin.client_name ? ` (${origin.client_name})` : ''}, session ${origin.session_id}`;
  }
  if (origin.kind === 'host') {
    return 'the user on the droidbus host';
  }
  if (origin.kind === 'host_quit') {
    return 'the droidbus host quitting';
  }
  return origin.kind === 'actor' ? `droidbus (${origin.address})` : 'the droidbus command line';
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** `file:line:col: message` for the model. */
export function diagnosticLine(d: BuildDiagnosticWire): string {
  const where = d.file
    ? `${d.file}${d.line !== null ? `:${d.line}${d.column !== null ? `:${d.column}` : ''}` : ''}: `
    : '';
  const task = d.task ? ` [${d.task}]` : '';
  return `${d.severity}: ${where}${d.message.split('\n')[0]?.slice(0, 500) ?? ''}${task}`;
}

/** Runs a build through the build actor and turns its record into the tool's answer. */
export async function runBuildForTool(
  ctx: ToolContext,
  task: string,
  variant: string | null,
  runnerArgs?: PayloadOf<'build.run'>['runner_args'],
): Promise<{ text: string; structured: BuildResultOutput; record: BuildRecord }> {
  const root = requireRoot(ctx);
  const built = await ctx.bus.request(
    'build.run',
    {
      root,
      task,
      variant,
      want_progress: ctx.wantsProgress,
      ...(runnerArgs !== undefined && Object.keys(runnerArgs).length > 0 ? { runner_args: runnerArgs } : {}),
    },
    {
      // Cancelling the call cancels the build; a client that goes away does not (see cancelSignal).
      signal: ctx.cancelSignal,
      origin: ctx.origin,
      onProgress: (p) => ctx.progress(p),
    },
  );
  return buildAnswer(built, ctx);
}

/** A build's answer as the model reads it: the result, its APKs and mappings, or its first errors. */
export function buildAnswer(
  built: ResponseOf<'build.run'>,
  ctx: ToolContext,
): { text: string; structured: BuildResultOutput; record: BuildRecord } {
  const { record, errors, what_went_wrong } = built;
  const structured: BuildResultOutput = {
    ...fieldsOf(recordFields, record),
    build_id: record.id,
    error_count: record.diagnostics.errors,
    warning_count: record.diagnostics.warnings,
    errors,
    mode: ctx.session.mode.kind,
  };
  const what = `task '${record.task}'${record.variant ? ` (variant ${record.variant})` : ''}`;
  const lines: string[] = [];
  if (record.result === 'success') {
    lines.push(`BUILD SUCCESSFUL — ${what} in ${seconds(record.duration_ms)}.`);
    for (const apk of record.apks.slice(0, 5)) {
      lines.push(
        `APK${apk.up_to_date ? ' (up to date, not rewritten)' : ''}: ${apk.path}${apk.package ? ` (${apk.package} ${apk.version_name ?? ''}`.trimEnd() + ')' : ''}, sha256 ${apk.sha256.slice(0, 16)}…`,
      );
    }
    for (const mapping of record.mapping_files.slice(0, 5)) {
      lines.push(
        `R8 mapping${mapping.up_to_date ? ' (up to date, not rewritten)' : ''}: ${mapping.path}${mapping.map_id ? `, map id ${mapping.map_id}` : ''}; kept for deobfuscating this build's crashes.`,
      );
    }
    if (record.diagnostics.warnings > 0) {
      lines.push(
        `${record.diagnostics.warnings} warning(s): get_build_errors with include_warnings: true lists them.`,
      );
    }
  } else if (record.result === 'cancelled') {
    lines.push(
      `BUILD CANCELLED — ${what} was cancelled ${record.cancelled_by ? `by ${whoText(record.cancelled_by, ctx)}` : `(${record.reason ?? 'droidbus stopped it'})`} after ${seconds(record.duration_ms)}.`,
    );
  } else {
    lines.push(
      `BUILD FAILED — ${what} after ${seconds(record.duration_ms)}: ${record.reason ?? 'Gradle failed'}.`,
    );
    if (errors.length > 0) {
      lines.push(`${record.diagnostics.errors} error(s):`);
      for (const d of errors.slice(0, 10)) {
        lines.push(`  ${diagnosticLine(d)}`);
      }
    } else if (what_went_wrong.length > 0) {
      lines.push(`What went wrong: ${what_went_wrong[0]?.slice(0, 800)}`);
    }
    lines.push('Call get_build_errors for every error with its location, get_build_log for the output.');
  }
  lines.push(`[mode: ${describeMode(ctx.session.mode)}]`);
  return { text: lines.join('\n'), structured, record };
}

export const runGradleTask = defineTool({
  name: 'run_gradle_task',
  answers: 'build.run',
  toolset: 'core',
  kind: 'open_world',
  title: 'Run a Gradle task',
  description:
    "Runs one Gradle task with the project's wrapper: the result, structured errors (file, line, column) and the APKs written with their sha256. Needs the user's trust (droidbus trust PATH). Tasks that leave the machine (publish, upload, push…), however abbreviated, are refused. One build at a time.",
  input: z.object({ task: taskSchema, variant: variantSchema.optional() }),
  output: buildResultOutput,
  async handle(args, ctx) {
    const { text, structured } = await runBuildForTool(ctx, args.task, args.variant ?? null);
    if (structured.result !== 'success') {
      throw new ToolError(text, structured);
    }
    return { text, structured };
  },
});

const testTypeSchema = z
  .enum(['unit', 'connected'])
  .describe('unit (JVM) or connected (instrumented, on devices)');

export const runTests = defineTool({
  name: 'run_tests',
  answers: 'build.run',
  toolset: 'core',
  kind: 'open_world',
  title: 'Run tests',
  description:
    "Runs the unit tests (default) or the connected tests on devices through Gradle, for one variant or all, or a custom test task (run_gradle_task's policy); answers structured failures.",
  input: z.object({
    test_type: testTypeSchema.optional(),
    variant: variantSchema.optional(),
    task: taskSchema.optional().describe('A test task, e.g. :core:testDebugUnitTest'),
    tests: z
      .array(
        z
          .string()
          .max(300)
          .regex(/^-?[\w$.#*]+$/, 'Class, Class#method or package.*'),
      )
      .optional()
      .describe('Connected: Class, Class#method, pkg.*; -X skips X'),
  }),
  output: buildResultOutput,
  async handle(args, ctx) {
    if (args.task !== undefined && args.test_type !== undefined) {
      throw new ArgumentError('pass either test_type or task, not both');
    }
    const task = args.task ?? ((args.test_type ?? 'unit') === 'unit' ? 'test' : 'connectedAndroidTest');
    if (
      args.tests !== undefined &&
      args.test_type !== 'connected' &&
      !/connected\w*AndroidTest$/.test(task)
    ) {
      throw new ArgumentError(
        'tests selects connected tests (test_type: connected); unit tests run whole for now',
      );
    }
    if ((args.tests?.length ?? 0) > 50) {
      throw new ArgumentError('at most 50 tests; select by package (package.*) for more');
    }
    const bad = (args.tests ?? []).find((t) => !TEST_SELECTOR_RE.test(t));
    if (bad !== undefined) {
      throw new ArgumentError(
        `${JSON.stringify(bad)} is not a test: Class, Class#method or package.*, - first to leave one out`,
      );
    }
    const runnerArgs = runnerArgsOf(args.tests ?? []);
    const { text, structured } = await runBuildForTool(ctx, task, args.variant ?? null, runnerArgs);
    if (structured.result !== 'success') {
      throw new ToolError(text, structured);
    }
    return { text, structured };
  },
});

/** What get_build_status tells of the last build, as the record's schema defines it. */
const lastFields = buildRecordSchema.pick({
  id: true,
  task: true,
  variant: true,
  result: true,
  reason: true,
  started_at: true,
  ended_at: true,
  duration_ms: true,
  failed_tasks: true,
  apks: true,
});

const statusOutput = z.object({
  status: z.enum(['running', 'success', 'failed', 'cancelled', 'none']),
  summary: z.string(),
  build_id: z.string().nullable(),
  task: z.string().nullable(),
  origin: originSchema.nullable(),
  cancelled_by: originSchema.nullable(),
  running: responseOf('build.status').shape.running,
  /** The last build, summarised (the whole record: get_build_errors, get_build_log). */
  last: lastFields.extend({ errors: z.number().int(), warnings: z.number().int() }).nullable(),
  mode: z.enum(['standalone', 'attached']),
  standalone_reason: z.string().nullable(),
});

export const getBuildStatus = defineTool({
  name: 'get_build_status',
  answers: 'build.status',
  // task, origin and cancelled_by are the running build's, else the last one's.
  reshaped: ['last', 'task', 'origin', 'cancelled_by'],
  toolset: 'core',
  kind: 'read',
  title: 'Build status',
  description:
    'Whether a Gradle build is running (task, elapsed, current task, who started it) and how the last one ended (result, who started or cancelled it, errors, APKs), plus the session mode.',
  output: statusOutput,
  async handle(_args, ctx) {
    const { running, last } = await ctx.bus.request(
      'build.status',
      { root: ctx.session.project.root },
      { signal: ctx.signal },
    );
    const mode = { mode: ctx.session.mode.kind, standalone_reason: standaloneReason(ctx.session.mode) };
    const lastView = last
      ? {
          ...fieldsOf(lastFields, last),
          errors: last.diagnostics.errors,
          warnings: last.diagnostics.warnings,
        }
      : null;
    if (running) {
      const summary = `Running: ${running.task} (build ${running.id}) for ${seconds(running.elapsed_ms)}, started by ${whoText(running.origin, ctx)}${running.current_task ? `; now at > Task ${running.current_task}` : ''}; ${running.errors} error(s) so far.${running.cancelling ? ' It is being cancelled.' : ''}`;
      return {
        text: `${summary}\n[mode: ${describeMode(ctx.session.mode)}]`,
        structured: {
          status: 'running' as const,
          summary,
          build_id: running.id,
          task: running.task,
          origin: running.origin,
          cancelled_by: running.cancelling,
          running,
          last: lastView,
          ...mode,
        },
      };
    }
    if (!last) {
      const summary = 'No build has run for this project yet.';
      return {
        text: `${summary}\n[mode: ${describeMode(ctx.session.mode)}]`,
        structured: {
          status: 'none' as const,
          summary,
          build_id: null,
          task: null,
          origin: null,
          cancelled_by: null,
          running: null,
          last: null,
          ...mode,
        },
      };
    }
    const summary = `Last build: ${last.task} (build ${last.id}) ${last.result}${last.reason ? ` — ${last.reason}` : ''}, ${seconds(last.duration_ms)}, started by ${whoText(last.origin, ctx)} at ${last.started_at}; ${last.diagnostics.errors} error(s), ${last.diagnostics.warnings} warning(s)${last.apks.length > 0 ? `; APK: ${last.apks[0]?.path}` : ''}.`;
    return {
      text: `${summary}\n[mode: ${describeMode(ctx.session.mode)}]`,
      structured: {
        status: last.result,
        summary,
        build_id: last.id,
        task: last.task,
        origin: last.origin,
        cancelled_by: last.cancelled_by,
        running: null,
        last: lastView,
        ...mode,
      },
    };
  },
});

const buildIdArg = z
  .string()
  .regex(/^b[0-9a-z-]{6,60}$/, 'a build id as get_build_status returns it (b…)')
  .describe('Build id; default: the running or last build');

const errorsBuild = responseOf('build.errors').shape.build.unwrap().shape;
const errorsOutput = z.object({
  build_id: z.string().nullable(),
  task: z.string().nullable(),
  running: errorsBuild.running,
  result: errorsBuild.result,
  failed_tasks: errorsBuild.failed_tasks,
  errors: responseOf('build.errors').shape.diagnostics,
  total: responseOf('build.errors').shape.total,
  shown: z.number().int(),
  what_went_wrong: responseOf('build.errors').shape.what_went_wrong,
});

export const getBuildErrors = defineTool({
  name: 'get_build_errors',
  answers: 'build.errors',
  // Null when no build ran (the response's whole `build` is null then).
  reshaped: ['task'],
  toolset: 'core',
  kind: 'read',
  title: 'Build errors',
  description:
    'The structured errors of the running or last build: severity, source (kotlin, javac, aapt2, r8, ksp, kapt, lint, gradle…), file, line, column, message and task. include_warnings adds warnings.',
  input: z.object({
    include_warnings: z.boolean().default(false).describe('Also list warnings (default: errors only)'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(500)
      .default(100)
      .describe('Most diagnostics returned (default 100, max 500)'),
    build_id: buildIdArg.optional(),
  }),
  output: errorsOutput,
  async handle(args, ctx) {
    const r = await ctx.bus.request(
      'build.errors',
      {
        root: ctx.session.project.root,
        include_warnings: args.include_warnings,
        limit: args.limit,
        ...(args.build_id !== undefined ? { build_id: args.build_id } : {}),
      },
      { signal: ctx.signal },
    );
    const structured = {
      build_id: r.build?.id ?? null,
      task: r.build?.task ?? null,
      running: r.build?.running ?? false,
      result: r.build?.result ?? null,
      failed_tasks: r.build?.failed_tasks ?? [],
      errors: r.diagnostics,
      total: r.total,
      shown: r.diagnostics.length,
      what_went_wrong: r.what_went_wrong,
    };
    if (!r.build) {
      return { text: 'No build has run for this project yet.', structured };
    }
    const head = `Build ${r.build.id} (${r.build.task}, ${r.build.running ? 'running' : r.build.result}): ${r.total} ${args.include_warnings ? 'error(s) and warning(s)' : 'error(s)'}${r.total > r.diagnostics.length ? `, first ${r.diagnostics.length} shown` : ''}.`;
    const lines = [head, ...r.diagnostics.map(diagnosticLine)];
    if (!r.available) {
      lines.push('Its diagnostics are no longer kept (droidbus keeps them for the last 20 builds).');
    } else if (r.total === 0 && r.what_went_wrong.length > 0) {
      lines.push(`What went wrong: ${r.what_went_wrong[0]?.slice(0, 800)}`);
    }
    return { text: lines.join('\n'), structured };
  },
});

/** Characters of log get_build_log answers with at most when `lines` is given. */
const MAX_BUILD_LOG_ANSWER_CHARS = 200_000;

export const getBuildLog = defineTool({
  name: 'get_build_log',
  answers: 'build.log',
  toolset: 'core',
  kind: 'read',
  title: 'Build log',
  description:
    "The last lines (default 200) of the running or last build's Gradle output, within 40,000 characters (200,000 when lines is given).",
  input: z.object({
    lines: z.number().int().min(1).max(2000).optional().describe('How many of the last lines'),
    build_id: buildIdArg.optional(),
  }),
  output: responseOf('build.log')
    .pick({ build_id: true, task: true, running: true, lines: true, total_lines: true })
    .extend({
      shown: z.number().int(),
    }),
  maxAnswerChars: MAX_BUILD_LOG_ANSWER_CHARS,
  async handle(args, ctx) {
    const budget = answerBudget(args.lines !== undefined, MAX_BUILD_LOG_ANSWER_CHARS);
    const r = await ctx.bus.request(
      'build.log',
      {
        root: ctx.session.project.root,
        ...(args.lines !== undefined ? { lines: args.lines } : {}),
        ...(args.build_id !== undefined ? { build_id: args.build_id } : {}),
      },
      { signal: ctx.signal },
    );
    const lines = newestWithin(r.lines, budget - 500);
    const structured = {
      build_id: r.build_id,
      task: r.task,
      running: r.running,
      lines,
      total_lines: r.total_lines,
      shown: lines.length,
    };
    if (r.build_id === null) {
      return { text: 'No build has run for this project yet.', structured };
    }
    const cut =
      lines.length < r.lines.length
        ? ` (${r.lines.length - lines.length} earlier of the ${r.lines.length} asked for left out to keep the answer within ${budget.toLocaleString('en-US')} characters${args.lines === undefined ? ': pass lines for up to 200,000' : ''}; get_build_errors has the located diagnostics)`
        : '';
    const head = `Build ${r.build_id} (${r.task}${r.running ? ', running' : ''}): last ${lines.length} of ${r.total_lines} lines${cut}${r.available ? '' : ' (its log is no longer kept)'}.`;
    return { text: [head, ...lines].join('\n'), structured, answerChars: budget };
  },
});

export const cancelBuild = defineTool({
  name: 'cancel_build',
  answers: 'build.cancel',
  // The stopped build's result (its record's), null when none stopped.
  reshaped: ['result'],
  toolset: 'core',
  kind: 'write',
  title: 'Cancel the build',
  description:
    'Cancels the running Gradle build, whoever started it (it is recorded as cancelled by this agent), and waits for it to stop.',
  output: responseOf('build.cancel')
    .pick({ cancelled: true, build_id: true, task: true, message: true })
    .extend({
      result: z.enum(['success', 'failed', 'cancelled']).nullable(),
    }),
  async handle(_args, ctx) {
    const r = await ctx.bus.request('build.cancel', {}, { signal: ctx.signal, origin: ctx.origin });
    return {
      text: r.message,
      structured: {
        cancelled: r.cancelled,
        build_id: r.build_id,
        task: r.task,
        result: r.record?.result ?? null,
        message: r.message,
      },
    };
  },
});

export const buildTools = [runGradleTask, getBuildStatus, getBuildErrors, getBuildLog, cancelBuild, runTests];
