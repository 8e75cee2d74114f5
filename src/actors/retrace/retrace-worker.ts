/**
 * The piscina task module of the retrace pool. Each worker thread keeps its own in-memory index
 * cache (LRU by estimated bytes; `workerData.cacheBytes`, else DROIDBUS_RETRACE_CACHE_BYTES, else
 * 256 MiB). Tasks and results are plain data; a corrupt mapping is an `INVALID` result, never a
 * thrown error, so the pool never loses a worker to bad input.
 */
import { workerData } from 'piscina';
import type { TaskFunction } from '../pool.js';
import type { RetraceResults, RetraceTask } from './retrace-task.js';
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
const retraceWorker: TaskFunction<RetraceTask, RetraceResults> = (task) => runRetraceTask(cache, task);
export default retraceWorker;
