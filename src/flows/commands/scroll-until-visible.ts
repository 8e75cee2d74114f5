/**
 * scrollUntilVisible (YamlScrollUntilVisible, ScrollUntilVisibleCommand,
 * Orchestra.scrollUntilVisible; v1.39.10): look, and while the element is not on screen swipe from
 * the centre against the direction the content goes, until it shows or the timeout (20 s; a negative
 * one falls back to it, as Maestro reads it). `speed`, `visibilityPercentage` and `centerElement`
 * change how Maestro scrolls and what it counts as seen; droidbus does neither, so they are refused.
 */
import { describeSelector, pointOn, StepFailed } from '../flow-device.js';
import { direction, FlowError, millis, only, selectorOf, settleOf, type Direction } from './read.js';
import { command } from './command.js';

/** ScrollUntilVisibleCommand.DEFAULT_TIMEOUT_IN_MILLIS. */
const SCROLL_TIMEOUT_MS = 20_000;

/** The finger's way for each way the content goes (from the centre, 40% of the display). */
const SCROLL_SWIPES: Record<Direction, [string, string]> = {
  down: ['50%,50%', '50%,10%'],
  up: ['50%,50%', '50%,90%'],
  right: ['50%,50%', '10%,50%'],
  left: ['50%,50%', '90%,50%'],
};

export const scrollUntilVisible = command({
  names: ['scrollUntilVisible'],
  read: (_v, map, at) => {
    if (!map || map['element'] === undefined) {
      throw new FlowError(`${at.where}: scrollUntilVisible needs element`);
    }
    only(map, ['element', 'direction', 'timeout', 'waitToSettleTimeoutMs'], at);
    const timeout = map['timeout'];
    return {
      op: 'scroll_until' as const,
      selector: selectorOf(map['element'], at.where),
      direction: direction(map['direction'], 'down', at.where),
      timeoutMs:
        typeof timeout === 'number' && timeout < 0
          ? SCROLL_TIMEOUT_MS
          : millis(timeout, SCROLL_TIMEOUT_MS, at.where, 'timeout'),
      ...settleOf(map, at.where),
    };
  },
  run: async (op, { device }) => {
    const end = Date.now() + op.timeoutMs;
    for (;;) {
      const r = await device.select(op.selector, false, 0);
      if (r.satisfied) {
        break;
      }
      if (Date.now() >= end) {
        throw new StepFailed(
          `no element matches ${describeSelector(op.selector)} after scrolling ${op.direction} for ${op.timeoutMs} ms`,
        );
      }
      const [start, stop] = SCROLL_SWIPES[op.direction];
      const from = pointOn(start, r.display);
      const to = pointOn(stop, r.display);
      await device.input({ action: 'swipe', x1: from.x, y1: from.y, x2: to.x, y2: to.y, duration_ms: 400 });
    }
    await device.settle(op.settleMs);
  },
  writes: ['scroll_until'],
  write: (step) => ({
    scrollUntilVisible: { element: { ...step.selector }, direction: step.direction.toUpperCase() },
  }),
});
