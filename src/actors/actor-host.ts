import { BusError, toWireError } from '../bus/errors.js';
import type { WireError } from '../bus/errors.js';
import type { RequestEnvelope, ResponseEnvelope } from '../bus/envelope.js';
import type { BusClient } from '../bus/client.js';
import { REQUESTS, isRequestType } from '../bus/registry.js';
import { z } from 'zod';
import { logger } from '../util/log.js';
import type { Logger } from '../util/log.js';
import type { ActorContext, AnyActorDefinition, HandlerContext } from './actor.js';
import type { CancelCode, FromWorker, ToWorker } from './worker-protocol.js';
import { collectTransferables } from './transfer.js';

/**
 * The part of the actor runtime that runs actors, wherever it runs: many logical actors, each with
 * its own mailbox, state and lifecycle (starting → started → stopping → stopped). The worker host
 * (worker-host.ts) runs one on a worker thread; the inline host (inline-host.ts) runs one on the
 * main thread. Both speak the same messages to the supervisor, so the mailbox, lane, concurrency,
 * deadline and cancellation rules are this one code.
 */
export interface ActorHost {
  /** Handles one message from the supervisor. */
  handle(message: ToWorker): void;
  /**
   * Drops every actor without stopping it, as a thread that dies would: running handlers are
   * aborted and nothing they answer later is posted.
   */
  dispose(reason: string): void;
}

export interface ActorHostOptions {
  /** Sends a message to the supervisor; `transfer` lists buffers a thread boundary may move. */
  post(message: FromWorker, transfer: ArrayBuffer[]): void;
  /** Makes the ids of requests the actors send unique across hosts. */
  idPrefix: string;
  /** The host's own logger (`worker:main#0`, `inline:main#0`). */
  log: Logger;
}

type Status = 'starting' | 'started' | 'stopping' | 'stopped' | 'failed';

interface Running {
  controller: AbortController;
  lane: string | undefined;
}

interface Instance {
  address: string;
  def: AnyActorDefinition | undefined;
  ctx: ActorContext;
  state: unknown;
  status: Status;
  queue: RequestEnvelope[];
  running: Map<string, Running>;
  busyLanes: Set<string>;
}

