/**
 * A form's targets on one capture (issue 50): each field named by its tree path or its label (the
 * hint, resource id, description or shown text a model reads in a listing), and the element to tap
 * after. Every target is resolved and checked before anything is typed, so a form with one wrong
 * field types nothing.
 */
import { BusError } from '../../../bus/errors.js';
import type { Capture } from './ui-capture.js';
import { isTreePath, nodeAt, nodeLabel, shortClass, shortResourceId } from './ui-query.js';
import type { UiNode, UiTree } from '../../../device/ui-dump/ui-types.js';

/** The names a model may call an element by: what listings print for it. */
function namesOf(tree: UiTree, n: UiNode): string[] {
  const names = [nodeLabel(tree, n).label, n.hint, n.content_desc];
  if (n.resource_id !== '') {
    names.push(shortResourceId(n.resource_id), `#${shortResourceId(n.resource_id)}`);
  }
  if (!n.password) {
    names.push(n.text);
  }
  return names.map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
}

function describe(tree: UiTree, n: UiNode): string {
  const { label, source } = nodeLabel(tree, n);
  const name = label === '' ? '' : source === 'resource_id' ? ` #${label}` : ` "${label}"`;
  return `[${n.tree_path}] ${shortClass(n.class)}${name}`;
}

function byLabel(cap: Capture, label: string, candidates: UiNode[], what: string): UiNode | null {
  const wanted = label.trim().toLowerCase();
  const hits = candidates.filter((n) => namesOf(cap.tree, n).includes(wanted));
  if (hits.length > 1) {
    throw new BusError(
      'INVALID',
      `${hits.length} ${what}s are called "${label}" on screen ${cap.hash}: ${hits.map((n) => describe(cap.tree, n)).join(', ')}; name one by its tree_path. Nothing was typed.`,
    );
  }
  return hits[0] ?? null;
}

/** The editable field a form names: by tree path, else by label among the editable fields. */
export function resolveField(cap: Capture, target: string): UiNode {
  const fields = cap.tree.nodes.filter((n) => n.editable);
  const node = isTreePath(target) ? nodeAt(cap.tree, target) : byLabel(cap, target, fields, 'field');
  if (node === null) {
    const known = fields.slice(0, 8).map((n) => describe(cap.tree, n));
    throw new BusError(
      'NOT_FOUND',
      `no ${isTreePath(target) ? `element at tree_path ${target}` : `editable field called "${target}"`} on the current screen (screen_hash ${cap.hash}); ${known.length > 0 ? `its fields: ${known.join(', ')}` : 'it has no editable field'}. Nothing was typed.`,
    );
  }
  if (!node.enabled) {
    throw new BusError('FAILED', `the field ${describe(cap.tree, node)} is disabled; nothing was typed`);
  }
  if (!node.editable) {
    throw new BusError(
      'FAILED',
      `the element ${describe(cap.tree, node)} is not an editable field; nothing was typed. Find the EditText with find_ui_elements (class_name: EditText).`,
    );
  }
  return node;
}

/** The element to tap after the fields: by tree path, else by label, a clickable one first. */
export function resolveSubmit(cap: Capture, target: string): UiNode {
  let node: UiNode | null;
  if (isTreePath(target)) {
    node = nodeAt(cap.tree, target);
  } else {
    const named = cap.tree.nodes.filter((n) => namesOf(cap.tree, n).includes(target.trim().toLowerCase()));
    const clickable = named.filter((n) => n.clickable);
    node = byLabel(cap, target, clickable.length > 0 ? clickable : named, 'element');
  }
  if (node === null) {
    throw new BusError(
      'NOT_FOUND',
      `no element ${isTreePath(target) ? `at tree_path ${target}` : `called "${target}"`} to submit with on the current screen (screen_hash ${cap.hash}); read it with find_ui_elements. Nothing was typed.`,
    );
  }
  if (!node.enabled) {
    throw new BusError(
      'FAILED',
      `the element to submit with, ${describe(cap.tree, node)}, is disabled; nothing was typed`,
    );
  }
  return node;
}

/** How a filled field is named in the answer: shown text quoted, an id as `#id`, a masked field's length only. */
export function filledLine(tree: UiTree, n: UiNode, text: string): string {
  const { label, source } = nodeLabel(tree, n);
  const name =
    label === ''
      ? `[${n.tree_path}] ${shortClass(n.class)}`
      : source === 'resource_id'
        ? `#${label}`
        : `"${label}"`;
  const chars = [...text].length;
  return `${name} (${chars} character${chars === 1 ? '' : 's'}${n.password ? ', hidden' : ''})`;
}
