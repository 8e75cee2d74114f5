/**
 * Elements as Maestro selects them, on a droidbus capture — so that a flow droidbus exports finds
 * the element the agent acted on when Maestro runs it, and a flow run by droidbus finds what Maestro
 * would. The rules are maestro-orchestra's `Orchestra.buildFilter` and maestro-client's `Filters`
 * (mobile-dev-inc/maestro v1.39.10, dcd2f206):
 *
 * - only what is on the screen counts: a node less than a tenth of which lies on the display, with
 *   no child that counts, is left out (`ViewHierarchy.from` → `filterOutOfBounds`,
 *   `UiElement.getVisiblePercentage`; a node as large as the screen or larger counts whole);
 * - `text` is a regex (IGNORE_CASE, DOT_MATCHES_ALL, MULTILINE) that must match the whole text, hint
 *   or content description — or equal it — with line breaks also read as spaces (`textMatches`):
 *   the text matches first, then the hints, then the descriptions;
 * - `id` is a regex that must match the whole resource id, or its part after the last `/` (`idMatches`);
 * - each is wrapped in `deepestMatchingElement`: a matching node stands for its last matching child,
 *   recursively; the filters' results are intersected (the first one's order kept);
 * - `enabled`, `checked`, `focused`, `selected` keep the nodes with that state;
 * - `index` picks the n-th match ordered top to bottom, then left to right (`INDEX_COMPARATOR`);
 *   without it the clickable matches come first (`clickableFirst`), and the first is the element.
 *
 * Patterns run on RE2 (re2js), in time linear in the text, within the limits droidbus puts on every
 * pattern a caller writes; a pattern RE2 cannot parse is read as the literal text, as Maestro's
 * `toRegexSafe` does with one Java cannot parse.
 */
import { RE2JS } from 're2js';
import { BusError } from '../../../bus/errors.js';
import type { MaestroSelector } from '../../../bus/messages/ui.js';
import { escapeRegExp } from '../../../util/escape-regexp.js';
import { MAX_PATTERN_LENGTH, MAX_PROGRAM_SIZE } from '../../logcat/user-regex.js';
import { shortResourceId } from './ui-query.js';
import { displayOf, type UiBounds, type UiNode, type UiTree } from '../../../device/ui-dump/ui-types.js';

const FLAGS = RE2JS.CASE_INSENSITIVE | RE2JS.DOTALL | RE2JS.MULTILINE;

type Matcher = (value: string) => boolean;

/** A Maestro pattern as a whole-value test (`Regex.matches`), or its literal when RE2 cannot parse it. */
function maestroPattern(pattern: string, field: string): Matcher {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new BusError(
      'INVALID',
      `the selector's ${field} is ${pattern.length} characters, more than the ${MAX_PATTERN_LENGTH} a pattern may have`,
    );
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, FLAGS);
  } catch {
    re = RE2JS.compile(escapeRegExp(pattern), FLAGS);
  }
  if (re.programSize() > MAX_PROGRAM_SIZE) {
    throw new BusError(
      'INVALID',
      `the selector's ${field} compiles to ${re.programSize()} RE2 instructions, more than the ${MAX_PROGRAM_SIZE} allowed; narrow it`,
    );
  }
  return (value) => re.matches(value) || pattern === value;
}

type Filter = (nodes: readonly UiNode[]) => UiNode[];

function textFilter(pattern: string): Filter {
  const test = maestroPattern(pattern, 'text');
  const matches = (v: string): boolean => v !== '' && (test(v) || test(v.replace(/\n/g, ' ')));
  // Maestro's union: a text that matches ranks before a hint, a hint before a description.
  return (nodes) => [
    ...new Set([
      ...nodes.filter((n) => matches(n.text)),
      ...nodes.filter((n) => matches(n.hint)),
      ...nodes.filter((n) => matches(n.content_desc)),
    ]),
  ];
}

/** `UiElement.getVisiblePercentage`: the share of `b` on a `width` × `height` screen. */
export function visibleShare(b: UiBounds, width: number, height: number): number {
  const w = b.right - b.left;
  const h = b.bottom - b.top;
  if (w === 0 && h === 0) {
    return 0;
  }
  if (b.left <= 0 && b.top <= 0 && b.right >= width && b.bottom >= height) {
    return 1;
  }
  const x = Math.max(0, Math.min(b.right, width) - Math.max(b.left, 0));
  const y = Math.max(0, Math.min(b.bottom, height) - Math.max(b.top, 0));
  return (x * y) / (w * h);
}

/** `filterOutOfBounds`: the nodes Maestro's hierarchy keeps (on screen, or holding one that is). */
function onScreen(tree: UiTree): Set<UiNode> {
  const screen = displayOf(tree);
  const width = screen.right - screen.left;
  const height = screen.bottom - screen.top;
  const kept = new Set<UiNode>();
  // Children come after their parent in document order: walk back so each child is judged first.
  for (let i = tree.nodes.length - 1; i >= 0; i--) {
    const n = tree.nodes[i]!;
    if (visibleShare(n.bounds, width, height) >= 0.1 || n.children.some((c) => kept.has(tree.nodes[c]!))) {
      kept.add(n);
    }
  }
  return kept;
}

