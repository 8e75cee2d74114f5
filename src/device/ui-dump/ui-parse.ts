/**
 * Parses UI Automator dumps into a bounded, flat node tree (`UiTree`). Three shapes are read:
 * the classic `uiautomator dump` (`<hierarchy>` with one root node, the active window), the androidx
 * and uiautomator2 dumps (`<hierarchy>` with one root node per window), and
 * `uiautomator dump --windows` (`<displays><display><window><hierarchy>…`). In every shape each
 * window's root node becomes a top-level entry, so tree paths start with the window's position.
 */
import { sanitizeUiXml } from './ui-xml-sanitize.js';
import { readUiXml, type XmlElement } from './ui-xml-read.js';
import type { UiBounds, UiNode, UiResult, UiTree, UiWindow, UiWindowKind } from './ui-types.js';
import { uiFail } from './ui-types.js';
import { inferWindowKind, kindFromWindowType } from './ui-windows.js';

export const DEFAULT_NODE_LIMIT = 10_000;
export const MAX_NODE_LIMIT = 100_000;

export interface ParseOptions {
  /** Nodes kept at most (default 10,000); the rest are dropped and `truncated` is set. */
  node_limit?: number;
  /**
   * How the reader listed the window roots: `top_first` for the UiAutomator2 server's page source
   * (it lists `UiAutomation.getWindowsOnAllDisplays()`, which AccessibilityWindowManager fills
   * top-most first), `as_given` when the order is not known (androidx dumps put the active window
   * first). `uiautomator dump --windows` names each window's layer, which wins over both.
   */
  window_order?: 'top_first' | 'as_given';
}

const BOUNDS = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/;

/** Reads `[left,top][right,bottom]`; anything else is an empty rectangle at the origin. */
export function parseBounds(value: string): UiBounds {
  const m = BOUNDS.exec(value.trim());
  if (m === null) {
    return { left: 0, top: 0, right: 0, bottom: 0 };
  }
  return { left: Number(m[1]), top: Number(m[2]), right: Number(m[3]), bottom: Number(m[4]) };
}

/**
 * Whether a view class takes text input. UI Automator reports the accessibility class name, which
 * custom and Compose text fields set to `android.widget.EditText`; AppCompat and Material subclasses
 * keep an `…EditText` or `…AutoCompleteTextView` suffix.
 */
export function isEditableClass(cls: string): boolean {
  return (
    /EditText$/.test(cls) ||
    /AutoCompleteTextView$/.test(cls) ||
    cls === 'android.widget.SearchView$SearchAutoComplete'
  );
}

function str(el: XmlElement, name: string): string {
  const v = el[`@_${name}`];
  return typeof v === 'string' ? v : '';
}

function bool(el: XmlElement, name: string): boolean {
  return el[`@_${name}`] === 'true';
}

function optInt(el: XmlElement, name: string): number | null {
  const v = el[`@_${name}`];
  if (typeof v !== 'string' || !/^-?\d+$/.test(v.trim())) {
    return null;
  }
  return Number(v);
}

function optBool(el: XmlElement, name: string): boolean | null {
  const v = el[`@_${name}`];
  return v === 'true' ? true : v === 'false' ? false : null;
}

function children(el: unknown, name: string): XmlElement[] {
  if (el === null || typeof el !== 'object') {
    return [];
  }
  const v = (el as XmlElement)[name];
  if (Array.isArray(v)) {
    return v.filter((x): x is XmlElement => x !== null && typeof x === 'object');
  }
  return v !== null && typeof v === 'object' ? [v as XmlElement] : [];
}

interface RawWindow {
  meta: XmlElement | null;
  displayId: number | null;
  root: XmlElement | null;
  rotation: number | null;
}

/** Lists the windows of a `--windows` dump, each followed by its child windows. */
function collectWindows(windows: XmlElement[], displayId: number | null, into: RawWindow[]): void {
  for (const w of windows) {
    const hierarchy = children(w, 'hierarchy')[0] ?? null;
    const root = hierarchy ? (children(hierarchy, 'node')[0] ?? null) : null;
    into.push({ meta: w, displayId, root, rotation: hierarchy ? optInt(hierarchy, 'rotation') : null });
    collectWindows(children(w, 'window'), displayId, into);
  }
}

