import type { BusClient } from '../bus/client.js';
import type { Origin } from '../bus/origin.js';
import type { EventOf, EventTopic, PayloadOf, RequestTypesOf, ResponseOf } from '../bus/registry.js';
import type { Progress } from '../bus/envelope.js';
import type { Logger } from '../util/log.js';

/** What every actor can use, for its whole life. */
export interface ActorContext {
  /** `kind` or `kind/key`. */
  readonly address: string;
  /** The instance key (a device serial), for kinds with instances. */
  readonly key: string | undefined;
  readonly log: Logger;
  /** Publishes an event on the bus. */
  emit<E extends EventTopic>(topic: E, payload: EventOf<E>): void;
  /** Sends a request to another actor through the bus (never to itself: that would deadlock its mailbox). */
  readonly bus: Pick<BusClient, 'request'>;
}

/** What a handler gets for one request. */
export interface HandlerContext extends ActorContext {
  /** Fires when the request is cancelled or its deadline passes; pass it down to sockets and processes. */
  readonly signal: AbortSignal;
  /** Absolute deadline, epoch ms. */
  readonly deadline: number;
  /** Who asked. */
  readonly origin: Origin;
  /** The bus request id (for logs and records). */
  readonly requestId: string;
  /** Reports progress to the requester (MCP progress notifications when the client asked for them). */
  progress(progress: Progress): void;
}

export type Handlers<K extends string, S> = {
  [T in RequestTypesOf<K>]: (
    payload: PayloadOf<T>,
    state: S,
    ctx: HandlerContext,
  ) => Promise<ResponseOf<T>> | ResponseOf<T>;
};

/**
 * An actor kind: how to start an instance (its state), its request handlers, the events it listens
 * to, and how to stop it. An instance handles one request at a time unless `concurrency` says
 * otherwise; handlers that name a `lane` also run one at a time within that lane.
 */
export interface ActorDefinition<K extends string, S> {
  kind: K;
  /** Requests handled at once (default 1). */
  concurrency?: number;
  /** Handlers in the same lane never overlap, whatever the concurrency. */
  lanes?: Partial<Record<RequestTypesOf<K>, string>>;
  /** Milliseconds `start` may take (default 10 s). */
  startTimeoutMs?: number;
  /** Milliseconds `stop` may take (default 5 s). */
  stopTimeoutMs?: number;
  start(ctx: ActorContext): Promise<S> | S;
  stop?(state: S, ctx: ActorContext): Promise<void> | void;
  handlers: Handlers<K, S>;
  events?: { [E in EventTopic]?: (payload: EventOf<E>, state: S, ctx: ActorContext) => void };
}

/** Declares an actor kind; the module that holds it default-exports the result. */
export function defineActor<K extends string, S>(definition: ActorDefinition<K, S>): ActorDefinition<K, S> {
  return definition;
}

/** The type-erased form the worker host runs. */
export interface AnyActorDefinition {
  kind: string;
  concurrency?: number;
  lanes?: Record<string, string | undefined>;
  startTimeoutMs?: number;
  stopTimeoutMs?: number;
  start(ctx: ActorContext): unknown;
  stop?(state: unknown, ctx: ActorContext): unknown;
  handlers: Record<string, (payload: unknown, state: unknown, ctx: HandlerContext) => unknown>;
  events?: Record<string, ((payload: unknown, state: unknown, ctx: ActorContext) => void) | undefined>;
}
