import type net from 'node:net';
import type { Bus } from './bus.js';
import { clientEnvelope } from './envelope.js';
import type { ServerEnvelope } from './envelope.js';
import { LineSplitter, decodeLine, encodeLine } from './ndjson.js';
import type { Origin } from './origin.js';
import { REQUESTS, isEventTopic, isRequestType } from './registry.js';
import { HANDSHAKE_MAX_BYTES, MAX_LINE_BYTES } from './socket-client.js';
import { logger } from '../util/log.js';
import { z } from 'zod';

const log = logger('bus-socket');
/** Envelopes kept while the handshake is decided; a client that pipelines more waits for the reply. */
const MAX_EARLY_LINES = 64;

/** The host's answer to a hello line. */
export interface HandshakeDecision {
  /** The line sent back. */
  reply: Record<string, unknown>;
  accept: boolean;
  /** The origin of requests that name none. */
  origin?: Origin;
  /**
   * Decides the origin of every request of the connection from the one its envelope claims, so
   * a client cannot pass itself off as someone else (an agent as the host's person).
   */
  originFor?: (claimed: Origin) => Origin;
}

export interface ServeConnectionOptions {
  bus: Bus;
  /** Decides the hello line (already JSON-parsed; unvalidated). */
  handshake(hello: unknown): Promise<HandshakeDecision> | HandshakeDecision;
  /** How long the client has to send its hello (default 5 s). */
  handshakeTimeoutMs?: number;
  /** Called once when the connection ends (after its requests were cancelled). */
  onClose?(): void;
}

/**
 * Serves one bus connection: the hello line first, then every envelope the client sends is
 * checked against the contract before it reaches the bus. When the client goes away its requests
 * are cancelled — except those whose type says they survive a disconnect (builds).
 */
export function serveBusConnection(socket: net.Socket, options: ServeConnectionOptions): void {
  new BusConnection(socket, options);
}

type ClientEnvelope = z.infer<typeof clientEnvelope>;

class BusConnection {
  private readonly bus: Bus;
  private readonly splitter = new LineSplitter(HANDSHAKE_MAX_BYTES);
  private readonly inflight = new Map<string, { busId: string; type: string }>();
  private readonly subscriptions = new Map<string, () => void>();
  private phase: 'hello' | 'deciding' | 'open' | 'closed' = 'hello';
  private origin: Origin = { kind: 'cli' };
  private originFor: ((claimed: Origin) => Origin) | undefined;
  /** Envelopes that arrived while the hello was being decided. */
  private readonly early: string[] = [];
  private readonly helloTimer: NodeJS.Timeout;

