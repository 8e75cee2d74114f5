import type { ActorEndpoint, Bus } from '../bus/bus.js';
import { runId } from '../util/run-id.js';
import type { WireError } from '../bus/errors.js';
import type { RequestEnvelope } from '../bus/envelope.js';
import { logger } from '../util/log.js';
import { releaseUiLocksOf } from './device/ui/ui-lock.js';
import { InlineActorThread } from './inline-host.js';
import { ACTOR_KINDS, DEFAULT_GROUPS, parseAddress } from './kinds.js';
import type { KindConfig } from './kinds.js';
import { newSlot, startWorker, type ActorThread, type Slot } from './worker-slot.js';
import type { CancelCode, FromWorker, ToWorker, WorkerData } from './worker-protocol.js';

const log = logger('supervisor');
const RESTART_WINDOW_MS = 60_000;
const MAX_RESTARTS_IN_WINDOW = 5;

interface ActorRecord {
  kind: string;
  key: string | undefined;
  slot: Slot;
  state: 'starting' | 'started' | 'stopping';
  /** Why it is stopping, when the stopper said (its device went away). */
  stopWhy?: WireError | undefined;
  started: Promise<void>;
  settleStart: (error?: WireError) => void;
  stopped?: () => void;
}

export interface SupervisorOptions {
  /** Threads per worker group (defaults: DEFAULT_GROUPS). */
  groups?: Record<string, number>;
  /** Extra or replacement actor kinds (tests register their own). */
  kinds?: Record<string, KindConfig>;
  /**
   * Run the actors on this thread instead of worker threads (`DROIDBUS_INLINE=1`): same modules,
   * same mailbox rules; for measuring what the worker threads buy.
   */
  inline?: boolean;
  /** How long past a request's deadline its handler may hold its thread before the worker is replaced. */
  stuckGraceMs?: number;
}

/** A handler past its deadline by this much makes the watchdog ask whether its thread still turns … */
const STUCK_GRACE_MS = 5_000;
/** … and a thread that does not answer within this long is terminated and its actors restarted. */
const PING_TIMEOUT_MS = 2_000;
const WATCH_EVERY_MS = 1_000;

/**
 * Hosts actors on worker threads for the bus: places them (many per thread), delivers their
 * mail, restarts a crashed worker and fails what it had in flight with an error naming the actor.
 */
export class Supervisor implements ActorEndpoint {
  private readonly kinds: Record<string, KindConfig>;
  private readonly groups: Map<string, Slot[]> = new Map();
  private readonly actors = new Map<string, ActorRecord>();
  private shuttingDown = false;
  /** True when the actors run on this thread (the inline host) rather than on worker threads. */
  readonly inline: boolean;
  private readonly stuckGraceMs: number;
  private readonly watchdog: NodeJS.Timeout | undefined;
  private pingSeq = 0;

  constructor(
    private readonly bus: Bus,
    options: SupervisorOptions = {},
  ) {
    // Set on the main thread before any worker starts: every worker inherits it (util/run-id.ts).
    runId();
    this.kinds = { ...ACTOR_KINDS, ...options.kinds };
    this.inline = options.inline === true;
    this.stuckGraceMs = options.stuckGraceMs ?? STUCK_GRACE_MS;
    // A handler that spins holds its worker's thread: every actor there stops answering. The
    // inline host shares this thread, so nothing here could notice; it has no watchdog.
    this.watchdog = this.inline ? undefined : setInterval(() => this.watch(), WATCH_EVERY_MS).unref();
    for (const [group, threads] of Object.entries({ ...DEFAULT_GROUPS, ...options.groups })) {
      this.groups.set(
        group,
        Array.from({ length: Math.max(1, threads) }, (_, index) => newSlot(group, index)),
      );
    }
    bus.attach(this);
  }

  mailboxCapacity(address: string): number {
    return this.kinds[parseAddress(address).kind]?.mailbox ?? 16;
  }

  deliver(address: string, envelope: RequestEnvelope): void {
    let record = this.actors.get(address);
    if (!record) {
      const { kind, key } = parseAddress(address);
      const config = this.kinds[kind];
      if (!config) {
        this.answer(envelope.id, { code: 'INVALID', message: `no actor kind '${kind}'` });
        return;
      }
      const spawned = this.place(kind, key);
      if ('code' in spawned) {
        this.answer(envelope.id, spawned);
        return;
      }
      record = spawned;
    }
    if (record.state === 'stopping') {
      // Why it stops (its device went away) is what a request arriving now needs to hear.
      this.answer(
        envelope.id,
        record.stopWhy
          ? { ...record.stopWhy, actor: address }
          : { code: 'UNAVAILABLE', message: `the ${address} actor is stopping`, actor: address },
      );
      return;
    }
    const slot = record.slot;
    slot.inflight.set(envelope.id, { address, type: envelope.type, deadline: envelope.deadline });
    this.post(slot, { t: 'request', address, envelope });
  }

