/**
 * tapOn (YamlElementSelector read by YamlFluentCommand.tapCommand; TapOnElementCommand,
 * TapOnPointV2Command; Maestro.performTap; v1.39.10): an element found as Maestro finds it, or a
 * point ("x,y" or "x%,y%"), tapped at its centre. `retryTapIfNoChange` (default true): a tap that
 * left the screen as it was is made once more (hierarchyBasedTap: two taps at most);
 * `waitToSettleTimeoutMs` (clamped to 30 s): after each tap, a wait for the screen to hold still.
 * `repeat`, `delay` (a double tap) and `waitUntilVisible: true` are not done here, so they are refused.
 */
import type { MaestroSelector } from '../../bus/messages/ui.js';
import type { Raw, ReadContext } from './read.js';
import { bool, only, pointSpec, selectorOf, settleOf } from './read.js';
import { command, percent, selectorYaml, type RunContext } from './command.js';

/** A tap's own fields, beside its selector's. */
const TAP_FIELDS = ['point', 'waitToSettleTimeoutMs', 'retryTapIfNoChange'] as const;

export interface TapOp {
  selector: MaestroSelector | null;
  point: string | null;
  retryIfNoChange: boolean;
  settleMs?: number;
}

/** A tap's fields as tapCommand reads them (tapOn's and longPressOn's alike). */
export function readTap(v: unknown, map: Raw | null, at: ReadContext): TapOp {
  // waitUntilVisible: false is what droidbus does (true waits and taps again when nothing showed).
  const fields = [...TAP_FIELDS, ...(map?.['waitUntilVisible'] === false ? ['waitUntilVisible'] : [])];
  const point = map && map['point'] !== undefined ? pointSpec(map['point'], at.where, 'point') : null;
  if (point !== null) {
    // A tap at a point takes the tap's own fields only (selectorOf checks them for element taps).
    only(map, fields, at);
  }
  const retry = map ? bool(map['retryTapIfNoChange'], at.where, 'retryTapIfNoChange') : undefined;
  return {
    selector: point === null ? selectorOf(v, at.where, fields) : null,
    point,
    retryIfNoChange: retry ?? true,
    ...settleOf(map, at.where),
  };
}

/**
 * The tap's place found, then `press` there; once more when the screen did not change and the tap
 * retries (Maestro.hierarchyBasedTap, for taps and long presses alike).
 */
export async function performTap(
  op: TapOp,
  { device, lookupMs }: RunContext,
  press: (at: { x: number; y: number }) => Promise<{ after: { changed: boolean } | null }>,
): Promise<void> {
  const at =
    op.selector !== null ? (await device.find(op.selector, lookupMs)).center : await device.point(op.point!);
  const first = await press(at);
  await device.settle(op.settleMs);
  if (op.retryIfNoChange && first.after?.changed === false) {
    await press(at);
    await device.settle(op.settleMs);
  }
}

export const tapOn = command({
  names: ['tapOn'],
  read: (v, map, at) => ({ op: 'tap' as const, ...readTap(v, map, at) }),
  run: (op, ctx) => performTap(op, ctx, (at) => ctx.device.input({ action: 'tap', x: at.x, y: at.y })),
  writes: ['tap'],
  write: (step) => {
    if (step.selector !== null) {
      return { tapOn: selectorYaml(step.selector) };
    }
    if (step.point !== null && step.screen !== null) {
      return {
        tapOn: {
          point: `${percent(step.point.x, step.screen.width)},${percent(step.point.y, step.screen.height)}`,
        },
      };
    }
    return step.point !== null ? { tapOn: { point: `${step.point.x},${step.point.y}` } } : null;
  },
});