interface Outgoing {
  resolve(v: unknown): void;
  reject(e: unknown): void;
  onProgress?: HandlerContext['progress'];
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BusError('TIMEOUT', `${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Checks a payload against its request schema and applies the schema's defaults. */
function parsePayload(envelope: RequestEnvelope): unknown {
  const def = isRequestType(envelope.type) ? REQUESTS[envelope.type] : undefined;
  if (!def) {
    throw new BusError('INVALID', `unknown request type '${envelope.type}'`);
  }
  const parsed = def.request.safeParse(envelope.payload);
  if (!parsed.success) {
    throw new BusError('INVALID', `invalid ${envelope.type} payload: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** Creates an actor host that reaches its supervisor through `options.post`. */
export function createActorHost(options: ActorHostOptions): ActorHost {
  return new Actors(options);
}

/** The actors of one host: their instances and mailboxes, and the requests they send to others. */
class Actors implements ActorHost {
  private readonly log: Logger;
  private readonly instances = new Map<string, Instance>();
  /**
   * Why an actor was stopped or failed to start, kept until it starts again: a request that arrives
   * after (a device gone offline) gets that answer (DEVICE_OFFLINE, naming the device), not a bare
   * "not running".
   */
  private readonly stoppedWith = new Map<string, WireError>();
  private readonly subscribed = new Set<string>();
  // Requests actors send to other actors, answered through the supervisor.
  private outgoingSeq = 0;
  private readonly outgoing = new Map<string, Outgoing>();
  private disposed = false;

  constructor(private readonly options: ActorHostOptions) {
    this.log = options.log;
  }

  handle(message: ToWorker): void {
    if (this.disposed) {
      return;
    }
    switch (message.t) {
      case 'spawn':
        void this.spawn(message.address, message.kind, message.key, message.module);
        break;
      case 'stop':
        void this.stop(message.address, message.why);
        break;
      case 'request':
        this.accept(message.address, message.envelope);
        break;
      case 'cancel':
        this.cancel(message.address, message.id, message.reason, message.code);
        break;
      case 'event':
        this.deliverEvent(message.topic, message.payload);
        break;
      case 'reply':
        this.reply(message.envelope);
        break;
      case 'ping':
        this.post({ t: 'pong', id: message.id });
        break;
      case 'reply-progress': {
        const { id: _id, kind: _kind, ...progress } = message.envelope;
        this.outgoing.get(message.envelope.id)?.onProgress?.(progress);
        break;
      }
      default: {
        const never: never = message;
        this.log.error('unknown message from the supervisor', { message: never });
      }
    }
  }

  dispose(reason: string): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    for (const instance of this.instances.values()) {
      instance.status = 'stopped';
      instance.queue.length = 0;
      for (const running of instance.running.values()) {
        running.controller.abort(new BusError('CRASHED', reason, instance.address));
      }
    }
    this.instances.clear();
    for (const waiting of this.outgoing.values()) {
      waiting.reject(new BusError('UNAVAILABLE', reason));
    }
    this.outgoing.clear();
  }

  private post(message: FromWorker, transfer: ArrayBuffer[] = []): void {
    if (!this.disposed) {
      this.options.post(message, transfer);
    }
  }

  private respondError(id: string, error: WireError): void {
    this.post({ t: 'response', envelope: { kind: 'response', id, ok: false, error } });
  }

  /** The answer to a request one of these actors sent. */
  private reply(envelope: ResponseEnvelope): void {
    const waiting = this.outgoing.get(envelope.id);
    if (!waiting) {
      return;
    }
    this.outgoing.delete(envelope.id);
    if (envelope.ok) {
      waiting.resolve(envelope.value);
    } else {
      waiting.reject(BusError.fromWire(envelope.error));
    }
  }

  /** The bus as actor `address` sees it: its requests go out through the supervisor. */
  private makeBus(address: string): Pick<BusClient, 'request'> {
    return {
      request: (type, payload, requestOptions = {}) =>
        new Promise((resolve, reject) => {
          const id = `${this.options.idPrefix}-${++this.outgoingSeq}`;
          const signal = requestOptions.signal;
          const onAbort = (): void => this.post({ t: 'cancel', id, reason: 'cancelled by the actor' });
          const done = (): void => signal?.removeEventListener('abort', onAbort);
          this.outgoing.set(id, {
            resolve: (v) => (done(), resolve(v)),
            reject: (e) => (done(), reject(e)),
            ...(requestOptions.onProgress ? { onProgress: requestOptions.onProgress } : {}),
          });
          const timeoutMs = requestOptions.timeoutMs ?? REQUESTS[type].timeoutMs;
          this.post({
            t: 'request',
            envelope: {
              kind: 'request',
              id,
              type,
              payload,
              deadline: Date.now() + timeoutMs,
              origin: requestOptions.origin ?? { kind: 'actor', address },
            },
          });
          signal?.addEventListener('abort', onAbort, { once: true });
        }) as never,
    };
  }

  private makeContext(address: string, key: string | undefined): ActorContext {
    return {
      address,
      key,
      log: logger(address),
      emit: (topic, payload) => this.post({ t: 'event', topic, payload }),
      bus: this.makeBus(address),
    };
  }

  private async spawn(address: string, kind: string, key: string | undefined, module: string): Promise<void> {
    const instance: Instance = {
      address,
      def: undefined,
      ctx: this.makeContext(address, key),
      state: undefined,
      status: 'starting',
      queue: [],
      running: new Map(),
      busyLanes: new Set(),
    };
    this.instances.set(address, instance);
    this.stoppedWith.delete(address);
    try {
      const mod = (await import(module)) as { default?: AnyActorDefinition };
      const def = mod.default;
      if (!def || def.kind !== kind) {
        throw new Error(`module ${module} does not default-export the '${kind}' actor`);
      }
      instance.def = def;
      const topics = Object.keys(def.events ?? {}).filter((topic) => !this.subscribed.has(topic));
      if (topics.length > 0) {
        topics.forEach((topic) => this.subscribed.add(topic));
        this.post({ t: 'subscribe', topics });
      }
      instance.state = await withTimeout(
        Promise.resolve(def.start(instance.ctx)),
        def.startTimeoutMs ?? 10_000,
        `starting ${address}`,
      );
      if (instance.status !== 'starting') {
        return; // Stopped while starting.
      }
      instance.status = 'started';
      this.post({ t: 'state', address, state: 'started' });
      this.pump(instance);
    } catch (err) {
      this.startFailed(instance, err);
    }
  }

  private startFailed(instance: Instance, err: unknown): void {
    const address = instance.address;
    instance.status = 'failed';
    const error = toWireError(err, address);
    error.message = `the ${address} actor failed to start: ${error.message}`;
    // A start that failed for a reason of its own (a device that is not online) keeps its code.
    if (error.code === 'INTERNAL') {
      error.code = 'UNAVAILABLE';
    }
    for (const queued of instance.queue.splice(0)) {
      this.respondError(queued.id, error);
    }
    this.instances.delete(address);
    this.stoppedWith.set(address, error);
    this.post({ t: 'state', address, state: 'failed', error });
  }

  private async stop(address: string, why?: WireError): Promise<void> {
    const instance = this.instances.get(address);
    if (!instance || instance.status === 'stopping') {
      return;
    }
    instance.status = 'stopping';
    const reason: WireError = why ?? { code: 'UNAVAILABLE', message: `the ${address} actor stopped` };
    if (why !== undefined) {
      this.stoppedWith.set(address, why);
    }
    for (const queued of instance.queue.splice(0)) {
      this.respondError(queued.id, { ...reason, actor: address });
    }
    for (const running of instance.running.values()) {
      running.controller.abort(new BusError(reason.code, reason.message, address));
    }
    try {
      if (instance.def?.stop) {
        await withTimeout(
          Promise.resolve(instance.def.stop(instance.state, instance.ctx)),
          instance.def.stopTimeoutMs ?? 5_000,
          `stopping ${address}`,
        );
      }
    } catch (err) {
      this.log.warn(`stopping ${address} failed`, { error: String(err) });
    }
    instance.status = 'stopped';
    this.instances.delete(address);
    this.post({ t: 'state', address, state: 'stopped' });
  }

  private accept(address: string, envelope: RequestEnvelope): void {
    const instance = this.instances.get(address);
    if (
      !instance ||
      instance.status === 'stopping' ||
      instance.status === 'stopped' ||
      instance.status === 'failed'
    ) {
      const stopped = this.stoppedWith.get(address);
      this.respondError(
        envelope.id,
        stopped !== undefined
          ? { ...stopped, actor: address }
          : { code: 'UNAVAILABLE', message: `the ${address} actor is not running`, actor: address },
      );
      return;
    }
    instance.queue.push(envelope);
    this.pump(instance);
  }

  /** Starts what the mailbox may run now: within the concurrency, one request per busy lane. */
  private pump(instance: Instance): void {
    const def = instance.def;
    if (instance.status !== 'started' || !def) {
      return;
    }
    const concurrency = def.concurrency ?? 1;
    for (let i = 0; i < instance.queue.length && instance.running.size < concurrency;) {
      const envelope = instance.queue[i]!;
      const lane = def.lanes?.[envelope.type];
      if (lane !== undefined && instance.busyLanes.has(lane)) {
        i++;
        continue;
      }
      instance.queue.splice(i, 1);
      this.run(instance, def, envelope, lane);
    }
  }

  private run(
    instance: Instance,
    def: AnyActorDefinition,
    envelope: RequestEnvelope,
    lane: string | undefined,
  ): void {
    const controller = new AbortController();
    instance.running.set(envelope.id, { controller, lane });
    if (lane !== undefined) {
      instance.busyLanes.add(lane);
    }
    const ctx: HandlerContext = {
      ...instance.ctx,
      signal: controller.signal,
      deadline: envelope.deadline,
      origin: envelope.origin,
      requestId: envelope.id,
      progress: (progress) =>
        this.post({ t: 'progress', envelope: { kind: 'progress', id: envelope.id, ...progress } }),
    };
    const handler = def.handlers[envelope.type];
    const work = (async () => {
      if (!handler) {
        throw new BusError('INVALID', `the ${instance.address} actor has no handler for ${envelope.type}`);
      }
      return handler(parsePayload(envelope), instance.state, ctx);
    })();
    work
      .then(
        (value) =>
          this.post(
            { t: 'response', envelope: { kind: 'response', id: envelope.id, ok: true, value } },
            collectTransferables(value),
          ),
        (err: unknown) => this.respondError(envelope.id, failureOf(err, controller.signal, instance.address)),
      )
      .finally(() => {
        instance.running.delete(envelope.id);
        if (lane !== undefined) {
          instance.busyLanes.delete(lane);
        }
        this.pump(instance);
      });
  }

  private cancel(address: string, id: string, reason: string, code: CancelCode): void {
    const instance = this.instances.get(address);
    if (!instance) {
      return;
    }
    const queuedAt = instance.queue.findIndex((e) => e.id === id);
    if (queuedAt >= 0) {
      instance.queue.splice(queuedAt, 1);
      this.respondError(id, { code: 'CANCELLED', message: reason, actor: address });
      return;
    }
    instance.running.get(id)?.controller.abort(new BusError(code, reason, address));
  }

  private deliverEvent(topic: string, payload: unknown): void {
    for (const instance of this.instances.values()) {
      const listener = instance.def?.events?.[topic];
      if (listener && instance.status === 'started') {
        try {
          listener(payload, instance.state, instance.ctx);
        } catch (err) {
          this.log.warn(`${instance.address} failed on event ${topic}`, { error: String(err) });
        }
      }
    }
  }
}

/** What a failed handler answers: its error, or — when it died of its abort — why it was aborted. */
function failureOf(err: unknown, signal: AbortSignal, address: string): WireError {
  const error = toWireError(err, address);
  if (signal.aborted && error.code === 'INTERNAL') {
    // The handler died of its abort; report why it was aborted rather than the abort's symptom.
    const reason: unknown = signal.reason;
    return reason instanceof BusError ? reason.toWire() : { code: 'CANCELLED', message: String(reason) };
  }
  return error;
}
