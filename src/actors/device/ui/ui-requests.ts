/**
 * The requests an action caused (issue 72): while a network capture routes the device, a UI action's
 * answer names the requests the app made from the moment the action started — asked of the network
 * actor once the screen the action left was read, waiting a little (REQUESTS_WAIT_MS) for the
 * answers still in flight, since a sign-in's response often lands just after its tap.
 */
import type { NetworkEntry } from '../../../bus/messages/network.js';
import type { HandlerContext } from '../../actor.js';
import { sleep } from '../../../util/sleep.js';

/** How long an action's answer waits for requests still without a response. */
const REQUESTS_WAIT_MS = 1_500;
/** Requests named per action at most. */
const MAX_REQUESTS = 10;

export async function requestsSince(
  serial: string,
  since: number,
  ctx: Pick<HandlerContext, 'bus' | 'signal'>,
): Promise<NetworkEntry[]> {
  const deadline = Date.now() + REQUESTS_WAIT_MS;
  for (;;) {
    const r = await ctx.bus
      .request('network.log', { serial, since_ms: since, limit: MAX_REQUESTS }, { signal: ctx.signal })
      .catch(() => null);
    if (r === null) {
      return [];
    }
    const pending = r.requests.some((e) => e.status === null && e.failure === null);
    if (!pending || Date.now() >= deadline) {
      return r.requests.reverse();
    }
    await sleep(100, ctx.signal);
  }
}
