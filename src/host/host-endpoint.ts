import type { ActorEndpoint, Bus } from '../bus/bus.js';
import type { RequestEnvelope } from '../bus/envelope.js';
import { toWireError } from '../bus/errors.js';
import type { Origin } from '../bus/origin.js';
import { REQUESTS, isRequestType } from '../bus/registry.js';
import type { PayloadOf, RequestTypesOf, ResponseOf } from '../bus/registry.js';
import { z } from 'zod';

/** The requests the host process answers itself (`actor: 'host'` in the contract). */
export type HostRequestType = RequestTypesOf<'host'>;

/** The handler of one host request, typed by the contract as actor handlers are. */
export type HostHandler<T extends HostRequestType> = (
  payload: PayloadOf<T>,
  origin: Origin,
) => Promise<ResponseOf<T>> | ResponseOf<T>;

/** Handlers for some of the host's requests (a frontend's or the page's share). */
export type HostHandlers<T extends HostRequestType = HostRequestType> = { [K in T]: HostHandler<K> };

/** Any host handler, as the endpoint dispatches it once the payload is checked. */
type LocalHandler = (payload: unknown, origin: Origin) => Promise<unknown> | unknown;

/**
 * Puts the host's own requests (`host.*`: its session list, its project) on the bus beside the
 * actors. Requests to `address` are answered here, on the host's main thread (they only read and
 * change small in-memory state); everything else goes on to the supervisor's worker threads.
 */
export class HostEndpoint implements ActorEndpoint {
  constructor(
    private readonly bus: Bus,
    private readonly inner: ActorEndpoint,
    private readonly address: string,
    handlers: HostHandlers,
  ) {
    this.handlers = handlers as unknown as Record<string, LocalHandler>;
  }

  private readonly handlers: Record<string, LocalHandler>;

  mailboxCapacity(address: string): number {
    return address === this.address ? 64 : this.inner.mailboxCapacity(address);
  }

  deliver(address: string, envelope: RequestEnvelope): void {
    if (address !== this.address) {
      this.inner.deliver(address, envelope);
      return;
    }
    const handler = this.handlers[envelope.type];
    if (!handler || !isRequestType(envelope.type)) {
      this.bus.settle(envelope.id, {
        ok: false,
        error: { code: 'INVALID', message: `the droidbus host does not answer ${envelope.type}` },
      });
      return;
    }
    const checked = REQUESTS[envelope.type].request.safeParse(envelope.payload);
    if (!checked.success) {
      this.bus.settle(envelope.id, {
        ok: false,
        error: {
          code: 'INVALID',
          message: `invalid ${envelope.type} payload: ${z.prettifyError(checked.error)}`,
        },
      });
      return;
    }
    Promise.resolve()
      .then(() => handler(checked.data, envelope.origin))
      .then(
        (value) => this.bus.settle(envelope.id, { ok: true, value }),
        (err: unknown) => this.bus.settle(envelope.id, { ok: false, error: toWireError(err, this.address) }),
      );
  }

  cancel(address: string, id: string, reason: string, code: 'TIMEOUT' | 'CANCELLED'): void {
    if (address !== this.address) {
      this.inner.cancel(address, id, reason, code);
    }
    // The host's own handlers finish at once; there is nothing to stop.
  }

  forwardEvent(topic: string, payload: unknown): void {
    this.inner.forwardEvent(topic, payload);
  }
}
