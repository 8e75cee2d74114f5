/**
 * extendedWaitUntil (YamlExtendedWaitUntil; v1.39.10): assertVisible or assertNotVisible with its own
 * `timeout` (17 s when not given) — one of `visible` and `notVisible`.
 */
import { FlowError, LOOKUP_TIMEOUT_MS, millis, only, selectorOf } from './read.js';
import { command, selectorYaml } from './command.js';
import { runAssert, type AssertOp } from './assert-visible.js';

export const extendedWaitUntil = command({
  names: ['extendedWaitUntil'],
  read: (_v, map, at): AssertOp => {
    if (!map || (map['visible'] === undefined) === (map['notVisible'] === undefined)) {
      throw new FlowError(`${at.where}: extendedWaitUntil takes visible or notVisible (one of them)`);
    }
    only(map, ['visible', 'notVisible', 'timeout'], at);
    const visible = map['visible'] !== undefined;
    return {
      op: 'assert',
      selector: selectorOf(visible ? map['visible'] : map['notVisible'], at.where),
      visible,
      timeoutMs: millis(map['timeout'], LOOKUP_TIMEOUT_MS, at.where, 'timeout'),
    };
  },
  run: runAssert,
  writes: ['wait'],
  write: (step) => ({
    extendedWaitUntil: { visible: selectorYaml(step.selector), timeout: step.timeout_ms },
  }),
});
