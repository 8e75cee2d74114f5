import { randomBytes } from 'node:crypto';
import { chmodSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BuildRecord, RunnerArgs } from '../../bus/messages/build.js';
import type { PayloadOf } from '../../bus/registry.js';
import { BusError, fail } from '../../bus/errors.js';
import type { Origin } from '../../bus/origin.js';
import { findGradleRoot } from '../../project/gradle-root.js';
import { inspectProject } from '../../project/project-model.js';
import { canonicalProjectRoot, isProjectTrusted, trustHint } from '../../project/trust.js';
import { readSettings } from '../../store/settings.js';
import { isExecutable } from '../../util/which.js';
import { defineActor, type ActorContext, type HandlerContext } from '../actor.js';
import { buildEnv } from './build-env.js';
import { recentBuilds } from '../../store/build-history.js';
import { acquireBuildLock } from './build-lock.js';
import { loadBuildOutput, selectDiagnostics } from './build-output-store.js';
import { BuildRun, describeOrigin, type FinishedBuild } from './build-run.js';
import { wrapperName } from './gradle-process.js';
import { checkTaskSyntax } from './task-policy.js';
import { TaskListCache } from './task-list.js';
import { gateTask } from './task-gate.js';
import { lendDevicesForTests, runsDeviceTests } from './device-tests.js';
import { recordInterruptedBuilds } from './interrupted-builds.js';
import { resolveVariantTask } from './variant-task.js';

/** Finished builds of this process kept in memory (their log tail and diagnostics). */
const KEEP_FINISHED = 10;
/** How long build.cancel waits for the stopped build to be recorded. */
const CANCEL_WAIT_MS = 20_000;

interface BuildState {
  /** Each Gradle root's task list and dry runs, per build-file state: how names resolve. */
  taskLists: TaskListCache;
  /** The build slot: one build per process (the host's slot is shared by all its sessions). */
  slot: { id: string; task: string; origin: Origin; since: number; run: BuildRun | null } | null;
  finished: FinishedBuild[];
  /** build.wait_idle requests waiting for the slot to free. */
  idleWaiters: Set<() => void>;
}

/** The Gradle root that holds `root` (canonical), the form builds are recorded under. */
function gradleRootOf(root: string): string {
  const canonical = canonicalProjectRoot(root);
  return findGradleRoot(canonical) ?? canonical;
}

function newBuildId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `b${stamp}-${randomBytes(3).toString('hex')}`;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function slotBusy(state: BuildState): BusError {
  const slot = state.slot!;
  const seconds = Math.round((Date.now() - slot.since) / 1000);
  return fail.failed(
    `A Gradle build is already running: ${slot.task} (build ${slot.id}, started ${seconds} s ago by ${describeOrigin(slot.origin)}). Wait for it (get_build_status) or cancel it (cancel_build), then try again.`,
    { build_id: slot.id },
  );
}

/** Follows the request's AbortSignal: a requester's cancel cancels its build, a shutdown stops it. */
function followSignal(run: BuildRun, ctx: HandlerContext): void {
  const onAbort = (): void => {
    const reason: unknown = ctx.signal.reason;
    const code = reason instanceof BusError ? reason.code : 'CANCELLED';
    if (code === 'CANCELLED') {
      run.cancel(ctx.origin, 'the request was cancelled');
    } else if (code === 'UNAVAILABLE') {
      run.cancel(
        null,
        `droidbus stopped while the build ran (${reason instanceof Error ? reason.message : 'shutdown'})`,
      );
    } else {
      run.cancel(null, `the build request's deadline passed (${code})`);
    }
  };
  if (ctx.signal.aborted) {
    onAbort();
  } else {
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    void run.done.then(() => ctx.signal.removeEventListener('abort', onAbort));
  }
}

/** AndroidJUnitRunner's arguments as Gradle hands them to the connected tests (AGP's -P properties). */
function runnerArgv(args: RunnerArgs | undefined): string[] {
  return Object.entries(args ?? {}).map(
    ([key, value]) => `-Pandroid.testInstrumentationRunnerArguments.${key}=${value}`,
  );
}

