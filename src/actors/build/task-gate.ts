/**
 * The task policy's Gradle side, run under the build lock before a build: the build files hashed
 * once (the cache key here, the build record's build_files), the project's task list read with
 * `gradlew tasks --all` when the cache has none for them, the name judged (task-policy.ts), and
 * Gradle's dry run for a name that is not an exact, known-safe task.
 */
import { fail } from '../../bus/errors.js';
import type { ProjectModel } from '../../project/project-model.js';
import { projectVariants } from '../../project/variants.js';
import type { Settings } from '../../store/settings.js';
import type { HandlerContext } from '../actor.js';
import { hashBuildFiles } from './build-file-hashes.js';
import type { BuildEnv } from './build-env.js';
import {
  buildFilesKey,
  parseDryRun,
  parseTasksReport,
  runGradleReport,
  type TaskListCache,
} from './task-list.js';
import { checkGradleTask, judgeDryRun, standardTaskNames, type TaskPolicyOptions } from './task-policy.js';

/**
 * Hashes the build files and refuses the task when the policy says so; answers the hashes (null
 * when they could not be read) for the build record, and the tasks Gradle's dry run said it would
 * execute when one was needed (null when the name was judged on its own).
 */
export async function gateTask(
  build: {
    root: string;
    project: ProjectModel;
    task: string;
    env: BuildEnv;
    settings: Settings;
    buildId: string;
  },
  cache: TaskListCache,
  ctx: HandlerContext,
): Promise<{ buildFiles: { path: string; sha256: string }[] | null; executed: string[] | null }> {
  const buildFiles = await hashBuildFiles(build.project).catch((err: unknown) => {
    ctx.log.warn('could not hash the build files', { id: build.buildId, error: String(err) });
    return null;
  });
  const executed = await enforceTaskPolicy(
    { ...build, buildFiles, timeoutMs: build.settings.mcp.build_timeout_sec * 1000 },
    {
      allowUnrestricted: build.settings.mcp.allow_unrestricted_gradle,
      allowPropertyDumps: build.settings.mcp.allow_gradle_properties,
      tasks: null,
    },
    cache,
    ctx,
  );
  return { buildFiles, executed };
}

/**
 * Refuses the task when Gradle would select, or its dry run execute, a task that leaves the machine
 * (`task-policy.ts`). The task list and dry runs are Gradle's own, run under the build lock and
 * cached per build-file state; the report's failure leaves only exact standard names. Answers the
 * dry run's tasks when one ran (or was cached), else null.
 */
async function enforceTaskPolicy(
  run: {
    root: string;
    project: ProjectModel;
    task: string;
    env: BuildEnv;
    buildFiles: { path: string; sha256: string }[] | null;
    timeoutMs: number;
  },
  base: TaskPolicyOptions,
  cache: TaskListCache,
  ctx: HandlerContext,
): Promise<string[] | null> {
  if (base.allowUnrestricted) {
    return null;
  }
  // Unreadable build files: nothing cached can be trusted, the list is read again.
  const key = run.buildFiles !== null ? buildFilesKey(run.buildFiles) : `unread-${Date.now()}`;
  const timeoutMs = run.timeoutMs;
  const stopIfCancelled = (): void => {
    if (ctx.signal.aborted) {
      throw fail.cancelled(`the build of ${run.task} was cancelled before it started`);
    }
  };
  let tasks = cache.list(run.root, key);
  let listError: string | null = null;
  if (tasks === null) {
    const report = await runGradleReport(run.root, ['tasks', '--all'], run.env.env, ctx.signal, timeoutMs);
    stopIfCancelled();
    if (report.ok) {
      tasks = parseTasksReport(report.lines);
      cache.setList(run.root, key, tasks);
    } else {
      listError = report.error;
      ctx.log.warn('the task list could not be read', { root: run.root, error: report.error });
    }
  }
  const opts: TaskPolicyOptions = {
    ...base,
    tasks,
    standard: standardTaskNames(projectVariants(run.project).map((v) => v.name)),
  };
  const policy = checkGradleTask(run.task, opts);
  if (!policy.ok) {
    const why = listError === null ? policy.reason : `${policy.reason} (tasks --all failed: ${listError})`;
    throw fail.invalid(why, policy.blocked ? { reason: 'blocked_task' } : undefined);
  }
  if (!policy.dryRun) {
    return null;
  }
  let executed = cache.dryRun(run.root, key, run.task);
  if (executed === null) {
    const dry = await runGradleReport(run.root, ['-m', run.task], run.env.env, ctx.signal, timeoutMs);
    stopIfCancelled();
    if (!dry.ok) {
      throw fail.invalid(`Gradle could not select '${run.task}': ${dry.error}`, {
        reason: 'task_selection',
      });
    }
    executed = parseDryRun(dry.lines);
    cache.setDryRun(run.root, key, run.task, executed);
  }
  const verdict = judgeDryRun(run.task, executed, opts);
  if (!verdict.ok) {
    throw fail.invalid(verdict.reason, { reason: 'blocked_task' });
  }
  return executed;
}
