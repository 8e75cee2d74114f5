/** The build tools that read and stop builds: status, errors, the log, cancel. */
import { z } from 'zod';
import { buildRecordSchema } from '../../bus/messages/build.js';
import { originSchema } from '../../bus/origin.js';
import { answerBudget, newestWithin } from '../budgets.js';
import { defineTool } from '../define-tool.js';
import { responseOf } from '../responses.js';
import { fieldsOf } from '../compact.js';
import { describeMode, standaloneReason } from '../session.js';
import { diagnosticLine, seconds, whoText } from './build.js';

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

export const buildStatusTools = [getBuildStatus, getBuildErrors, getBuildLog, cancelBuild];