  cancel(address: string, id: string, reason: string, code: CancelCode): void {
    const record = this.actors.get(address);
    if (record?.slot.inflight.has(id)) {
      this.post(record.slot, { t: 'cancel', address, id, reason, code });
    }
  }

  forwardEvent(topic: string, payload: unknown): void {
    for (const slots of this.groups.values()) {
      for (const slot of slots) {
        if (slot.worker && slot.topics.has(topic)) {
          this.post(slot, { t: 'event', topic, payload });
        }
      }
    }
  }

  /** Starts an actor (a device actor when its device comes online). Resolves once it runs. */
  async spawn(kind: string, key?: string): Promise<void> {
    const address = key === undefined ? kind : `${kind}/${key}`;
    const existing = this.actors.get(address);
    if (existing) {
      return existing.started;
    }
    const record = this.place(kind, key);
    if ('code' in record) {
      throw new Error(record.message);
    }
    return record.started;
  }

  /** Stops an actor (its device went away). Requests it still holds fail with `why` (default UNAVAILABLE). */
  async stopActor(address: string, why?: WireError): Promise<void> {
    const record = this.actors.get(address);
    if (!record || record.state === 'stopping') {
      return;
    }
    record.state = 'stopping';
    record.stopWhy = why;
    await new Promise<void>((resolve) => {
      record.stopped = resolve;
      this.post(record.slot, why ? { t: 'stop', address, why } : { t: 'stop', address });
    });
  }

  /** Addresses of the running actors and their state. */
  list(): { address: string; state: string; thread: string }[] {
    return [...this.actors.entries()].map(([address, r]) => ({
      address,
      state: r.state,
      thread: `${r.slot.group}#${r.slot.index}`,
    }));
  }

  /**
   * Terminates the worker thread that hosts `address`, as a crash would (diagnostics and tests):
   * its in-flight requests fail CRASHED naming the actor, and the worker is restarted.
   */
  async crashWorkerOf(address: string): Promise<void> {
    const worker = this.actors.get(address)?.slot.worker;
    if (worker) {
      await worker.terminate();
    }
  }