function idFilter(pattern: string): Filter {
  const test = maestroPattern(pattern, 'id');
  // Maestro's union: whole-id matches first, then matches of the part after the last `/`.
  return (nodes) => [
    ...new Set([
      ...nodes.filter((n) => n.resource_id !== '' && test(n.resource_id)),
      ...nodes.filter((n) => n.resource_id !== '' && test(shortResourceId(n.resource_id))),
    ]),
  ];
}

/** `Filters.deepestMatchingElement`: each match stands for its last matching child, recursively. */
function deepest(tree: UiTree, kept: Set<UiNode>, filter: Filter): Filter {
  const down = (nodes: readonly UiNode[]): UiNode[] =>
    filter(nodes).map(
      (n) => down(n.children.map((i) => tree.nodes[i]!).filter((c) => kept.has(c))).at(-1) ?? n,
    );
  return down;
}

/** `INDEX_COMPARATOR`: top to bottom, then left to right. */
function byPosition(a: UiNode, b: UiNode): number {
  return a.bounds.top - b.bounds.top || a.bounds.left - b.bounds.left;
}

/** The nodes `selector` selects on `tree`, the one Maestro acts on first. */
export function selectNodes(tree: UiTree, selector: MaestroSelector): UiNode[] {
  const kept = onScreen(tree);
  const nodes = tree.nodes.filter((n) => kept.has(n));
  const filters: Filter[] = [];
  if (selector.text !== undefined) {
    filters.push(deepest(tree, kept, textFilter(selector.text)));
  }
  if (selector.id !== undefined) {
    filters.push(deepest(tree, kept, idFilter(selector.id)));
  }
  for (const state of ['enabled', 'checked', 'focused', 'selected'] as const) {
    const wanted = selector[state];
    if (wanted !== undefined) {
      filters.push((nodes) => nodes.filter((n) => n[state] === wanted));
    }
  }
  let found: UiNode[] = nodes;
  for (const [i, filter] of filters.entries()) {
    const matched = new Set(filter(nodes));
    found = i === 0 ? [...matched] : found.filter((n) => matched.has(n));
  }
  if (selector.index !== undefined) {
    const at = found.slice().sort(byPosition)[selector.index];
    return at === undefined ? [] : [at];
  }
  // A stable sort: clickable first, document order kept within each.
  return found.slice().sort((a, b) => Number(b.clickable) - Number(a.clickable));
}

/** Characters of a long text a selector keeps: its start, then `.*`. */
const SELECTOR_TEXT_CHARS = 100;

/**
 * A value as a pattern that matches exactly it (line breaks as spaces, as Maestro reads them); a
 * long text by its start, so that no selector nears the pattern limits.
 */
function literal(value: string): string {
  const flat = value.replace(/\n/g, ' ');
  return flat.length > SELECTOR_TEXT_CHARS
    ? `${escapeRegExp([...flat].slice(0, SELECTOR_TEXT_CHARS).join(''))}.*`
    : escapeRegExp(flat);
}

/**
 * The simplest selector Maestro would find `node` with on `tree` first: its id, its text, its
 * content description, the two together, then one of them with an index. Null when nothing names it
 * (the step then keeps the point). A password field's text is never used.
 */
export function selectorFor(tree: UiTree, node: UiNode): MaestroSelector | null {
  const id = node.resource_id === '' ? null : literal(shortResourceId(node.resource_id));
  const text = node.text !== '' && !node.password ? literal(node.text) : null;
  const desc = node.content_desc !== '' ? literal(node.content_desc) : null;
  const named: MaestroSelector[] = [];
  if (id !== null) {
    named.push({ id });
  }
  if (text !== null) {
    named.push({ text });
  }
  if (desc !== null) {
    named.push({ text: desc });
  }
  if (id !== null && (text ?? desc) !== null) {
    named.push({ id, text: (text ?? desc)! });
  }
  for (const candidate of named) {
    if (selectNodes(tree, candidate)[0] === node) {
      return candidate;
    }
  }
  for (const candidate of named) {
    const index = positionAmong(tree, candidate, node);
    if (index >= 0) {
      return { ...candidate, index };
    }
  }
  return null;
}

/** The node's place among a selector's matches ordered as `index` orders them; -1 when absent. */
function positionAmong(tree: UiTree, selector: MaestroSelector, node: UiNode): number {
  return selectNodes(tree, selector).sort(byPosition).indexOf(node);
}

/**
 * One element that names the screen, for a flow's closing assertion: the first text of the app's
 * windows (not a field, not a password) that selects itself. Null when the screen shows no text.
 */
export function screenAnchor(tree: UiTree): MaestroSelector | null {
  const app = new Set(
    tree.windows.filter((w) => w.kind === 'application' || w.kind === 'unknown').map((w) => w.index),
  );
  for (const n of tree.nodes) {
    if (!app.has(n.window) || n.editable || n.password) {
      continue;
    }
    const value = n.text.trim();
    if (value.length < 2 || value.length > 80) {
      continue;
    }
    const selector = { text: literal(value) };
    if (selectNodes(tree, selector).length > 0) {
      return selector;
    }
  }
  return null;
}

/** screenAnchor with the package of the element it names (the app in front, or another). */
export function screenAnchorOf(tree: UiTree): { selector: MaestroSelector; package: string } | null {
  const selector = screenAnchor(tree);
  if (selector === null) {
    return null;
  }
  return { selector, package: selectNodes(tree, selector)[0]?.package ?? '' };
}
