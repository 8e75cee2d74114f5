import type { Progress } from './envelope.js';
import type { Origin } from './origin.js';
import type { EventOf, EventTopic, RequestOf, RequestType, ResponseOf } from './registry.js';

/** Options of one request. */
export interface RequestOptions {
  /** Aborting it cancels the request: the actor's own AbortSignal fires, the promise rejects CANCELLED. */
  signal?: AbortSignal;
  /** Overrides the request type's default deadline. */
  timeoutMs?: number;
  /** Called for each progress report the actor sends. */
  onProgress?: (progress: Progress) => void;
  /** Overrides the client's origin (who asked) for this request. */
  origin?: Origin;
}

/**
 * What frontends hold: the same interface whether the actors run in this process's workers
 * (LocalBusClient) or in a host reached over its socket (SocketBusClient).
 */
export interface BusClient {
  /** Sends a request and resolves with the actor's answer, or rejects with a BusError. */
  request<T extends RequestType>(
    type: T,
    payload: RequestOf<T>,
    options?: RequestOptions,
  ): Promise<ResponseOf<T>>;
  /** Listens to an event topic; returns the function that stops listening. */
  on<E extends EventTopic>(topic: E, listener: (payload: EventOf<E>) => void): () => void;
  /** Stops the client: requests still in flight fail with UNAVAILABLE. */
  close(): Promise<void>;
}