/** The build a query means: `build_id`, else the running one of this project, else its last. */
function pickBuild(
  state: BuildState,
  root: string | null,
  buildId: string | undefined,
): { running: BuildRun | null; finished: FinishedBuild | null; record: BuildRecord | null } {
  const run = state.slot?.run ?? null;
  if (buildId !== undefined) {
    if (run?.id === buildId) {
      return { running: run, finished: null, record: null };
    }
    const mem = state.finished.find((f) => f.record.id === buildId) ?? null;
    if (mem) {
      return { running: null, finished: mem, record: mem.record };
    }
    const rec = recentBuilds(null, 100).find((r) => r.id === buildId) ?? null;
    if (!rec) {
      throw fail.notFound(`no build ${buildId} in this droidbus's history (it keeps the last 100 builds)`);
    }
    return { running: null, finished: null, record: rec };
  }
  const project = root === null ? null : gradleRootOf(root);
  if (run && (project === null || run.snapshot().project_root === project)) {
    return { running: run, finished: null, record: null };
  }
  const mem = state.finished.find((f) => project === null || f.record.project_root === project) ?? null;
  const disk = recentBuilds(project, 1)[0] ?? null;
  if (mem && (!disk || disk.id === mem.record.id || mem.record.ended_at >= disk.ended_at)) {
    return { running: null, finished: mem, record: mem.record };
  }
  return { running: null, finished: null, record: disk };
}

async function runBuild(
  payload: PayloadOf<'build.run'>,
  state: BuildState,
  ctx: HandlerContext,
): Promise<FinishedBuild> {
  const settings = readSettings();
  // A malformed name is refused first; what it selects is judged against the task list under the lock.
  const syntax = checkTaskSyntax(payload.task);
  if (!syntax.ok) {
    throw fail.invalid(syntax.reason);
  }
  const canonical = canonicalProjectRoot(payload.root);
  if (!isDirectory(canonical)) {
    throw fail.invalid(`the project folder ${canonical} does not exist`);
  }
  const root = findGradleRoot(canonical);
  if (root === null) {
    throw fail.invalid(
      `${canonical} is not in a Gradle build (no settings.gradle or settings.gradle.kts at or above it)`,
    );
  }
  // Trust is read fresh on every build: `droidbus trust`/`untrust` apply to running servers at once.
  if (!isProjectTrusted(root)) {
    throw fail.invalid(trustHint(root) ?? 'the project is not trusted', { reason: 'untrusted_project' });
  }
  if (state.slot !== null) {
    throw slotBusy(state);
  }
  const id = newBuildId();
  state.slot = { id, task: payload.task, origin: ctx.origin, since: Date.now(), run: null };
  let release: (() => Promise<void>) | null = null;
  let reclaim: (() => Promise<void>) | null = null;
  try {
    const project = await inspectProject(root);
    const resolved = resolveVariantTask(project, payload.task, payload.variant);
    if (!resolved.ok) {
      throw fail.invalid(resolved.reason);
    }
    state.slot.task = resolved.task;
    const wrapper = path.join(root, wrapperName());
    try {
      if (!statSync(wrapper).isFile()) {
        throw new Error('not a file');
      }
    } catch {
      throw fail.failed(
        `${root} has no ${wrapperName()}, so droidbus cannot run its build. Generate the wrapper (\`gradle wrapper\`, or open the project in Android Studio once), then try again.`,
      );
    }
    const lock = await acquireBuildLock({
      pid: process.pid,
      project_root: root,
      build_id: id,
      task: resolved.task,
      started_at: new Date().toISOString(),
      origin: ctx.origin,
    });
    if (!lock.ok) {
      throw fail.failed(
        lock.held
          ? `Refused: ${lock.reason}. Wait for that build to finish, or cancel it in that session, then try again.`
          : `Refused: ${lock.reason}. droidbus does not build without the build lock; fix the data directory's permissions (or set DROIDBUS_HOME) and try again.`,
        lock.holder ? { holder_pid: lock.holder.pid } : undefined,
      );
    }
    release = lock.release;
    if (process.platform !== 'win32' && !isExecutable(wrapper)) {
      // A trusted project's wrapper that lost its executable bit (a zip download, some checkouts).
      chmodSync(wrapper, statSync(wrapper).mode | 0o100);
    }
    const env = await buildEnv(root);
    // Hashed once, before Gradle runs: the policy's cache key and the build record's build files.
    const { buildFiles, executed } = await gateTask(
      { root, project, task: resolved.task, env, settings, buildId: id },
      state.taskLists,
      ctx,
    );
    if (runsDeviceTests(resolved.task, executed)) {
      reclaim = await lendDevicesForTests(
        { id, task: resolved.task, env: env.env, maxMs: (settings.mcp.build_timeout_sec + 60) * 1000 },
        ctx,
      );
    }
    const run = new BuildRun({
      id,
      project,
      task: resolved.task,
      requestedTask: payload.task,
      variant: resolved.variant,
      module: resolved.module,
      origin: ctx.origin,
      timeoutSec: settings.mcp.build_timeout_sec,
      env,
      buildFiles,
      extraArgs: runnerArgv(payload.runner_args),
      emit: ctx.emit,
      ...(payload.want_progress ? { progress: (p) => ctx.progress(p) } : {}),
      log: ctx.log,
    });
    state.slot.run = run;
    followSignal(run, ctx);
    run.start();
    const finished = await run.done;
    state.finished.unshift(finished);
    state.finished.length = Math.min(state.finished.length, KEEP_FINISHED);
    return finished;
  } finally {
    // The lock goes first: the next build of this process must find it free.
    if (release) {
      await release();
    }
    await reclaim?.();
    if (state.slot?.id === id) {
      state.slot = null;
      for (const wake of state.idleWaiters) {
        wake();
      }
    }
  }
}