  /** Stops every actor, then every worker. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    clearInterval(this.watchdog);
    const stopping = [...this.actors.keys()].map((address) =>
      Promise.race([this.stopActor(address), new Promise<void>((r) => setTimeout(r, 6_000).unref())]),
    );
    await Promise.all(stopping);
    for (const slots of this.groups.values()) {
      for (const slot of slots) {
        const worker = slot.worker;
        slot.worker = undefined;
        if (worker) {
          await worker.terminate();
        }
      }
    }
  }

  private place(kind: string, key: string | undefined): ActorRecord | WireError {
    const address = key === undefined ? kind : `${kind}/${key}`;
    const config = this.kinds[kind];
    if (!config) {
      return { code: 'INVALID', message: `no actor kind '${kind}'` };
    }
    if (this.shuttingDown) {
      return { code: 'UNAVAILABLE', message: 'droidbus is shutting down' };
    }
    const slots = (this.groups.get(config.group) ?? this.groups.get('main'))!.filter((s) => !s.dead);
    if (slots.length === 0) {
      return {
        code: 'UNAVAILABLE',
        message: `the worker threads for ${address} kept crashing and were not restarted; restart droidbus`,
        actor: address,
      };
    }
    const slot = slots.reduce((a, b) => (b.actors.size < a.actors.size ? b : a));
    let settleStart!: (error?: WireError) => void;
    const started = new Promise<void>((resolve, reject) => {
      settleStart = (error) => (error ? reject(new Error(error.message)) : resolve());
    });
    started.catch(() => undefined);
    const record: ActorRecord = { kind, key, slot, state: 'starting', started, settleStart };
    this.actors.set(address, record);
    slot.actors.add(address);
    this.ensureWorker(slot);
    this.post(slot, { t: 'spawn', address, kind, key, module: config.module.href });
    this.bus.publish('actor.state', { address, state: 'starting' });
    return record;
  }

  private ensureWorker(slot: Slot): ActorThread {
    if (slot.worker) {
      return slot.worker;
    }
    const data: WorkerData = { group: slot.group, index: slot.index };
    const worker: ActorThread = this.inline ? new InlineActorThread(data) : startWorker(data);
    worker.on('message', (message: FromWorker) => this.onWorkerMessage(slot, message));
    worker.on('error', (err) => {
      slot.lastError = err.message;
      log.error(`worker ${slot.group}#${slot.index} failed`, { error: err.message });
    });
    // Read now: a Worker's threadId reads -1 once it has exited.
    const threadId = worker.threadId;
    worker.on('exit', (code) => this.onWorkerExit(slot, worker, code, threadId));
    slot.worker = worker;
    return worker;
  }

  private onWorkerMessage(slot: Slot, message: FromWorker): void {
    switch (message.t) {
      case 'response': {
        slot.inflight.delete(message.envelope.id);
        const env = message.envelope;
        this.bus.settle(env.id, env.ok ? { ok: true, value: env.value } : { ok: false, error: env.error });
        break;
      }
      case 'progress': {
        const { id, kind: _kind, ...progress } = message.envelope;
        this.bus.progress(id, progress);
        break;
      }
      case 'event':
        this.bus.publishAny(message.topic, message.payload);
        break;
      case 'subscribe':
        message.topics.forEach((topic) => slot.topics.add(topic));
        break;
      case 'request':
        this.forwardActorRequest(slot, message.envelope);
        break;
      case 'cancel': {
        const busId = slot.outgoing.get(message.id);
        if (busId) {
          this.bus.cancel(busId, message.reason);
        }
        break;
      }
      case 'state':
        this.onActorState(message.address, message.state, message.error);
        break;
      case 'pong':
        if (slot.probe?.id === message.id) {
          slot.probe = undefined; // the thread turns: a handler past its deadline waits, it does not spin
        }
        break;
      default: {
        const never: never = message;
        log.error('unknown message from a worker', { message: never });
      }
    }
  }

  private forwardActorRequest(slot: Slot, envelope: RequestEnvelope): void {
    const actorId = envelope.id;
    const reply = (message: ToWorker): void => {
      slot.outgoing.delete(actorId);
      if (slot.worker) {
        this.post(slot, message);
      }
    };
    const busId = this.bus.dispatch(
      {
        type: envelope.type,
        payload: envelope.payload,
        deadline: envelope.deadline,
        origin: envelope.origin,
      },
      {
        resolve: (value) =>
          reply({ t: 'reply', envelope: { kind: 'response', id: actorId, ok: true, value } }),
        reject: (error) =>
          reply({ t: 'reply', envelope: { kind: 'response', id: actorId, ok: false, error } }),
        progress: (p) => {
          if (slot.worker) {
            this.post(slot, { t: 'reply-progress', envelope: { kind: 'progress', id: actorId, ...p } });
          }
        },
      },
    );
    slot.outgoing.set(actorId, busId);
  }

  private onActorState(address: string, state: 'started' | 'stopped' | 'failed', error?: WireError): void {
    const record = this.actors.get(address);
    if (!record) {
      return;
    }
    if (state === 'started') {
      record.state = 'started';
      record.settleStart();
      this.bus.publish('actor.state', { address, state: 'started' });
      return;
    }
    this.actors.delete(address);
    record.slot.actors.delete(address);
    if (state === 'failed') {
      log.error(`actor ${address} failed to start`, { error: error?.message });
      record.settleStart(error ?? { code: 'UNAVAILABLE', message: `the ${address} actor failed to start` });
    }
    record.stopped?.();
    this.bus.publish('actor.state', {
      address,
      state: 'stopped',
      ...(error ? { reason: error.message } : {}),
    });
  }

  private onWorkerExit(slot: Slot, worker: ActorThread, code: number, threadId: number | undefined): void {
    if (slot.worker !== worker) {
      return; // A worker we terminated on purpose during shutdown.
    }
    slot.worker = undefined;
    if (this.shuttingDown) {
      return;
    }
    const stuck = slot.stuck;
    slot.stuck = undefined;
    slot.probe = undefined;
    const cause = slot.lastError ? `: ${slot.lastError}` : '';
    slot.lastError = undefined;
    log.error(`worker ${slot.group}#${slot.index} exited with code ${code}${cause}`, {
      actors: [...slot.actors],
    });
    if (threadId !== undefined) {
      // Its UI Automator locks would otherwise hold the devices' next captures until they go stale.
      const released = releaseUiLocksOf(process.pid, threadId);
      if (released > 0) {
        log.warn(`released ${released} UI Automator lock(s) the worker held`);
      }
    }
    for (const [id, { address, type }] of slot.inflight) {
      this.answer(id, {
        code: 'CRASHED',
        message: stuck
          ? `${stuck}, so droidbus replaced its worker thread while ${address} handled ${type}; droidbus restarted it — try again`
          : `the ${address} actor crashed while handling ${type} (its worker thread exited with code ${code}${cause}); droidbus restarted it — try again`,
        actor: address,
      });
    }
    slot.inflight.clear();
    for (const busId of slot.outgoing.values()) {
      this.bus.cancel(busId, 'the requesting actor crashed');
    }
    slot.outgoing.clear();
    slot.topics.clear();

    const now = Date.now();
    slot.restarts = slot.restarts.filter((t) => now - t < RESTART_WINDOW_MS);
    const survivors = [...slot.actors];
    if (slot.restarts.length >= MAX_RESTARTS_IN_WINDOW) {
      slot.dead = true;
      log.error(
        `worker ${slot.group}#${slot.index} crashed ${MAX_RESTARTS_IN_WINDOW} times in a minute; not restarting it`,
      );
    } else {
      slot.restarts.push(now);
    }
    for (const address of survivors) {
      const record = this.actors.get(address);
      this.actors.delete(address);
      slot.actors.delete(address);
      this.bus.publish('actor.state', {
        address,
        state: 'crashed',
        reason: stuck ? `${stuck}; its worker thread was replaced` : `worker exited with code ${code}`,
      });
      if (record && !slot.dead && record.state !== 'stopping') {
        // Same kind and key, on a fresh thread.
        const again = this.place(record.kind, record.key);
        if ('code' in again) {
          log.error(`could not restart ${address}`, { error: again.message });
        }
      } else {
        record?.stopped?.();
      }
    }
  }

  /**
   * Terminates a worker thread on purpose (a fault drill: `droidbus loadtest --faults worker-kill`).
   * Its actors restart as after a crash, and its in-flight requests fail with `why` and the
   * request's actor and type. Returns the actors it hosted, or null when that thread is not running.
   */
  replaceWorker(group: string, index: number, why: string): string[] | null {
    const slot = this.groups.get(group)?.[index];
    const worker = slot?.worker;
    if (!slot || !worker || this.inline || slot.stuck !== undefined) {
      return null;
    }
    slot.stuck = why;
    log.warn(`terminating worker ${group}#${index} on request`, { actors: [...slot.actors] });
    void worker.terminate();
    return [...slot.actors];
  }

