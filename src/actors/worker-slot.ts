/**
 * The supervisor's view of one worker thread (a slot of a worker group) and how it starts one.
 */
import { Worker } from 'node:worker_threads';
import type { ToWorker, FromWorker, WorkerData } from './worker-protocol.js';

const WORKER_ENTRY = new URL('./worker-host.js', import.meta.url);

/** What hosts a slot's actors: a worker thread, or the inline host on this thread. */
export interface ActorThread {
  /** The worker thread's id (the inline host has none). */
  readonly threadId?: number;
  postMessage(message: ToWorker, transfer?: ArrayBuffer[]): void;
  terminate(): Promise<number>;
  on(event: 'message', listener: (message: FromWorker) => void): this;
  on(event: 'error', listener: (err: Error) => void): this;
  on(event: 'exit', listener: (code: number) => void): this;
}

/** One thread of a worker group, as the supervisor tracks it. */
export interface Slot {
  group: string;
  index: number;
  worker: ActorThread | undefined;
  actors: Set<string>;
  /** Bus requests handed to this worker's actors and not answered yet. */
  inflight: Map<string, { address: string; type: string; deadline: number }>;
  /** The watchdog's ping waiting for its pong, when it asked whether the thread still turns. */
  probe: { id: number; sentAt: number; address: string; type: string } | undefined;
  /** Why the watchdog terminated this worker (the message its in-flight requests fail with). */
  stuck: string | undefined;
  /** Requests this worker's actors sent: their id → the bus id. */
  outgoing: Map<string, string>;
  topics: Set<string>;
  restarts: number[];
  lastError: string | undefined;
  dead: boolean;
}

/** A group's `index`-th thread, not started yet. */
export function newSlot(group: string, index: number): Slot {
  return {
    group,
    index,
    worker: undefined,
    actors: new Set<string>(),
    inflight: new Map(),
    outgoing: new Map(),
    topics: new Set<string>(),
    restarts: [],
    lastError: undefined,
    dead: false,
    probe: undefined,
    stuck: undefined,
  };
}

/** Starts a worker thread that hosts actors. */
export function startWorker(data: WorkerData): Worker {
  // stdout: true keeps a worker's stdout off ours: stdout is the MCP protocol. It goes to stderr.
  const worker = new Worker(WORKER_ENTRY, { workerData: data, stdout: true, stderr: true });
  worker.stdout.pipe(process.stderr, { end: false });
  worker.stderr.pipe(process.stderr, { end: false });
  return worker;
}
