import type { Bus } from './bus.js';
import type { BusClient, RequestOptions } from './client.js';
import { BusError } from './errors.js';
import type { Origin } from './origin.js';
import { REQUESTS } from './registry.js';
import type { EventOf, EventTopic, RequestOf, RequestType, ResponseOf } from './registry.js';

/** A BusClient for code in the same process as the bus (a standalone frontend, the host itself). */
export class LocalBusClient implements BusClient {
  private readonly unsubscribers = new Set<() => void>();
  private readonly open = new Set<string>();
  private closed = false;

  constructor(
    private readonly bus: Bus,
    private readonly origin: Origin,
  ) {}

  request<T extends RequestType>(
    type: T,
    payload: RequestOf<T>,
    options: RequestOptions = {},
  ): Promise<ResponseOf<T>> {
    return new Promise<ResponseOf<T>>((resolve, reject) => {
      if (this.closed) {
        reject(new BusError('UNAVAILABLE', 'this bus client is closed'));
        return;
      }
      if (options.signal?.aborted) {
        reject(new BusError('CANCELLED', 'cancelled before it was sent'));
        return;
      }
      const timeoutMs = options.timeoutMs ?? REQUESTS[type].timeoutMs;
      let onAbort: (() => void) | undefined;
      // The bus may answer inside dispatch (an actor that is stopping is refused at once): the id
      // is not known yet then, and the request was never open.
      const sent: { id?: string } = {};
      let settled = false;
      const done = (): void => {
        settled = true;
        if (sent.id !== undefined) {
          this.open.delete(sent.id);
        }
        if (onAbort) {
          options.signal?.removeEventListener('abort', onAbort);
        }
      };
      sent.id = this.bus.dispatch(
        { type, payload, deadline: Date.now() + timeoutMs, origin: options.origin ?? this.origin },
        {
          resolve: (value) => {
            done();
            resolve(value as ResponseOf<T>);
          },
          reject: (error) => {
            done();
            reject(BusError.fromWire(error));
          },
          ...(options.onProgress ? { progress: options.onProgress } : {}),
        },
      );
      if (settled) {
        return;
      }
      const busId = sent.id;
      this.open.add(busId);
      if (options.signal) {
        onAbort = () => this.bus.cancel(busId, 'cancelled by the client');
        options.signal.addEventListener('abort', onAbort, { once: true });
      }
    });
  }

  on<E extends EventTopic>(topic: E, listener: (payload: EventOf<E>) => void): () => void {
    const off = this.bus.subscribe(topic, listener);
    this.unsubscribers.add(off);
    return () => {
      off();
      this.unsubscribers.delete(off);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const off of this.unsubscribers) {
      off();
    }
    this.unsubscribers.clear();
    for (const id of [...this.open]) {
      this.bus.cancel(id, 'the bus client closed', 'UNAVAILABLE');
    }
  }
}