function start(ctx: ActorContext): BuildState {
  // A build whose process died is recorded as interrupted by the next process that starts builds.
  recordInterruptedBuilds().catch((err: unknown) =>
    ctx.log.warn('could not record the interrupted builds', { error: String(err) }),
  );
  return { slot: null, finished: [], idleWaiters: new Set(), taskLists: new TaskListCache() };
}

/**
 * The build actor: the process's build slot, Gradle as a child process, its output parsed into
 * diagnostics as it streams, the history, the build log, and the cross-process build lock.
 */
export default defineActor({
  kind: 'build',
  concurrency: 16,
  stopTimeoutMs: 12_000,
  start,
  async stop(state) {
    if (state.slot === null) {
      return;
    }
    // Wait for the slot itself to free: the build is recorded and its lock released by then.
    const idle = new Promise<void>((resolve) => state.idleWaiters.add(resolve));
    state.slot.run?.cancel(null, 'droidbus stopped while the build ran');
    await idle;
  },
  handlers: {
    'build.run': async (payload, state, ctx) => {
      const finished = await runBuild(payload, state, ctx);
      return {
        record: finished.record,
        errors: selectDiagnostics(finished.diagnostics, false).slice(0, 20),
        what_went_wrong: finished.whatWentWrong.slice(0, 5),
      };
    },
    'build.status': async ({ root }, state) => {
      await recordInterruptedBuilds();
      const run = state.slot?.run ?? null;
      // A build whose record is made is over, even while its record is being written.
      const running = run && !run.finalRecord ? run.snapshot() : null;
      const project = root === null ? null : gradleRootOf(root);
      const ending =
        run?.finalRecord && (project === null || run.finalRecord.project_root === project)
          ? run.finalRecord
          : undefined;
      const mem =
        ending ?? state.finished.find((f) => project === null || f.record.project_root === project)?.record;
      const disk = recentBuilds(project, 1)[0];
      const last = mem && (!disk || mem.ended_at >= disk.ended_at) ? mem : (disk ?? null);
      return { running, last };
    },
    'build.errors': ({ root, build_id, include_warnings, limit }, state) => {
      const picked = pickBuild(state, root, build_id);
      if (picked.running) {
        const snap = picked.running.snapshot();
        const all = selectDiagnostics(picked.running.diagnosticsNow(), include_warnings);
        return {
          build: { id: snap.id, task: snap.task, running: true, result: null, failed_tasks: [] },
          diagnostics: all.slice(0, limit),
          total: all.length,
          what_went_wrong: [],
          available: true,
        };
      }
      const record = picked.record;
      if (!record) {
        return { build: null, diagnostics: [], total: 0, what_went_wrong: [], available: false };
      }
      const stored = picked.finished
        ? { diagnostics: picked.finished.diagnostics, what_went_wrong: picked.finished.whatWentWrong }
        : loadBuildOutput(record.id);
      const all = selectDiagnostics(stored?.diagnostics ?? [], include_warnings);
      return {
        build: {
          id: record.id,
          task: record.task,
          running: false,
          result: record.result,
          failed_tasks: record.failed_tasks,
        },
        diagnostics: all.slice(0, limit),
        total: all.length,
        what_went_wrong: (stored?.what_went_wrong ?? []).slice(0, 10),
        available: stored !== null,
      };
    },
    'build.log': ({ root, build_id, lines }, state) => {
      const want = lines ?? readSettings().mcp.default_build_log_lines;
      const picked = pickBuild(state, root, build_id);
      if (picked.running) {
        return {
          build_id: picked.running.id,
          task: picked.running.snapshot().task,
          running: true,
          lines: picked.running.tail.last(want),
          total_lines: picked.running.tail.total,
          available: true,
        };
      }
      const record = picked.record;
      if (!record) {
        return { build_id: null, task: null, running: false, lines: [], total_lines: 0, available: false };
      }
      if (picked.finished) {
        return {
          build_id: record.id,
          task: record.task,
          running: false,
          lines: picked.finished.tail.last(want),
          total_lines: picked.finished.tail.total,
          available: true,
        };
      }
      const stored = loadBuildOutput(record.id);
      return {
        build_id: record.id,
        task: record.task,
        running: false,
        lines: stored ? stored.log.slice(Math.max(0, stored.log.length - want)) : [],
        total_lines: stored?.total_lines ?? record.log_lines,
        available: stored !== null,
      };
    },
    'build.cancel': async (_payload, state, ctx) => {
      const slot = state.slot;
      if (!slot) {
        return {
          cancelled: false,
          build_id: null,
          task: null,
          message: 'No Gradle build is running.',
          record: null,
        };
      }
      if (!slot.run) {
        return {
          cancelled: false,
          build_id: slot.id,
          task: slot.task,
          message: `Build ${slot.id} (${slot.task}) is still starting; try cancel_build again in a moment.`,
          record: null,
        };
      }
      const run = slot.run;
      run.cancel(ctx.origin, `cancelled by ${describeOrigin(ctx.origin)}`);
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        run.done,
        new Promise<null>((r) => {
          timer = setTimeout(() => r(null), CANCEL_WAIT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
      const record = finished?.record ?? null;
      return {
        cancelled: true,
        build_id: run.id,
        task: slot.task,
        message: record
          ? `Build ${run.id} (${slot.task}) was ${record.result === 'cancelled' ? 'cancelled' : `already ending (${record.result})`}.`
          : `Build ${run.id} (${slot.task}) is being stopped; it did not end within ${CANCEL_WAIT_MS / 1000} s.`,
        record,
      };
    },
    'build.wait_idle': async ({ timeout_ms }, state, ctx) => {
      if (state.slot !== null) {
        let wake!: () => void;
        let timer: NodeJS.Timeout | undefined;
        const onAbort = (): void => wake();
        await new Promise<void>((resolve) => {
          wake = resolve;
          state.idleWaiters.add(wake);
          timer = setTimeout(wake, timeout_ms);
          ctx.signal.addEventListener('abort', onAbort, { once: true });
        });
        state.idleWaiters.delete(wake);
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', onAbort);
      }
      return { idle: state.slot === null, build_id: state.slot?.id ?? null };
    },
    'build.history': async ({ root, limit }) => {
      await recordInterruptedBuilds();
      return { records: recentBuilds(root === null ? null : gradleRootOf(root), limit) };
    },
  },
});
