/** The build tools that run Gradle (a task, the tests) and the answer a build gives; reading and stopping builds: build-status.ts. */
import { z } from 'zod';
import {
  buildRecordSchema,
  runnerArgsOf,
  TEST_SELECTOR_RE,
  type BuildDiagnosticWire,
  type BuildRecord,
} from '../../bus/messages/build.js';
import type { Origin } from '../../bus/origin.js';
import { ArgumentError, ToolError, defineTool } from '../define-tool.js';
import { responseOf } from '../responses.js';
import { fieldsOf } from '../compact.js';
import type { PayloadOf, ResponseOf } from '../../bus/registry.js';
import type { ToolContext } from '../define-tool.js';
import { describeMode } from '../session.js';

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

export function whoText(origin: Origin, ctx: ToolContext): string {
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

export function seconds(ms: number): string {
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

export const runTools = { runGradleTask, runTests };
