/**
 * `compare_ui_state`: what changed between two captures, compactly. Only meaningful nodes take
 * part (those with a text, description or resource id, and interactive ones); the status and
 * navigation bars never do.
 *
 * Nodes are paired in two passes. First nodes with a text, description or resource id by identity
 * (window package, class, resource id, text, description), in document order: a pair whose checked/enabled/focused/selected state differs is
 * `changed`; a pair that only moved (a scroll) is counted in `moved`. Then the remaining nodes by
 * position (class, resource id and tree path): a pair that differs is a node whose text,
 * description or state changed in place (typed text, a counter, a container that got disabled). What is left over `appeared` or `disappeared`.
 *
 * The lists share one budget (`limit`, default 30): changes first, then appearances, keeping up to
 * a third of what is left for disappearances; the counts are always complete.
 */
import { nodeLabel, shortClass, isInteractive, type LabelSource } from './ui-query.js';
import { screenHash } from './ui-screen-hash.js';
import type { UiNode, UiPoint, UiTree } from '../../../device/ui-dump/ui-types.js';
import { clip, oneLine } from './ui-text.js';

export const DEFAULT_COMPARE_LIMIT = 30;
export const MAX_COMPARE_LIMIT = 500;

export interface DiffElement {
  tree_path: string;
  label: string;
  /** Where the label comes from: a `resource_id` label is an id, not text the screen shows. */
  label_source: LabelSource;
  class: string;
  resource_id: string;
  center: UiPoint;
}

export interface DiffChange extends DiffElement {
  before_path: string;
  /** Each changed field with its value before and after (a masked field's lengths, `hidden`). */
  changes: FieldChange[];
}

export interface UiComparison {
  same_screen: boolean;
  before_hash: string;
  after_hash: string;
  summary: string;
  windows: { appeared: string[]; disappeared: string[] };
  counts: { appeared: number; disappeared: number; changed: number; moved: number };
  changed: DiffChange[];
  appeared: DiffElement[];
  disappeared: DiffElement[];
  truncated: boolean;
}

export interface FieldChange {
  field: string;
  before: string;
  after: string;
  /** A password field's text: before and after are its lengths, never its characters. */
  hidden?: true;
}

const STATES = ['checked', 'enabled', 'focused', 'selected'] as const;

function meaningful(tree: UiTree, n: UiNode): boolean {
  const kind = tree.windows[n.window]?.kind;
  if (kind === 'status_bar' || kind === 'navigation_bar') {
    return false;
  }
  return n.text.trim() !== '' || n.content_desc.trim() !== '' || n.resource_id !== '' || isInteractive(n);
}

function pkgOf(tree: UiTree, n: UiNode): string {
  return tree.windows[n.window]?.package ?? n.package;
}

function shown(n: UiNode, value: string): string {
  return n.password ? '••••' : clip(oneLine(value.trim()), 80);
}

function element(tree: UiTree, n: UiNode): DiffElement {
  const { label, source } = nodeLabel(tree, n);
  return {
    tree_path: n.tree_path,
    label,
    label_source: source,
    class: shortClass(n.class),
    resource_id: n.resource_id,
    center: { ...n.center },
  };
}

function fieldChanges(a: UiNode, b: UiNode): FieldChange[] {
  const out: FieldChange[] = [];
  if (a.text !== b.text && (a.password || b.password)) {
    // Android draws a password's characters as dots in the dump: their count is all there is.
    out.push({
      field: 'text',
      before: String([...a.text].length),
      after: String([...b.text].length),
      hidden: true,
    });
  } else if (a.text !== b.text) {
    out.push({ field: 'text', before: shown(a, a.text), after: shown(b, b.text) });
  }
  if (a.content_desc !== b.content_desc) {
    out.push({ field: 'content_desc', before: shown(a, a.content_desc), after: shown(b, b.content_desc) });
  }
  for (const s of STATES) {
    if (a[s] !== b[s]) {
      out.push({ field: s, before: String(a[s]), after: String(b[s]) });
    }
  }
  return out;
}

function windowNames(tree: UiTree): string[] {
  return tree.windows.filter((w) => w.package !== '').map((w) => `${w.package} (${w.kind})`);
}

function multisetMinus(a: string[], b: string[]): string[] {
  const rest = [...b];
  const out: string[] = [];
  for (const x of a) {
    const at = rest.indexOf(x);
    if (at >= 0) {
      rest.splice(at, 1);
    } else {
      out.push(x);
    }
  }
  return out;
}

/** Nodes with nothing of their own to tell them apart (anonymous clickable containers) are paired by position only. */
const named = (n: UiNode): boolean => n.text !== '' || n.content_desc !== '' || n.resource_id !== '';
const identity = (t: UiTree, n: UiNode): string =>
  `${pkgOf(t, n)}\u0001${n.class}\u0001${n.resource_id}\u0001${n.text}\u0001${n.content_desc}`;
const position = (t: UiTree, n: UiNode): string =>
  `${pkgOf(t, n)}\u0001${n.class}\u0001${n.resource_id}\u0001${n.tree_path}`;