class TreeBuilder {
  readonly nodes: UiNode[] = [];
  truncated = false;
  constructor(private readonly limit: number) {}

  add(el: XmlElement, path: string, depth: number, parent: number, window: number): number {
    if (this.nodes.length >= this.limit) {
      this.truncated = true;
      return -1;
    }
    const bounds = parseBounds(str(el, 'bounds'));
    const cls = str(el, 'class');
    const id = this.nodes.length;
    const node: UiNode = {
      tree_path: path,
      depth,
      id,
      parent,
      children: [],
      window,
      index: optInt(el, 'index') ?? 0,
      class: cls,
      resource_id: str(el, 'resource-id'),
      text: str(el, 'text'),
      content_desc: str(el, 'content-desc'),
      hint: str(el, 'hint'),
      package: str(el, 'package'),
      bounds,
      center: {
        x: Math.floor((bounds.left + bounds.right) / 2),
        y: Math.floor((bounds.top + bounds.bottom) / 2),
      },
      checkable: bool(el, 'checkable'),
      checked: bool(el, 'checked'),
      clickable: bool(el, 'clickable'),
      long_clickable: bool(el, 'long-clickable'),
      enabled: bool(el, 'enabled'),
      focusable: bool(el, 'focusable'),
      focused: bool(el, 'focused'),
      scrollable: bool(el, 'scrollable'),
      password: bool(el, 'password'),
      selected: bool(el, 'selected'),
      editable: isEditableClass(cls) || bool(el, 'editable'),
    };
    this.nodes.push(node);
    const kids = children(el, 'node');
    for (let k = 0; k < kids.length; k++) {
      const kid = kids[k];
      if (kid === undefined) {
        continue;
      }
      const childId = this.add(kid, `${path}.${k}`, depth + 1, id, window);
      if (childId < 0) {
        break;
      }
      node.children.push(childId);
    }
    return id;
  }
}

/**
 * Where each kind of window goes in the tree, so an app element's tree path does not depend on what
 * else is on screen: the app's windows first, then what the system shows over it (its dialogs, the
 * shade), the keyboard, and the bars (the keyboard showing, a dialog or a toast coming, or a reader
 * that lists windows in another order leaves `0.…` naming the same view of the app).
 */
const KIND_RANK: Readonly<Record<UiWindowKind, number>> = {
  application: 0,
  system: 1,
  accessibility_overlay: 2,
  input_method: 3,
  navigation_bar: 4,
  status_bar: 5,
  unknown: 6,
};

/** A window's kind: its type when the dump names it, else inferred from its root view. */
function windowKind(
  pkg: string,
  rootClass: string,
  type: string | null,
  bounds: UiBounds,
  screen: UiBounds,
): UiWindowKind {
  const inferred = inferWindowKind(pkg, rootClass, bounds, screen);
  const typed = type !== null ? kindFromWindowType(type) : 'unknown';
  // A typed system window from System UI is still better told apart as a bar when it is one.
  return typed === 'unknown' || (typed === 'system' && inferred !== 'application') ? inferred : typed;
}

/** Sorts the windows by kind, then bottom-most first (the activity before a dialog of its own). */
function orderWindows(raw: RawWindow[], order: 'top_first' | 'as_given'): void {
  if (raw.length < 2) {
    return;
  }
  const bounds = raw.map((r) =>
    parseBounds(r.meta ? str(r.meta, 'bounds') : r.root ? str(r.root, 'bounds') : ''),
  );
  const screen = unionBounds(bounds);
  const keyed = raw.map((r, i) => {
    const kind = windowKind(
      r.root ? str(r.root, 'package') : '',
      r.root ? str(r.root, 'class') : '',
      r.meta ? str(r.meta, 'type') || null : null,
      bounds[i]!,
      screen,
    );
    const layer = r.meta ? optInt(r.meta, 'layer') : null;
    // Height from the bottom: a window's layer, else its place in a top-first list, else none.
    const height = layer ?? (order === 'top_first' ? raw.length - i : 0);
    return { r, i, rank: KIND_RANK[kind], height };
  });
  keyed.sort((a, b) => a.rank - b.rank || a.height - b.height || a.i - b.i);
  keyed.forEach((k, i) => (raw[i] = k.r));
}

