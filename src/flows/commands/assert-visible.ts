/**
 * assertVisible and assertNotVisible (AssertConditionCommand with a visible / notVisible condition;
 * Orchestra.assertConditionCommand; v1.39.10): the element looked for — up to 17 s, 7 s when
 * optional — until it is on screen, or until it is gone. Visible as Maestro counts it: on the
 * display (filterOutOfBounds) and matching the selector as maestro-select.ts matches it.
 */
import type { MaestroSelector } from '../../bus/messages/ui.js';
import { describeSelector, StepFailed } from '../flow-device.js';
import { selectorOf } from './read.js';
import { command, selectorYaml, type RunContext } from './command.js';

export interface AssertOp {
  op: 'assert';
  selector: MaestroSelector;
  visible: boolean;
  /** extendedWaitUntil's own timeout; null: the command's lookup time. */
  timeoutMs: number | null;
}

/** Waits for the element to show (or, not `visible`, to be gone); fails when it does not. */
export async function runAssert(op: AssertOp, { device, lookupMs }: RunContext): Promise<void> {
  const timeout = op.timeoutMs ?? lookupMs;
  if (op.visible) {
    await device.find(op.selector, timeout);
    return;
  }
  const r = await device.select(op.selector, true, timeout);
  if (!r.satisfied) {
    throw new StepFailed(`${describeSelector(op.selector)} is still on screen after ${r.elapsed_ms} ms`);
  }
}

export const assertVisible = command({
  names: ['assertVisible', 'assertNotVisible'],
  read: (v, _map, at): AssertOp => ({
    op: 'assert',
    selector: selectorOf(v, at.where),
    visible: at.name === 'assertVisible',
    timeoutMs: null,
  }),
  run: runAssert,
  writes: ['assert'],
  write: (step) => ({ [step.visible ? 'assertVisible' : 'assertNotVisible']: selectorYaml(step.selector) }),
});