function sameBounds(n: UiNode, m: UiNode): boolean {
  const [x, y] = [n.bounds, m.bounds];
  return x.left === y.left && x.top === y.top && x.right === y.right && x.bottom === y.bottom;
}

/** How the nodes of two captures pair up: changed, moved, and those left on either side. */
interface Pairing {
  changed: DiffChange[];
  moved: number;
  appeared: UiNode[];
  disappeared: UiNode[];
}

/** Pairs named nodes by identity (in order), then the rest by position in the tree. */
function pairNodes(before: UiTree, after: UiTree, a: UiNode[], b: UiNode[]): Pairing {
  const queues = new Map<string, UiNode[]>();
  for (const n of b.filter(named)) {
    const k = identity(after, n);
    const q = queues.get(k);
    if (q) {
      q.push(n);
    } else {
      queues.set(k, [n]);
    }
  }
  const changed: DiffChange[] = [];
  let moved = 0;
  const matchedAfter = new Set<number>();
  const pair = (n: UiNode, m: UiNode): boolean => {
    matchedAfter.add(m.id);
    const changes = fieldChanges(n, m);
    if (changes.length > 0) {
      changed.push({ ...element(after, m), before_path: n.tree_path, changes });
    }
    return changes.length > 0;
  };
  const leftBefore: UiNode[] = [];
  for (const n of a) {
    const m = named(n) ? queues.get(identity(before, n))?.shift() : undefined;
    if (m === undefined) {
      leftBefore.push(n);
    } else if (!pair(n, m) && !sameBounds(n, m)) {
      moved++;
    }
  }
  const byPosition = new Map<string, UiNode>();
  for (const n of b) {
    if (!matchedAfter.has(n.id)) {
      byPosition.set(position(after, n), n);
    }
  }
  const disappeared: UiNode[] = [];
  for (const n of leftBefore) {
    const key = position(before, n);
    const m = byPosition.get(key);
    if (m === undefined) {
      disappeared.push(n);
    } else {
      byPosition.delete(key);
      pair(n, m);
    }
  }
  return { changed, moved, appeared: b.filter((n) => !matchedAfter.has(n.id)), disappeared };
}

/** The summary line: same screen or not, the counts, and the windows that came and went. */
function summaryOf(same: boolean, counts: UiComparison['counts'], windows: UiComparison['windows']): string {
  const parts = [
    `${counts.appeared} appeared`,
    `${counts.disappeared} disappeared`,
    `${counts.changed} changed`,
    `${counts.moved} moved`,
  ];
  const windowNote = [
    ...windows.appeared.map((w) => `+${w}`),
    ...windows.disappeared.map((w) => `-${w}`),
  ].join(', ');
  return `${same ? 'same screen' : 'screen changed'}: ${parts.join(', ')}${windowNote ? `; windows ${windowNote}` : ''}`;
}

/** Compares two captures of the same device (see the module comment for the rules). */
export function compareStates(
  before: UiTree,
  after: UiTree,
  limit: number = DEFAULT_COMPARE_LIMIT,
): UiComparison {
  const budget = Math.min(
    MAX_COMPARE_LIMIT,
    Math.max(1, Math.floor(Number.isFinite(limit) ? limit : DEFAULT_COMPARE_LIMIT)),
  );
  const beforeHash = screenHash(before);
  const afterHash = screenHash(after);
  const a = before.nodes.filter((n) => meaningful(before, n));
  const b = after.nodes.filter((n) => meaningful(after, n));
  const { changed, moved, appeared, disappeared } = pairNodes(before, after, a, b);

  const changedOut = changed.slice(0, budget);
  // What is left goes to appearances, keeping up to a third for disappearances when there are any.
  const room = budget - changedOut.length;
  let goneRoom = Math.min(disappeared.length, Math.floor(room / 3));
  const newRoom = Math.min(appeared.length, room - goneRoom);
  goneRoom = Math.min(disappeared.length, room - newRoom);
  const appearedOut = appeared.slice(0, newRoom).map((n) => element(after, n));
  const disappearedOut = disappeared.slice(0, goneRoom).map((n) => element(before, n));

  const beforeWindows = windowNames(before);
  const afterWindows = windowNames(after);
  const windows = {
    appeared: multisetMinus(afterWindows, beforeWindows),
    disappeared: multisetMinus(beforeWindows, afterWindows),
  };
  const counts = {
    appeared: appeared.length,
    disappeared: disappeared.length,
    changed: changed.length,
    moved,
  };
  const same = beforeHash === afterHash;
  return {
    same_screen: same,
    before_hash: beforeHash,
    after_hash: afterHash,
    summary: summaryOf(same, counts, windows),
    windows,
    counts,
    changed: changedOut,
    appeared: appearedOut,
    disappeared: disappearedOut,
    truncated:
      changedOut.length + appearedOut.length + disappearedOut.length <
      counts.changed + counts.appeared + counts.disappeared,
  };
}
