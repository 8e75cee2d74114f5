/**
 * waitForAnimationToEnd (YamlWaitForAnimationToEndCommand; Maestro.ANIMATION_TIMEOUT_MS 15 s): a
 * wait for the screen to hold still. Maestro compares screenshots; droidbus, two equal captures.
 */
import { millis, only } from './read.js';
import { command } from './command.js';

/** Maestro.ANIMATION_TIMEOUT_MS. */
const ANIMATION_TIMEOUT_MS = 15_000;

export const waitForAnimationToEnd = command({
  names: ['waitForAnimationToEnd'],
  read: (_v, map, at) => {
    only(map, ['timeout'], at);
    return {
      op: 'settle' as const,
      timeoutMs: Math.min(30_000, millis(map?.['timeout'], ANIMATION_TIMEOUT_MS, at.where, 'timeout')),
    };
  },
  run: (op, { device }) => device.settle(op.timeoutMs),
});