  /**
   * Once a second: a worker holding a request past its deadline plus the grace is pinged; one that
   * has not answered the ping within PING_TIMEOUT_MS is stuck (a handler keeps its thread) and is
   * terminated — its actors restart as after a crash, their in-flight requests fail naming them.
   */
  private watch(): void {
    const now = Date.now();
    for (const slots of this.groups.values()) {
      for (const slot of slots) {
        const worker = slot.worker;
        if (!worker || slot.stuck !== undefined) {
          continue;
        }
        if (slot.probe) {
          if (now - slot.probe.sentAt > PING_TIMEOUT_MS) {
            const { address, type } = slot.probe;
            slot.stuck = `the ${address} actor kept its worker thread busy handling ${type} more than ${this.stuckGraceMs} ms past its deadline`;
            log.error(`worker ${slot.group}#${slot.index} is stuck; terminating it`, {
              actor: address,
              type,
            });
            void worker.terminate();
          }
          continue;
        }
        const inflight = [...slot.inflight.values()];
        if (inflight.some((r) => now > r.deadline + this.stuckGraceMs)) {
          // The thread's holder is not known from here; the oldest request in flight (the map keeps
          // arrival order) is the likeliest, not the late one that noticed it (often a victim).
          const oldest = inflight[0]!;
          const type =
            inflight.length === 1
              ? oldest.type
              : `${oldest.type} (in flight, oldest first: ${inflight.map((r) => r.type).join(', ')})`;
          slot.probe = { id: ++this.pingSeq, sentAt: now, address: oldest.address, type };
          this.post(slot, { t: 'ping', id: slot.probe.id });
        }
      }
    }
  }

  private answer(id: string, error: WireError): void {
    this.bus.settle(id, { ok: false, error });
  }

  private post(slot: Slot, message: ToWorker): void {
    this.ensureWorker(slot).postMessage(message);
  }
}
