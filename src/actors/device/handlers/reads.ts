/**
 * The device actor's handlers for the requests a catalogue read answers alone (READ_ANSWERS in
 * src/device/reads.ts): the read on this device, then its parser. A new read tool adds its read
 * there and its request in src/bus/messages; nothing here changes.
 */
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import { READ_ANSWERS, type ReadAnswer } from '../../../device/reads.js';
import type { HandlerContext } from '../../actor.js';
import type { DeviceState } from '../device-state.js';

type Answered = keyof typeof READ_ANSWERS;
type ReadHandler<T extends Answered> = (
  payload: PayloadOf<T>,
  state: DeviceState,
  ctx: HandlerContext,
) => Promise<ResponseOf<T>>;

/** The handler of one answered request. */
function serve<T extends Answered>(answer: ReadAnswer<T>): ReadHandler<T> {
  return (payload, state, ctx) =>
    state.device.answer(answer, payload, { signal: ctx.signal, timeoutMs: 30_000 });
}

// Each entry is typed by its own request (READ_ANSWERS `satisfies` that), so the map is too; the
// actor's handler map checks each against the contract.
export const readHandlers = Object.fromEntries(
  Object.entries(READ_ANSWERS).map(([type, answer]) => [type, serve(answer as ReadAnswer<Answered>)]),
) as { [T in Answered]: ReadHandler<T> };
