/**
 * Plain-data shapes of a parsed UI Automator capture. Everything here is structured-clone and JSON
 * safe (no classes, Maps or functions): a tree is built in a device actor's worker thread and read
 * in another thread or process.
 */

/** A rectangle in device pixels (the capture's coordinate space, the one `input tap` uses). */
export interface UiBounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface UiPoint {
  x: number;
  y: number;
}

/**
 * One `<node>` of the dump. `tree_path` is the node's position in the dump: the dot-separated child
 * indexes from the root, where the `<hierarchy>` element (or, for `uiautomator dump --windows`, the
 * list of all windows) is the root and is not itself a path element. The first window's root node
 * is `0`, its second child `0.1`. The indexes count the `<node>` elements as dumped, not the `index`
 * attribute (which counts the accessibility children, invisible ones included, and can skip numbers).
 */
export interface UiNode {
  tree_path: string;
  /** 0 for a window's root node. */
  depth: number;
  /** Position of this node in `UiTree.nodes`; -1 parent for a window root. */
  id: number;
  parent: number;
  children: number[];
  /** Index of the window (`UiTree.windows`) this node belongs to. */
  window: number;
  /** The `index` attribute as dumped (the accessibility child index). */
  index: number;
  class: string;
  resource_id: string;
  text: string;
  content_desc: string;
  /** Newer dumps carry the input hint (`hint="…"`); empty when absent. */
  hint: string;
  package: string;
  bounds: UiBounds;
  center: UiPoint;
  checkable: boolean;
  checked: boolean;
  clickable: boolean;
  long_clickable: boolean;
  enabled: boolean;
  focusable: boolean;
  focused: boolean;
  scrollable: boolean;
  password: boolean;
  selected: boolean;
  /** Derived: UI Automator has no editable attribute on older versions (see `isEditableClass`). */
  editable: boolean;
}

export type UiWindowKind =
  | 'application'
  | 'input_method'
  | 'system'
  | 'status_bar'
  | 'navigation_bar'
  | 'accessibility_overlay'
  | 'unknown';

/** A top-level window of the capture. Classic dumps hold one; newer dumps several. */
export interface UiWindow {
  /** Position in `UiTree.windows`, also the first element of its nodes' tree paths. */
  index: number;
  /** `UiTree.nodes` index of the window's root node, -1 when the window has no hierarchy. */
  root: number;
  package: string;
  bounds: UiBounds;
  kind: UiWindowKind;
  /** Only `uiautomator dump --windows` reports these; null otherwise. */
  display_id: number | null;
  title: string | null;
  type: string | null;
  layer: number | null;
  focused: boolean | null;
  active: boolean | null;
}

/** A parsed capture: nodes in document (pre-)order, bounded by `node_limit`. */
export interface UiTree {
  /** The display rotation as dumped (0–3); null when the dump has none. */
  rotation: number | null;
  windows: UiWindow[];
  nodes: UiNode[];
  /** Node indexes of the window root nodes, in window order. */
  roots: number[];
  node_count: number;
  node_limit: number;
  /** True when the dump held more nodes than `node_limit`; the rest were dropped. */
  truncated: boolean;
  /** Smallest rectangle around the captured windows: the captured area, which a dialog's capture makes small. */
  screen: UiBounds;
  /**
   * The display in the capture's rotation (`wm size`, its override applied), set by the device actor
   * after a capture; absent when it could not be read. `displayOf` picks it over the captured area.
   */
  display?: UiBounds | null;
  /** What the sanitizer had to repair before the XML parsed (empty for a clean dump). */
  repairs: string[];
}

/** An error that crosses a thread or process boundary. */
export interface UiError {
  code:
    | 'INVALID_XML'
    | 'EMPTY_DUMP'
    | 'INVALID_ARGUMENT'
    | 'NOT_FOUND'
    | 'NOT_PNG'
    | 'TOO_LARGE'
    | 'IMAGE_FAILED';
  message: string;
}

export type UiResult<T> = { ok: true; value: T } | { ok: false; error: UiError };

/** Builds a failed result. */
export function uiFail<T>(code: UiError['code'], message: string): UiResult<T> {
  return { ok: false, error: { code, message } };
}

/** The screen a capture is on: the display when droidbus read it, else the captured area. */
export function displayOf(tree: Pick<UiTree, 'screen' | 'display'>): UiBounds {
  return tree.display ?? tree.screen;
}
