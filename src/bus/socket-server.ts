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
  const { bus } = options;
  const splitter = new LineSplitter(HANDSHAKE_MAX_BYTES);
  const inflight = new Map<string, { busId: string; type: string }>();
  const subscriptions = new Map<string, () => void>();
  let phase: 'hello' | 'deciding' | 'open' | 'closed' = 'hello';
  let origin: Origin = { kind: 'cli' };
  let originFor: ((claimed: Origin) => Origin) | undefined;
  /** Envelopes that arrived while the hello was being decided. */
  const early: string[] = [];

  const send = (envelope: ServerEnvelope | Record<string, unknown>): void => {
    if (socket.writable) {
      socket.write(encodeLine(envelope));
    }
  };
  const helloTimer = setTimeout(() => {
    if (phase === 'hello') {
      send({ accepted: false, reason: 'no handshake line within the time allowed' });
      socket.end();
    }
  }, options.handshakeTimeoutMs ?? 5_000);

  const onHello = async (line: string): Promise<void> => {
    phase = 'deciding';
    clearTimeout(helloTimer);
    let hello: unknown;
    try {
      hello = JSON.parse(line);
    } catch {
      send({ accepted: false, reason: 'the handshake line is not JSON' });
      socket.end();
      return;
    }
    const decision = await options.handshake(hello);
    send(decision.reply);
    if (!decision.accept) {
      socket.end();
      return;
    }
    origin = decision.origin ?? origin;
    originFor = decision.originFor;
    phase = 'open';
    splitter.setMaxBytes(MAX_LINE_BYTES);
    // A client may pipeline its first envelopes right behind the hello.
    for (const queued of early.splice(0)) {
      onEnvelope(queued);
    }
  };

  const onEnvelope = (line: string): void => {
    let raw: unknown;
    try {
      raw = decodeLine(line);
    } catch {
      log.warn('a bus client sent a line that is not JSON; closing it');
      socket.destroy();
      return;
    }
    const parsed = clientEnvelope.safeParse(raw);
    if (!parsed.success) {
      const id = (raw as { id?: unknown } | null)?.id;
      if (typeof id === 'string' && id.length <= 100) {
        send({
          kind: 'response',
          id,
          ok: false,
          error: { code: 'INVALID', message: `malformed envelope: ${z.prettifyError(parsed.error)}` },
        });
      }
      return;
    }
    const envelope = parsed.data;
    switch (envelope.kind) {
      case 'request': {
        const clientId = envelope.id;
        if (!isRequestType(envelope.type)) {
          send({
            kind: 'response',
            id: clientId,
            ok: false,
            error: { code: 'INVALID', message: `unknown request type '${envelope.type}'` },
          });
          return;
        }
        const checked = REQUESTS[envelope.type].request.safeParse(envelope.payload);
        if (!checked.success) {
          send({
            kind: 'response',
            id: clientId,
            ok: false,
            error: {
              code: 'INVALID',
              message: `invalid ${envelope.type} payload: ${z.prettifyError(checked.error)}`,
            },
          });
          return;
        }
        const busId = bus.dispatch(
          {
            type: envelope.type,
            payload: checked.data,
            deadline: envelope.deadline,
            origin: originFor ? originFor(envelope.origin) : (envelope.origin ?? origin),
          },
          {
            resolve: (value) => {
              inflight.delete(clientId);
              send({ kind: 'response', id: clientId, ok: true, value });
            },
            reject: (error) => {
              inflight.delete(clientId);
              send({ kind: 'response', id: clientId, ok: false, error });
            },
            progress: (p) => send({ kind: 'progress', id: clientId, ...p }),
          },
        );
        inflight.set(clientId, { busId, type: envelope.type });
        return;
      }
      case 'cancel': {
        const entry = inflight.get(envelope.id);
        if (entry) {
          bus.cancel(entry.busId, envelope.reason ?? 'cancelled by the client');
        }
        return;
      }
      case 'subscribe':
        for (const topic of envelope.topics) {
          if (isEventTopic(topic) && !subscriptions.has(topic)) {
            subscriptions.set(
              topic,
              bus.subscribeAny(topic, (payload) => send({ kind: 'event', topic, payload })),
            );
          }
        }
        return;
      case 'unsubscribe':
        for (const topic of envelope.topics) {
          subscriptions.get(topic)?.();
          subscriptions.delete(topic);
        }
        return;
      default: {
        const never: never = envelope;
        log.warn('unknown envelope from a bus client', { envelope: never });
      }
    }
  };

  socket.on('data', (chunk: Buffer) => {
    let lines: string[];
    try {
      lines = splitter.push(chunk);
    } catch (err) {
      if (phase === 'hello') {
        send({ accepted: false, reason: `the handshake line is longer than ${HANDSHAKE_MAX_BYTES} bytes` });
        socket.end();
      } else {
        log.warn('a bus client sent a line that is too long; closing it', { error: (err as Error).message });
        socket.destroy();
      }
      return;
    }
    for (const line of lines) {
      if (phase === 'hello') {
        void onHello(line);
      } else if (phase === 'open') {
        onEnvelope(line);
      } else if (phase === 'deciding' && early.length < MAX_EARLY_LINES) {
        early.push(line);
      }
    }
  });
  socket.on('error', (err) => log.debug('bus client connection error', { error: err.message }));
  socket.on('close', () => {
    phase = 'closed';
    clearTimeout(helloTimer);
    for (const off of subscriptions.values()) {
      off();
    }
    subscriptions.clear();
    for (const { busId, type } of inflight.values()) {
      if (!(
        isRequestType(type) &&
        'survivesDisconnect' in REQUESTS[type] &&
        REQUESTS[type].survivesDisconnect
      )) {
        bus.cancel(busId, 'the client disconnected');
      }
    }
    inflight.clear();
    options.onClose?.();
  });
}