  constructor(
    private readonly socket: net.Socket,
    private readonly options: ServeConnectionOptions,
  ) {
    this.bus = options.bus;
    this.helloTimer = setTimeout(() => {
      if (this.phase === 'hello') {
        this.send({ accepted: false, reason: 'no handshake line within the time allowed' });
        socket.end();
      }
    }, options.handshakeTimeoutMs ?? 5_000);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err) => log.debug('bus client connection error', { error: err.message }));
    socket.on('close', () => this.onClose());
  }

  private send(envelope: ServerEnvelope | Record<string, unknown>): void {
    if (this.socket.writable) {
      this.socket.write(encodeLine(envelope));
    }
  }

  private refuse(id: string, message: string): void {
    this.send({ kind: 'response', id, ok: false, error: { code: 'INVALID', message } });
  }

  private onData(chunk: Buffer): void {
    let lines: string[];
    try {
      lines = this.splitter.push(chunk);
    } catch (err) {
      if (this.phase === 'hello') {
        this.send({
          accepted: false,
          reason: `the handshake line is longer than ${HANDSHAKE_MAX_BYTES} bytes`,
        });
        this.socket.end();
      } else {
        log.warn('a bus client sent a line that is too long; closing it', { error: (err as Error).message });
        this.socket.destroy();
      }
      return;
    }
    for (const line of lines) {
      if (this.phase === 'hello') {
        void this.onHello(line);
      } else if (this.phase === 'open') {
        this.onEnvelope(line);
      } else if (this.phase === 'deciding' && this.early.length < MAX_EARLY_LINES) {
        this.early.push(line);
      }
    }
  }

  private async onHello(line: string): Promise<void> {
    this.phase = 'deciding';
    clearTimeout(this.helloTimer);
    let hello: unknown;
    try {
      hello = JSON.parse(line);
    } catch {
      this.send({ accepted: false, reason: 'the handshake line is not JSON' });
      this.socket.end();
      return;
    }
    const decision = await this.options.handshake(hello);
    this.send(decision.reply);
    if (!decision.accept) {
      this.socket.end();
      return;
    }
    this.origin = decision.origin ?? this.origin;
    this.originFor = decision.originFor;
    this.phase = 'open';
    this.splitter.setMaxBytes(MAX_LINE_BYTES);
    // A client may pipeline its first envelopes right behind the hello.
    for (const queued of this.early.splice(0)) {
      this.onEnvelope(queued);
    }
  }

  private onEnvelope(line: string): void {
    let raw: unknown;
    try {
      raw = decodeLine(line);
    } catch {
      log.warn('a bus client sent a line that is not JSON; closing it');
      this.socket.destroy();
      return;
    }
    const parsed = clientEnvelope.safeParse(raw);
    if (!parsed.success) {
      const id = (raw as { id?: unknown } | null)?.id;
      if (typeof id === 'string' && id.length <= 100) {
        this.refuse(id, `malformed envelope: ${z.prettifyError(parsed.error)}`);
      }
      return;
    }
    const envelope = parsed.data;
    switch (envelope.kind) {
      case 'request':
        this.onRequest(envelope);
        return;
      case 'cancel': {
        const entry = this.inflight.get(envelope.id);
        if (entry) {
          this.bus.cancel(entry.busId, envelope.reason ?? 'cancelled by the client');
        }
        return;
      }
      case 'subscribe':
        for (const topic of envelope.topics) {
          if (isEventTopic(topic) && !this.subscriptions.has(topic)) {
            this.subscriptions.set(
              topic,
              this.bus.subscribeAny(topic, (payload) => this.send({ kind: 'event', topic, payload })),
            );
          }
        }
        return;
      case 'unsubscribe':
        for (const topic of envelope.topics) {
          this.subscriptions.get(topic)?.();
          this.subscriptions.delete(topic);
        }
        return;
      default: {
        const never: never = envelope;
        log.warn('unknown envelope from a bus client', { envelope: never });
      }
    }
  }

  /** A request checked against the contract, dispatched as the origin the connection may speak for. */
  private onRequest(envelope: Extract<ClientEnvelope, { kind: 'request' }>): void {
    const clientId = envelope.id;
    if (!isRequestType(envelope.type)) {
      this.refuse(clientId, `unknown request type '${envelope.type}'`);
      return;
    }
    const checked = REQUESTS[envelope.type].request.safeParse(envelope.payload);
    if (!checked.success) {
      this.refuse(clientId, `invalid ${envelope.type} payload: ${z.prettifyError(checked.error)}`);
      return;
    }
    const busId = this.bus.dispatch(
      {
        type: envelope.type,
        payload: checked.data,
        deadline: envelope.deadline,
        origin: this.originFor ? this.originFor(envelope.origin) : (envelope.origin ?? this.origin),
      },
      {
        resolve: (value) => {
          this.inflight.delete(clientId);
          this.send({ kind: 'response', id: clientId, ok: true, value });
        },
        reject: (error) => {
          this.inflight.delete(clientId);
          this.send({ kind: 'response', id: clientId, ok: false, error });
        },
        progress: (p) => this.send({ kind: 'progress', id: clientId, ...p }),
      },
    );
    this.inflight.set(clientId, { busId, type: envelope.type });
  }

  private onClose(): void {
    this.phase = 'closed';
    clearTimeout(this.helloTimer);
    for (const off of this.subscriptions.values()) {
      off();
    }
    this.subscriptions.clear();
    for (const { busId, type } of this.inflight.values()) {
      const survives =
        isRequestType(type) && 'survivesDisconnect' in REQUESTS[type] && REQUESTS[type].survivesDisconnect;
      if (!survives) {
        this.bus.cancel(busId, 'the client disconnected');
      }
    }
    this.inflight.clear();
    this.options.onClose?.();
  }
}
