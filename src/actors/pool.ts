import { Piscina } from 'piscina';
import os from 'node:os';
import { poolsRunInline } from './pool-mode.js';

const POOL_ENTRY = new URL('./pool-entry.js', import.meta.url);

export interface PoolOptions {
  /** The task module: it default-exports `async (task) => result`. */
  module: URL;
  /** Pool name, for logs. */
  name: string;
  /** Threads at most (default: the number of CPUs, at least 1). */
  maxThreads?: number;
  /** Threads kept warm (default 0: a pool costs nothing until used). */
  minThreads?: number;
  /** Idle threads exit after this long (default 30 s). */
  idleTimeoutMs?: number;
  /**
   * Set when tasks keep timers or spawn processes: piscina's Atomics wait would block their event
   * loop between tasks, so such pools run with `atomics: 'disabled'`.
   */
  tasksUseEventLoop?: boolean;
  /** Tasks waiting at most; more are refused by piscina (default: 4 per thread). */
  maxQueue?: number;
}

/**
 * A pool of typed tasks: each task names its `op`, and `Results` says what each op answers, so a
 * caller gets the result type of the task it sent with no cast. The task module's default export
 * is checked against the same pair (`satisfies TaskFunction<Task, Results>`).
 */
export interface TaskPool<Task extends { op: string }, Results extends Record<Task['op'], unknown>> {
  run<T extends Task>(task: T, options?: { signal?: AbortSignal }): Promise<Results[T['op']]>;
  destroy(): Promise<void>;
}

/** What a pool's task module default-exports. */
export type TaskFunction<Task extends { op: string }, Results extends Record<Task['op'], unknown>> = (
  task: Task,
) => Promise<Results[Task['op']]>;

/** A pool that calls its task module's function on this thread (the inline mode). */
function inlinePool(module: URL): Piscina {
  let task: Promise<(task: unknown) => unknown> | undefined;
  const load = (): Promise<(task: unknown) => unknown> =>
    (task ??= import(module.href).then((mod: { default?: (task: unknown) => unknown }) => {
      if (typeof mod.default !== 'function') {
        throw new Error(`pool task module ${module.href} does not default-export a function`);
      }
      return mod.default;
    }));
  const pool = {
    async run(input: unknown, runOptions: { signal?: AbortSignal | null } = {}): Promise<unknown> {
      runOptions.signal?.throwIfAborted();
      return (await load())(input);
    },
    async destroy(): Promise<void> {},
  };
  // Callers use only run() and destroy(), which this provides with piscina's signatures.
  return pool as unknown as Piscina;
}

/**
 * A piscina pool for CPU-bound work (retrace, image scaling). Every pool thread starts through
 * pool-entry, which sends the thread's stdout to stderr before the task module loads: piscina has
 * no option for that, and stdout is the MCP protocol.
 */
export function createPool<Task extends { op: string }, Results extends Record<Task['op'], unknown>>(
  options: PoolOptions,
): TaskPool<Task, Results> {
  const pool = poolsRunInline() ? inlinePool(options.module) : piscinaPool(options);
  return {
    // The task module satisfies TaskFunction<Task, Results>: its answer is the op's result.
    run: (task, runOptions = {}) => pool.run(task, runOptions) as Promise<never>,
    destroy: () => pool.destroy(),
  };
}

function piscinaPool(options: PoolOptions): Piscina {
  const maxThreads = Math.max(1, options.maxThreads ?? os.availableParallelism());
  return new Piscina({
    filename: POOL_ENTRY.href,
    name: 'default',
    workerData: { taskModule: options.module.href, pool: options.name },
    maxThreads,
    minThreads: Math.min(maxThreads, options.minThreads ?? 0),
    idleTimeout: options.idleTimeoutMs ?? 30_000,
    maxQueue: options.maxQueue ?? maxThreads * 4,
    atomics: options.tasksUseEventLoop ? 'disabled' : 'sync',
  });
}
