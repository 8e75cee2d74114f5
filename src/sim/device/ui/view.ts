/**
 * A node of a screen's view tree, with the attributes uiautomator reports.
 *
 * Evidence: frameworks/base/cmds/uiautomator/library/core-
 * src/com/android/uiautomator/core/AccessibilityNodeInfoDumper.java (the attributes a dump's node
 * carries).
 */
export interface ViewNode {
  cls: string;
  pkg: string;
  id: string;
  text: string;
  desc: string;
  /** left, top, right, bottom in screen pixels. */
  bounds: readonly [number, number, number, number];
  flags: number;
  children: ViewNode[];
  /** What a tap on this node does in the simulator (`click:sign_in`, `focus:username`, …). */
  action?: string;
  /**
   * Its text's size in pixels (sp scaled), for a view whose text is laid out in lines and clipped
   * to its bounds (text-layout.ts); screencap sizes the others' text from their height.
   */
  textPx?: number;
  /** With textPx: a line's height in pixels. */
  linePx?: number;
  /** A text colour the app's layout hard-codes (drawn as it is in the dark theme too). */
  textColor?: string;
}

export const F = {
  CHECKABLE: 1,
  CHECKED: 2,
  CLICKABLE: 4,
  ENABLED: 8,
  FOCUSABLE: 16,
  FOCUSED: 32,
  SCROLLABLE: 64,
  LONG_CLICKABLE: 128,
  PASSWORD: 256,
  SELECTED: 512,
  EDITABLE: 1024,
} as const;

/** A node with defaults: enabled, no text, no children. */
export function node(
  cls: string,
  pkg: string,
  bounds: readonly [number, number, number, number],
  extra: Partial<Omit<ViewNode, 'cls' | 'pkg' | 'bounds'>> = {},
): ViewNode {
  return {
    cls,
    pkg,
    id: extra.id ?? '',
    text: extra.text ?? '',
    desc: extra.desc ?? '',
    bounds,
    flags: extra.flags ?? F.ENABLED,
    children: extra.children ?? [],
    action: extra.action,
    ...(extra.textPx !== undefined ? { textPx: extra.textPx, linePx: extra.linePx ?? extra.textPx } : {}),
    ...(extra.textColor !== undefined ? { textColor: extra.textColor } : {}),
  };
}

function contains(n: ViewNode, x: number, y: number): boolean {
  const [l, t, r, b] = n.bounds;
  return x >= l && x < r && y >= t && y < b;
}

/** The deepest node under a point (later siblings are drawn on top), with its ancestors. */
export function hitPath(root: ViewNode, x: number, y: number): ViewNode[] {
  if (!contains(root, x, y)) {
    return [];
  }
  const path = [root];
  let cur = root;
  for (;;) {
    let next: ViewNode | undefined;
    for (let i = cur.children.length - 1; i >= 0; i--) {
      const c = cur.children[i] as ViewNode;
      if (contains(c, x, y)) {
        next = c;
        break;
      }
    }
    if (next === undefined) {
      return path;
    }
    path.push(next);
    cur = next;
  }
}

/** The node a tap at (x, y) lands on: the deepest clickable or editable node under it. */
export function tapTarget(root: ViewNode, x: number, y: number): ViewNode | null {
  const path = hitPath(root, x, y);
  for (let i = path.length - 1; i >= 0; i--) {
    const n = path[i] as ViewNode;
    if ((n.flags & (F.CLICKABLE | F.EDITABLE | F.CHECKABLE)) !== 0 && (n.flags & F.ENABLED) !== 0) {
      return n;
    }
  }
  return null;
}

/** The scrollable node under a point, if any. */
export function scrollTarget(root: ViewNode, x: number, y: number): ViewNode | null {
  const path = hitPath(root, x, y);
  for (let i = path.length - 1; i >= 0; i--) {
    const n = path[i] as ViewNode;
    if ((n.flags & F.SCROLLABLE) !== 0) {
      return n;
    }
  }
  return null;
}

/** Every node, depth first. */
export function* walk(root: ViewNode): Generator<ViewNode> {
  yield root;
  for (const c of root.children) {
    yield* walk(c);
  }
}
