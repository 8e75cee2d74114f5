import net from 'node:net';
import { createNanoEvents } from 'nanoevents';
import type { BusClient, RequestOptions } from './client.js';
import { serverEnvelope } from './envelope.js';
import type { Progress } from './envelope.js';
import { BusError } from './errors.js';
import { LineSplitter, decodeLine, encodeLine } from './ndjson.js';
import type { Origin } from './origin.js';
import { EVENTS, REQUESTS, isEventTopic, isRequestType } from './registry.js';
import type { EventOf, EventTopic, RequestOf, RequestType, ResponseOf } from './registry.js';
import { logger } from '../util/log.js';

const log = logger('bus-socket');

/** The handshake line may be at most this long, each way. */
export const HANDSHAKE_MAX_BYTES = 4 * 1024;
/** Any other line (a screenshot as base64 is the largest). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** How long past a request's deadline the client waits for the host's own TIMEOUT answer. */
const DEADLINE_GRACE_MS = 2_000;

interface Pending {
  type: RequestType;
  resolve(value: unknown): void;
  reject(error: BusError): void;
  onProgress: ((p: Progress) => void) | undefined;
  timer: NodeJS.Timeout;
}

export interface SocketConnectOptions {
  /** The unix socket (or Windows named pipe) path. */
  path: string;
  /** The first line this client sends. */
  hello: Record<string, unknown>;
  /** How long to wait for the connection and the reply line. */
  timeoutMs: number;
  /** Who this client's requests come from, unless a request says otherwise. */
  origin: Origin;
}

/**
 * Opens a bus connection to a host: connects, sends the hello line, and resolves with the host's
 * reply line and a client. The caller reads the reply (accepted or not) and closes the client when
 * it is refused. Rejects when nothing answers in time.
 */
