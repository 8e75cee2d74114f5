import { createNanoEvents } from 'nanoevents';
import type { Emitter } from 'nanoevents';
import { BusError, toWireError } from './errors.js';
import type { WireError } from './errors.js';
import type { Progress, RequestEnvelope } from './envelope.js';
import type { Origin } from './origin.js';
import { REQUESTS, addressOf, isRequestType } from './registry.js';
import type { EventOf, EventTopic, RequestType } from './registry.js';
import { logger } from '../util/log.js';

const log = logger('bus');

/** Where a request's outcome goes. Exactly one of `resolve`/`reject` is called, once. */
export interface ReplySink {
  resolve(value: unknown): void;
  reject(error: WireError): void;
  progress?(progress: Progress): void;
}

/**
 * The side of the actor runtime the bus talks to (implemented by the supervisor in src/actors).
 * The bus never imports actors: it is handed one of these.
 */
export interface ActorEndpoint {
  /** The mailbox size of the actor at `address`: requests beyond it are answered BUSY at once. */
  mailboxCapacity(address: string): number;
  /** Hands a request to the actor; its answer comes back through `Bus.settle`. */
  deliver(address: string, envelope: RequestEnvelope): void;
  /** Asks the actor to stop working on a request (its AbortSignal fires with `code`). */
  cancel(address: string, id: string, reason: string, code: 'TIMEOUT' | 'CANCELLED'): void;
  /** Passes an event on to the actors that listen to its topic. */
  forwardEvent(topic: string, payload: unknown): void;
}

interface Pending {
  type: RequestType;
  address: string;
  sink: ReplySink | undefined;
  timer: NodeJS.Timeout | undefined;
}

/** A request as a client hands it to the bus. */
export interface DispatchRequest {
  type: string;
  payload: unknown;
  /** Absolute deadline, epoch ms; the request type's default when absent. */
  deadline?: number;
  origin: Origin;
}

/**
 * The bus: routes requests to actors and their answers back, enforces deadlines and bounded
 * mailboxes, carries cancellation, and fans events out. It lives in the process that hosts the
 * actors (a standalone `droidbus mcp`, or `droidbus host`).
 */
export class Bus {
  private readonly pending = new Map<string, Pending>();
  private readonly inflight = new Map<string, number>();
  private readonly events: Emitter = createNanoEvents();
  private endpoint: ActorEndpoint | undefined;
  private seq = 0;
  private closed = false;

  /** Connects the actor runtime. Until then every request fails UNAVAILABLE. */
  attach(endpoint: ActorEndpoint): void {
    this.endpoint = endpoint;
  }

  /** Routes one request; returns its id (for `cancel`). The outcome goes to `sink`. */
  dispatch(request: DispatchRequest, sink: ReplySink): string {
    const id = `r${++this.seq}`;
    const refuse = (error: WireError): string => {
      queueMicrotask(() => sink.reject(error));
      return id;
    };
    if (this.closed || !this.endpoint) {
      return refuse({ code: 'UNAVAILABLE', message: 'the droidbus bus is shut down' });
    }
    if (!isRequestType(request.type)) {
      return refuse({ code: 'INVALID', message: `unknown request type '${request.type}'` });
    }
    const type = request.type;
    let address: string;
    try {
      address = addressOf(type, request.payload);
    } catch (err) {
      return refuse({ code: 'INVALID', message: `cannot route ${type}: ${(err as Error).message}` });
    }
    const used = this.inflight.get(address) ?? 0;
    if (used >= this.endpoint.mailboxCapacity(address)) {
      return refuse({
        code: 'BUSY',
        message: `the ${address} actor is busy (${used} requests waiting); try again shortly`,
        actor: address,
      });
    }
    const deadline = request.deadline ?? Date.now() + REQUESTS[type].timeoutMs;
    const pending: Pending = { type, address, sink, timer: undefined };
    const wait = Math.max(0, deadline - Date.now());
    pending.timer = setTimeout(() => this.expire(id), wait);
    this.pending.set(id, pending);
    this.inflight.set(address, used + 1);
    this.endpoint.deliver(address, {
      kind: 'request',
      id,
      type,
      payload: request.payload,
      deadline,
      origin: request.origin,
    });
    return id;
  }

