/**
 * The piscina task module of the retrace pool. Each worker thread keeps its own in-memory index
 * cache (LRU by estimated bytes; `workerData.cacheBytes`, else DROIDBUS_RETRACE_CACHE_BYTES, else
 * 256 MiB). Tasks and results are plain data; a corrupt mapping is an `INVALID` result, never a
 * thrown error, so the pool never loses a worker to bad input.
 */
import { workerData } from 'piscina';
import type { RetraceTask, RetraceTaskResult } from './retrace-task.js';
import { RetraceIndexCache, runRetraceTask } from './retrace-task.js';

function cacheBound(): number {
  const fromPool = (workerData as { cacheBytes?: unknown } | undefined)?.cacheBytes;
  if (typeof fromPool === 'number' && fromPool > 0) {
    return fromPool;
  }
  const fromEnv = Number(process.env['DROIDBUS_RETRACE_CACHE_BYTES']);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 256 * 1024 * 1024;
}

const cache = new RetraceIndexCache(cacheBound());

/** Runs one retrace-pool task. */
export default async function retraceWorker(task: RetraceTask): Promise<RetraceTaskResult> {
  return runRetraceTask(cache, task);
}
