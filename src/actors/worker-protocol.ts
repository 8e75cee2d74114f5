import type { WireError } from '../bus/errors.js';
import type { ProgressEnvelope, RequestEnvelope, ResponseEnvelope } from '../bus/envelope.js';

/**
 * Why an actor's request is cancelled: its deadline passed (the handler's signal aborts with TIMEOUT)
 * or its requester gave up (CANCELLED).
 */
export type CancelCode = 'TIMEOUT' | 'CANCELLED';

/**
 * Messages between the supervisor (main thread) and a worker that hosts actors. Branded by `t` so a
 * stray message is recognisable; every switch on it ends with a `never` check.
 */
export type ToWorker =
  | { t: 'spawn'; address: string; kind: string; key: string | undefined; module: string }
  /** `why` is what requests still held get told (default: UNAVAILABLE, the actor stopped). */
  | { t: 'stop'; address: string; why?: WireError }
  | { t: 'request'; address: string; envelope: RequestEnvelope }
  | { t: 'cancel'; address: string; id: string; reason: string; code: CancelCode }
  | { t: 'event'; topic: string; payload: unknown }
  /** The answer to a request an actor on this worker sent. */
  | { t: 'reply'; envelope: ResponseEnvelope }
  | { t: 'reply-progress'; envelope: ProgressEnvelope }
  /** Is the thread's event loop turning? Answered `pong` at once unless a handler holds the thread. */
  | { t: 'ping'; id: number };

export type FromWorker =
  | { t: 'state'; address: string; state: 'started' | 'stopped' | 'failed'; error?: WireError }
  | { t: 'response'; envelope: ResponseEnvelope }
  | { t: 'progress'; envelope: ProgressEnvelope }
  | { t: 'event'; topic: string; payload: unknown }
  | { t: 'subscribe'; topics: string[] }
  /** A request an actor sends to another actor. */
  | { t: 'request'; envelope: RequestEnvelope }
  | { t: 'cancel'; id: string; reason: string }
  | { t: 'pong'; id: number };

/** Data the supervisor passes to each worker. */
export interface WorkerData {
  group: string;
  index: number;
}
