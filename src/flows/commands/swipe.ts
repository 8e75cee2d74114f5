/**
 * swipe (YamlSwipe: YamlSwipeDirection or YamlCoordinateSwipe; SwipeCommand; v1.39.10): a finger
 * moved across the display, `direction` naming the finger's way (as AndroidDriver.swipe draws it, in
 * percent), or from `start` to `end` ("x,y" or "x%,y%"), over `duration` (400 ms).
 */
import { direction, FlowError, millis, only, pointSpec, settleOf, type Direction } from './read.js';
import { command, percent } from './command.js';

/** SwipeCommand.DEFAULT_DURATION_IN_MILLIS. */
const SWIPE_MS = 400;

/** Swipe directions as Maestro's directional swipe draws them (AndroidDriver.swipe, in percent). */
const SWIPES: Record<Direction, [string, string]> = {
  up: ['50%,50%', '50%,10%'],
  down: ['50%,20%', '50%,90%'],
  right: ['10%,50%', '90%,50%'],
  left: ['90%,50%', '10%,50%'],
};

export const swipe = command({
  names: ['swipe'],
  read: (_v, map, at) => {
    if (!map) {
      throw new FlowError(`${at.where}: swipe takes direction, or start and end`);
    }
    only(map, ['direction', 'start', 'end', 'duration', 'waitToSettleTimeoutMs'], at);
    const durationMs = millis(map['duration'], SWIPE_MS, at.where, 'duration');
    const [start, end] =
      map['direction'] !== undefined
        ? SWIPES[direction(map['direction'], 'up', at.where)]
        : [pointSpec(map['start'], at.where, 'start'), pointSpec(map['end'], at.where, 'end')];
    return { op: 'swipe' as const, start, end, durationMs, ...settleOf(map, at.where) };
  },
  run: async (op, { device }) => {
    const from = await device.point(op.start);
    const to = await device.point(op.end);
    await device.input({
      action: 'swipe',
      x1: from.x,
      y1: from.y,
      x2: to.x,
      y2: to.y,
      duration_ms: op.durationMs,
    });
    await device.settle(op.settleMs);
  },
  writes: ['swipe'],
  write: (step) => {
    const at = (p: { x: number; y: number }) =>
      step.screen === null
        ? `${p.x},${p.y}`
        : `${percent(p.x, step.screen.width)},${percent(p.y, step.screen.height)}`;
    return { swipe: { start: at(step.from), end: at(step.to), duration: step.duration_ms } };
  },
});