  /** The actor answered (or the runtime answered for it). Frees its mailbox slot. */
  settle(id: string, outcome: { ok: true; value: unknown } | { ok: false; error: WireError }): void {
    const pending = this.pending.get(id);
    if (!pending) {
      return;
    }
    this.pending.delete(id);
    this.release(pending.address);
    if (pending.timer) {
      clearTimeout(pending.timer);
    }
    const sink = pending.sink;
    if (!sink) {
      return; // Already answered CANCELLED or TIMEOUT; the late answer is dropped.
    }
    pending.sink = undefined;
    if (outcome.ok) {
      sink.resolve(outcome.value);
    } else {
      sink.reject(outcome.error);
    }
  }

  /** Forwards an actor's progress report to the requester. */
  progress(id: string, progress: Progress): void {
    const sink = this.pending.get(id)?.sink;
    if (sink?.progress) {
      try {
        sink.progress(progress);
      } catch (err) {
        log.warn('a progress listener threw', { error: String(err) });
      }
    }
  }

  /**
   * Cancels a request: the requester gets CANCELLED at once, the actor's AbortSignal fires. The
   * mailbox slot is freed only when the actor lets go of the request.
   */
  cancel(
    id: string,
    reason = 'cancelled by the requester',
    code: 'CANCELLED' | 'UNAVAILABLE' = 'CANCELLED',
  ): void {
    this.abandon(id, { code, message: reason }, reason);
  }

  /** Publishes an event to local listeners and to the actors that listen to its topic. */
  publish<E extends EventTopic>(topic: E, payload: EventOf<E>): void {
    this.publishAny(topic, payload);
  }

  /** Publishes what arrived from elsewhere under a topic it names (an actor thread's event). */
  publishAny(topic: string, payload: unknown): void {
    this.events.emit(topic, payload);
    this.endpoint?.forwardEvent(topic, payload);
  }

  /**
   * Listens to a topic. A listener that throws is logged and does not stop the others.
   * Returns the function that stops listening.
   */
  subscribe<E extends EventTopic>(topic: E, listener: (payload: EventOf<E>) => void): () => void {
    return this.subscribeAny(topic, listener as (payload: unknown) => void);
  }

  /** Listens to a topic whose name arrived from elsewhere (a socket client's subscription). */
  subscribeAny(topic: string, listener: (payload: unknown) => void): () => void {
    return this.events.on(topic, (payload: unknown) => {
      try {
        listener(payload);
      } catch (err) {
        log.warn(`a listener of '${topic}' threw`, {
          error: err instanceof Error ? err.message : String(err),
        });
      }
    });
  }

  /** Requests in flight per actor address (for stats and tests). */
  inflightByAddress(): Record<string, number> {
    return Object.fromEntries(this.inflight);
  }

  /** Fails every request still in flight with UNAVAILABLE and refuses new ones. */
  close(reason = 'the droidbus bus shut down'): void {
    this.closed = true;
    for (const id of [...this.pending.keys()]) {
      const pending = this.pending.get(id);
      if (pending) {
        this.settle(id, {
          ok: false,
          error: { code: 'UNAVAILABLE', message: reason, actor: pending.address },
        });
      }
    }
  }

  private expire(id: string): void {
    const pending = this.pending.get(id);
    if (!pending) {
      return;
    }
    pending.timer = undefined;
    this.abandon(
      id,
      {
        code: 'TIMEOUT',
        message: `${pending.type} did not finish before its deadline`,
        actor: pending.address,
      },
      'deadline passed',
    );
  }

  private abandon(id: string, error: WireError, reason: string): void {
    const pending = this.pending.get(id);
    if (!pending?.sink) {
      return;
    }
    const sink = pending.sink;
    pending.sink = undefined;
    if (pending.timer) {
      clearTimeout(pending.timer);
      pending.timer = undefined;
    }
    this.endpoint?.cancel(pending.address, id, reason, error.code === 'TIMEOUT' ? 'TIMEOUT' : 'CANCELLED');
    sink.reject(error);
  }

  private release(address: string): void {
    const used = (this.inflight.get(address) ?? 1) - 1;
    if (used <= 0) {
      this.inflight.delete(address);
    } else {
      this.inflight.set(address, used);
    }
  }
}

/** Wraps an unknown thrown value for a sink. */
export function rejectWith(sink: ReplySink, err: unknown, actor?: string): void {
  sink.reject(toWireError(err, actor));
}

export { BusError };
