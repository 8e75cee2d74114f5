/**
 * longPressOn (YamlFluentCommand: tapCommand with longPress = true; v1.39.10): tapOn's fields and
 * lookup, the press held where the tap would land — AndroidDriver.longPress is
 * `input swipe x y x y 3000`, a finger held still for 3 s — and, like a tap, pressed once more when
 * the screen did not change.
 */
import { command } from './command.js';
import { performTap, readTap } from './tap-on.js';

/** AndroidDriver.longPress: how long the finger is held. */
const LONG_PRESS_MS = 3000;

export const longPressOn = command({
  names: ['longPressOn'],
  read: (v, map, at) => ({ op: 'long_press' as const, ...readTap(v, map, at) }),
  run: (op, ctx) =>
    performTap(op, ctx, (at) =>
      ctx.device.input({
        action: 'swipe',
        x1: at.x,
        y1: at.y,
        x2: at.x,
        y2: at.y,
        duration_ms: LONG_PRESS_MS,
      }),
    ),
});