export function connectSocketBus(
  options: SocketConnectOptions,
): Promise<{ reply: unknown; client: SocketBusClient }> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(options.path);
    const splitter = new LineSplitter(HANDSHAKE_MAX_BYTES);
    let settled = false;
    const fail = (err: Error): void => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        reject(err);
      }
    };
    const timer = setTimeout(
      () => fail(new Error(`the droidbus host did not answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the droidbus host closed the connection during the handshake')));
    socket.once('connect', () => socket.write(encodeLine(options.hello)));
    const onData = (chunk: Buffer): void => {
      let lines: string[];
      try {
        lines = splitter.push(chunk);
      } catch (err) {
        fail(err as Error);
        return;
      }
      if (lines.length === 0) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      socket.off('data', onData);
      socket.removeAllListeners('error');
      socket.removeAllListeners('close');
      let reply: unknown;
      try {
        reply = JSON.parse(lines[0]!);
      } catch {
        socket.destroy();
        reject(new Error('the droidbus host sent a handshake reply that is not JSON'));
        return;
      }
      const client = new SocketBusClient(socket, options.origin);
      // Lines that arrived with the reply belong to the client.
      const rest = lines.slice(1);
      client.start(splitter, rest);
      resolve({ reply, client });
    };
    socket.on('data', onData);
  });
}

/** A BusClient whose actors live in another process (the host), reached over its socket. */
export class SocketBusClient implements BusClient {
  private readonly pending = new Map<string, Pending>();
  private readonly events = createNanoEvents<Record<string, (payload: unknown) => void>>();
  private readonly listeners = new Map<string, number>();
  private readonly disconnectListeners = new Set<(reason: string) => void>();
  private seq = 0;
  private closed = false;
  private closeReason = 'the droidbus host closed the connection';

  constructor(
    private readonly socket: net.Socket,
    private readonly origin: Origin,
  ) {}

  /** Takes over the socket after the handshake. */
  start(splitter: LineSplitter, earlyLines: string[]): void {
    splitter.setMaxBytes(MAX_LINE_BYTES);
    earlyLines.forEach((line) => this.onLine(line));
    this.socket.on('data', (chunk: Buffer) => {
      let lines: string[];
      try {
        lines = splitter.push(chunk);
      } catch (err) {
        this.closeReason = `the droidbus host sent a line that was too long (${(err as Error).message})`;
        this.socket.destroy();
        return;
      }
      lines.forEach((line) => this.onLine(line));
    });
    this.socket.on('error', (err) => {
      this.closeReason = `the connection to the droidbus host failed: ${err.message}`;
    });
    this.socket.on('close', () => this.onClose());
  }

  /** Called once when the connection to the host is lost (not when this client closes it). */
  onDisconnect(listener: (reason: string) => void): () => void {
    this.disconnectListeners.add(listener);
    return () => this.disconnectListeners.delete(listener);
  }

  /** True until the connection is lost or closed. */
  get connected(): boolean {
    return !this.closed;
  }

  request<T extends RequestType>(
    type: T,
    payload: RequestOf<T>,
    options: RequestOptions = {},
  ): Promise<ResponseOf<T>> {
    return new Promise<ResponseOf<T>>((resolve, reject) => {
      if (this.closed) {
        reject(new BusError('UNAVAILABLE', this.closeReason));
        return;
      }
      if (options.signal?.aborted) {
        reject(new BusError('CANCELLED', 'cancelled before it was sent'));
        return;
      }
      const id = `c${++this.seq}`;
      const timeoutMs = options.timeoutMs ?? REQUESTS[type].timeoutMs;
      const deadline = Date.now() + timeoutMs;
      let onAbort: (() => void) | undefined;
      const cleanup = (): void => {
        clearTimeout(entry.timer);
        this.pending.delete(id);
        if (onAbort) {
          options.signal?.removeEventListener('abort', onAbort);
        }
      };
      const entry: Pending = {
        type,
        resolve: (value) => {
          cleanup();
          resolve(value as ResponseOf<T>);
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
        onProgress: options.onProgress,
        timer: setTimeout(
          () => entry.reject(new BusError('TIMEOUT', `${type} got no answer from the droidbus host in time`)),
          timeoutMs + DEADLINE_GRACE_MS,
        ),
      };
      this.pending.set(id, entry);
      if (options.signal) {
        onAbort = () => {
          this.send({ kind: 'cancel', id, reason: 'cancelled by the client' });
          entry.reject(new BusError('CANCELLED', 'cancelled by the client'));
        };
        options.signal.addEventListener('abort', onAbort, { once: true });
      }
      this.send({ kind: 'request', id, type, payload, deadline, origin: options.origin ?? this.origin });
    });
  }

  on<E extends EventTopic>(topic: E, listener: (payload: EventOf<E>) => void): () => void {
    const off = this.events.on(topic, listener as (payload: unknown) => void);
    const count = this.listeners.get(topic) ?? 0;
    this.listeners.set(topic, count + 1);
    if (count === 0) {
      this.send({ kind: 'subscribe', topics: [topic] });
    }
    let active = true;
    return () => {
      if (!active) {
        return;
      }
      active = false;
      off();
      const left = (this.listeners.get(topic) ?? 1) - 1;
      this.listeners.set(topic, left);
      if (left === 0) {
        this.send({ kind: 'unsubscribe', topics: [topic] });
      }
    };
  }

  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closeReason = 'this bus client is closed';
    this.disconnectListeners.clear();
    await new Promise<void>((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.end();
      setTimeout(() => {
        this.socket.destroy();
        resolve();
      }, 500).unref();
    });
    this.onClose();
  }

  private send(envelope: Record<string, unknown>): void {
    if (!this.closed && this.socket.writable) {
      this.socket.write(encodeLine(envelope));
    }
  }

  private onLine(line: string): void {
    let parsed;
    try {
      parsed = serverEnvelope.safeParse(decodeLine(line));
    } catch {
      log.warn('the host sent a line that is not JSON; ignored');
      return;
    }
    if (!parsed.success) {
      log.warn('the host sent an envelope that does not fit the contract; ignored');
      return;
    }
    const envelope = parsed.data;
    switch (envelope.kind) {
      case 'response': {
        const entry = this.pending.get(envelope.id);
        if (!entry) {
          return;
        }
        if (!envelope.ok) {
          entry.reject(BusError.fromWire(envelope.error));
          return;
        }
        const checked = REQUESTS[entry.type].response.safeParse(envelope.value);
        if (checked.success) {
          entry.resolve(checked.data);
        } else {
          entry.reject(
            new BusError(
              'INTERNAL',
              `the droidbus host answered ${entry.type} with data that does not fit the contract`,
            ),
          );
        }
        return;
      }
      case 'progress': {
        const { id, kind: _kind, ...progress } = envelope;
        this.pending.get(id)?.onProgress?.(progress);
        return;
      }
      case 'event': {
        if (!isEventTopic(envelope.topic)) {
          return;
        }
        const checked = EVENTS[envelope.topic].payload.safeParse(envelope.payload);
        if (checked.success) {
          this.events.emit(envelope.topic, checked.data);
        }
        return;
      }
      default: {
        const never: never = envelope;
        log.warn('unknown envelope from the host', { envelope: never });
      }
    }
  }

  private onClose(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    for (const entry of [...this.pending.values()]) {
      entry.reject(new BusError('UNAVAILABLE', this.closeReason));
    }
    for (const listener of this.disconnectListeners) {
      try {
        listener(this.closeReason);
      } catch (err) {
        log.warn('a disconnect listener threw', { error: String(err) });
      }
    }
    this.disconnectListeners.clear();
  }
}

export { isRequestType };
