import { workerData } from 'node:worker_threads';

/**
 * The first module of every piscina thread. It points the thread's stdout at stderr (console.log
 * and process.stdout.write alike) and then loads the pool's task module.
 */
const stderrWrite = process.stderr.write.bind(process.stderr);
process.stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
  stderrWrite(chunk as string, ...(rest as []))) as typeof process.stdout.write;

type Task = (task: unknown) => unknown;
const { taskModule } = workerData as { taskModule: string };
const loaded = import(taskModule).then((mod: { default?: Task }) => {
  if (typeof mod.default !== 'function') {
    throw new Error(`pool task module ${taskModule} does not default-export a function`);
  }
  return mod.default;
});

/** Runs one task with the pool's task module. */
export default async function run(task: unknown): Promise<unknown> {
  return (await loaded)(task);
}