function unionBounds(all: UiBounds[]): UiBounds {
  const real = all.filter((b) => b.right > b.left && b.bottom > b.top);
  if (real.length === 0) {
    return { left: 0, top: 0, right: 0, bottom: 0 };
  }
  return {
    left: Math.min(...real.map((b) => b.left)),
    top: Math.min(...real.map((b) => b.top)),
    right: Math.max(...real.map((b) => b.right)),
    bottom: Math.max(...real.map((b) => b.bottom)),
  };
}

/**
 * Parses a dump (raw bytes or text) into a `UiTree`, repairing common malformations first. Fails
 * with `EMPTY_DUMP` when the output holds no hierarchy or a hierarchy without a node (the sanitizer
 * makes anything else well-formed, and ui-xml-read.ts reads it in one pass).
 */
export function parseUiDump(input: Uint8Array | string, options: ParseOptions = {}): UiResult<UiTree> {
  const limit = Math.min(MAX_NODE_LIMIT, Math.max(1, Math.floor(options.node_limit ?? DEFAULT_NODE_LIMIT)));
  const sanitized = sanitizeUiXml(input);
  if (!sanitized.ok) {
    return sanitized;
  }
  const { xml, root, repairs } = sanitized.value;
  const doc = readUiXml(xml);

  const raw: RawWindow[] = [];
  let rotation: number | null = null;
  if (root === 'displays') {
    for (const display of children(children(doc, 'displays')[0] ?? {}, 'display')) {
      collectWindows(children(display, 'window'), optInt(display, 'id'), raw);
    }
    rotation = raw.find((w) => w.rotation !== null)?.rotation ?? null;
  } else {
    const hierarchy = children(doc, 'hierarchy')[0] ?? {};
    rotation = optInt(hierarchy, 'rotation');
    for (const node of children(hierarchy, 'node')) {
      raw.push({ meta: null, displayId: null, root: node, rotation });
    }
  }

  orderWindows(raw, options.window_order ?? 'as_given');
  const builder = new TreeBuilder(limit);
  const roots: number[] = [];
  const rootIds: number[] = [];
  for (let w = 0; w < raw.length; w++) {
    const r = raw[w];
    const id = r?.root && !builder.truncated ? builder.add(r.root, String(w), 0, -1, w) : -1;
    rootIds.push(id);
    if (id >= 0) {
      roots.push(id);
    }
  }
  const nodes = builder.nodes;
  if (nodes.length === 0) {
    // AccessibilityNodeInfoDumper writes `<hierarchy rotation="0" />` when it got no window root: not a
    // screen with nothing on it (even a blank activity has its DecorView), but a read that found no window.
    return uiFail(
      'EMPTY_DUMP',
      'the dump has a hierarchy but not one node: UI Automator found no window to read (the screen is off, or a window was being replaced); wake the device or try again',
    );
  }
  const windowBounds = raw.map((r, w) => {
    const metaBounds = r.meta ? str(r.meta, 'bounds') : '';
    if (metaBounds !== '') {
      return parseBounds(metaBounds);
    }
    const id = rootIds[w] ?? -1;
    return id >= 0 ? (nodes[id]?.bounds ?? parseBounds('')) : parseBounds('');
  });
  const screen = unionBounds(windowBounds);
  const windows: UiWindow[] = raw.map((r, w) => {
    const id = rootIds[w] ?? -1;
    const rootNode = id >= 0 ? nodes[id] : undefined;
    const bounds = windowBounds[w] ?? parseBounds('');
    const pkg = rootNode?.package ?? '';
    const type = r.meta ? str(r.meta, 'type') || null : null;
    return {
      index: w,
      root: id,
      package: pkg,
      bounds,
      kind: windowKind(pkg, rootNode?.class ?? '', type, bounds, screen),
      display_id: r.displayId,
      title: r.meta ? str(r.meta, 'title') : null,
      type,
      layer: r.meta ? optInt(r.meta, 'layer') : null,
      focused: r.meta ? optBool(r.meta, 'focused') : null,
      active: r.meta ? optBool(r.meta, 'active') : null,
    };
  });

  return {
    ok: true,
    value: {
      rotation,
      windows,
      nodes,
      roots,
      node_count: nodes.length,
      node_limit: limit,
      truncated: builder.truncated,
      screen,
      repairs,
    },
  };
}
