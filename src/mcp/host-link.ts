import type { BusClient, RequestOptions } from '../bus/client.js';
import { BusError } from '../bus/errors.js';
import type { EventOf, EventTopic, RequestOf, RequestType, ResponseOf } from '../bus/registry.js';
import type { SocketBusClient } from '../bus/socket-client.js';
import { logger } from '../util/log.js';

const log = logger('host-link');

/** What a call that was in flight when the host went away answers. */
export const HOST_QUIT_MESSAGE =
  'the droidbus host quit before answering; this session now runs standalone with its own devices and logcat streams — call the tool again';

/**
 * An attached session's bus: the socket client to the host, plus what happens when the host goes.
 * The host announces a quit (`host.quitting`) before it fails the requests in flight, and a crash
 * shows as the connection closing; either way `onLost` runs once, before the failed calls answer,
 * so the session's next call already goes to its own actors. Calls that fail because the host
 * went away say so, in words the model can act on.
 */
export class HostLink implements BusClient {
  private lostHow: 'quit' | 'gone' | null = null;
  private readonly offs: (() => void)[] = [];

  constructor(
    private readonly client: SocketBusClient,
    private readonly onLost: (how: 'quit' | 'gone') => void,
    /** What calls answer once the host has gone (what the session does next). */
    private readonly lostMessage: string = HOST_QUIT_MESSAGE,
  ) {
    this.offs.push(client.on('host.quitting', () => this.lose('quit')));
    this.offs.push(client.onDisconnect(() => this.lose('gone')));
  }

  /** Whether the host has gone (quit or crashed). */
  get lost(): boolean {
    return this.lostHow !== null;
  }

  request<T extends RequestType>(
    type: T,
    payload: RequestOf<T>,
    options?: RequestOptions,
  ): Promise<ResponseOf<T>> {
    if (this.lostHow) {
      return Promise.reject(new BusError('UNAVAILABLE', this.lostMessage));
    }
    log.debug('request sent to the host', { type });
    return this.client.request(type, payload, options).catch((err: unknown) => {
      if (err instanceof BusError && err.code === 'UNAVAILABLE' && this.lostHow) {
        // What the host added when it quit cleanly (say, that it cancelled a running build).
        const lead = /^the droidbus host quit before answering\.?\s*/;
        const extra = lead.test(err.message) ? err.message.replace(lead, '') : '';
        throw new BusError(
          'UNAVAILABLE',
          `${this.lostMessage}${extra ? `. ${extra}` : ''}`,
          err.actor,
          err.details,
        );
      }
      throw err;
    });
  }

  on<E extends EventTopic>(topic: E, listener: (payload: EventOf<E>) => void): () => void {
    const off = this.client.on(topic, listener);
    this.offs.push(off);
    return off;
  }

  async close(): Promise<void> {
    for (const off of this.offs.splice(0)) {
      off();
    }
    await this.client.close();
  }

  private lose(how: 'quit' | 'gone'): void {
    if (this.lostHow) {
      return;
    }
    this.lostHow = how;
    log.info(
      how === 'quit' ? 'the droidbus host is quitting' : 'the connection to the droidbus host was lost',
    );
    try {
      this.onLost(how);
    } catch (err) {
      log.error('switching away from the host failed', {
        error: err instanceof Error ? err.stack : String(err),
      });
    }
  }
}
