/**
 * An action as steps (src/store/formats/ui-step.ts): what was done in Maestro's terms, for the debug
 * session and export_test. Elements are named by the selector Maestro would find them with on the
 * capture the action resolved against; a point is kept only where no element was named, with the
 * display it was on; text typed into a password field — or a field no capture showed — is not kept.
 */
import { THEN_WAIT_MS, type InputAction, type UiStep } from '../../../bus/messages/ui.js';
import { escapeRegExp } from '../../../util/escape-regexp.js';
import type { Capture } from './ui-capture.js';
import type { ScreenAfter } from './ui-after.js';
import { screenAnchorOf, selectorFor } from './maestro-select.js';
import { focusedNode, nodeLabel, shortResourceId } from './ui-query.js';
import { displayOf, type UiNode, type UiTree } from '../../../device/ui-dump/ui-types.js';

/** The display's size on a capture, for steps that keep a point. */
function screenOf(tree: UiTree): { width: number; height: number } {
  const d = displayOf(tree);
  return { width: Math.max(1, d.right - d.left), height: Math.max(1, d.bottom - d.top) };
}

/** A tap on an element as a step: Maestro's selector for it, else its centre. */
export function tapStep(tree: UiTree, node: UiNode): UiStep {
  const selector = orNull(() => selectorFor(tree, node));
  return {
    do: 'tap',
    selector,
    point: selector === null ? node.center : null,
    screen: selector === null ? screenOf(tree) : null,
  };
}

/**
 * A selector, or null when none can be made (a pattern past droidbus's limits, from an app's
 * outsized id): a step is a record of the action, and never fails it.
 */
function orNull<T>(make: () => T | null): T | null {
  try {
    return make();
  } catch {
    return null;
  }
}

/** What a field is called, for the variable a password becomes. */
function fieldName(tree: UiTree, node: UiNode): string | null {
  const name = node.resource_id !== '' ? shortResourceId(node.resource_id) : nodeLabel(tree, node).label;
  return name === '' ? null : name.slice(0, 200);
}

/** Text typed into `node` as a step: a password field's text is not kept. */
export function typeStep(tree: UiTree | null, node: UiNode | null, text: string): UiStep {
  // Unless a capture shows the field and it is not a password's, the text is kept out.
  const secret = node === null || node.password;
  return {
    do: 'type',
    text: secret ? null : text,
    secret,
    field: tree !== null && node !== null ? fieldName(tree, node) : null,
  };
}

/**
 * An action's steps completed with what only the screens around it tell: the display a point was on,
 * whether typed text went into a password field (read on the screen after), the `then` text that
 * showed, and one element naming the screen the action left.
 */
export function finishSteps(
  input: InputAction,
  steps: UiStep[],
  left: ScreenAfter,
  before: Capture | null,
  last: Capture | null,
): UiStep[] {
  const after = left.after !== null ? last : null;
  const shown = after ?? before;
  const out = steps.map((step): UiStep => {
    const pointOnly = (step.do === 'tap' && step.selector === null) || step.do === 'swipe';
    if (pointOnly && step.screen === null && shown !== null) {
      return { ...step, screen: screenOf(shown.tree) };
    }
    if (step.do === 'type' && (input.action === 'type' || input.action === 'type_unicode')) {
      return typeStep(after?.tree ?? null, after ? focusedNode(after.tree) : null, input.text);
    }
    return step;
  });
  if (left.then?.satisfied) {
    out.push({
      do: 'wait',
      selector: { text: `.*${escapeRegExp(left.then.text)}.*` },
      timeout_ms: THEN_WAIT_MS,
    });
  }
  const anchor = after !== null ? orNull(() => screenAnchorOf(after.tree)) : null;
  if (anchor !== null) {
    out.push({ do: 'screen', selector: anchor.selector, package: anchor.package });
  }
  return out;
}
