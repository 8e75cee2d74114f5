import { parentPort, threadId, workerData } from 'node:worker_threads';
import { logger } from '../util/log.js';
import { createActorHost } from './actor-host.js';
import type { ToWorker, WorkerData } from './worker-protocol.js';

/**
 * The entry of a worker thread that hosts actors. Many logical actors share one thread; the actor
 * host (actor-host.ts) runs them, and this file only connects it to the thread's port.
 */

if (!parentPort) {
  throw new Error('worker-host.ts must run in a worker thread');
}
const port = parentPort;
const data = workerData as WorkerData;

const host = createActorHost({
  post: (message, transfer) => port.postMessage(message, transfer),
  idPrefix: `t${threadId}`,
  log: logger(`worker:${data.group}#${data.index}`),
});

port.on('message', (message: ToWorker) => host.handle(message));
