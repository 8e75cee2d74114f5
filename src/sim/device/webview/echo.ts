/**
 * A WebView's accessibility echo: the nodes Chromium publishes under the app's WebView node for
 * UI Automator (and every accessibility service), built here from the real engine's own
 * accessibility tree (CDP `Accessibility.getFullAXTree`) and its layout (`DOMSnapshot`).
 *
 * Evidence: a real capture of a login page in an app's WebView (tests/fixtures/ui/
 * argent-webview-inapp-excerpt.xml, its source in SOURCES.md): the app's WebView node holds a second
 * `android.webkit.WebView` — the root web area, its text the page title, focusable and focused —
 * with headings and paragraphs as `android.widget.TextView`, the form and its labels as
 * `android.view.View`, fields as `android.widget.EditText` (the HTML id as resource-id,
 * `password="true"` for a password input), buttons as `android.widget.Button`, an empty `div` with
 * an id as an empty `TextView`. Class names for the other roles are Chromium's
 * (`ui/accessibility/ax_android_constants`: `android.widget.CheckBox`, `android.widget.RadioButton`,
 * `android.widget.Image`…); links are `android.view.View` (a Chrome capture of the same page in the
 * same project lists its links so). Nodes off the WebView's viewport are left out and the others
 * clipped to it, as UI Automator skips nodes not visible to the user.
 */
import { F, node, type ViewNode } from '../ui/view.js';

/** A node of `Accessibility.getFullAXTree`, the fields read. */
export interface AxNode {
  nodeId: string;
  ignored: boolean;
  role?: { value?: unknown };
  name?: { value?: unknown };
  value?: { value?: unknown };
  properties?: { name: string; value: { value?: unknown } }[];
  childIds?: string[];
  backendDOMNodeId?: number;
}

/** A page's accessibility tree and where each DOM node is (CSS pixels of the document). */
export interface PageAccessibility {
  nodes: AxNode[];
  /** By backend DOM node id: the layout box (x, y, width, height) and the element's id attribute. */
  boxes: ReadonlyMap<number, { box: readonly number[]; id: string; password: boolean }>;
  scrollX: number;
  scrollY: number;
}

/** Where the WebView is: its screen bounds, screen pixels per CSS pixel, its app, its focus. */
export interface EchoPlace {
  bounds: readonly [number, number, number, number];
  dpr: number;
  pkg: string;
  /** The WebView holds the input focus. */
  focused: boolean;
}

const LEAF_CLASSES: Readonly<Record<string, string>> = {
  button: 'android.widget.Button',
  checkbox: 'android.widget.CheckBox',
  radio: 'android.widget.RadioButton',
  switch: 'android.widget.Switch',
  slider: 'android.widget.SeekBar',
  image: 'android.widget.Image',
  img: 'android.widget.Image',
  link: 'android.view.View',
  textbox: 'android.widget.EditText',
  searchbox: 'android.widget.EditText',
};
const TEXT_ROLES = new Set(['StaticText', 'InlineTextBox']);
const CHECKABLE = new Set(['checkbox', 'radio', 'switch']);

function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

function prop(n: AxNode, name: string): unknown {
  return n.properties?.find((p) => p.name === name)?.value.value;
}

type Rect = [number, number, number, number];

/** Builds the echo under the WebView: the root web area and what the page shows; null without a page. */
export function echoTree(a: PageAccessibility, at: EchoPlace): ViewNode | null {
  const byId = new Map(a.nodes.map((n) => [n.nodeId, n]));
  const root = a.nodes.find((n) => str(n.role?.value) === 'RootWebArea');
  if (root === undefined) {
    return null;
  }
  const [wl, wt, wr, wb] = at.bounds;
  const kids = (n: AxNode): AxNode[] =>
    (n.childIds ?? []).map((id) => byId.get(id)).filter((c) => c !== undefined);
  /** The screen rect of a DOM node's box, clipped to the WebView; null when it is off the viewport. */
  const rectOf = (n: AxNode): Rect | null => {
    const b = n.backendDOMNodeId === undefined ? undefined : a.boxes.get(n.backendDOMNodeId);
    if (b === undefined || b.box.length < 4) {
      return null;
    }
    const [x = 0, y = 0, w = 0, h = 0] = b.box;
    const l = Math.round(wl + (x - a.scrollX) * at.dpr);
    const t = Math.round(wt + (y - a.scrollY) * at.dpr);
    const r = Math.round(l + w * at.dpr);
    const bt = Math.round(t + h * at.dpr);
    if (r < wl || l > wr || bt < wt || t > wb) {
      return null;
    }
    return [Math.max(l, wl), Math.max(t, wt), Math.min(r, wr), Math.min(bt, wb)];
  };
  const textOf = (n: AxNode): string =>
    TEXT_ROLES.has(str(n.role?.value))
      ? str(n.name?.value)
      : kids(n)
          .map(textOf)
          .filter((t) => t !== '')
          .join(' ');
  const isTextLeaf = (n: AxNode): boolean => {
    const visible = kids(n).filter((c) => !c.ignored);
    return visible.length > 0 && visible.every((c) => TEXT_ROLES.has(str(c.role?.value)));
  };
  const idOf = (n: AxNode): string =>
    n.backendDOMNodeId === undefined ? '' : (a.boxes.get(n.backendDOMNodeId)?.id ?? '');

  const convert = (n: AxNode): ViewNode[] => {
    if (n.ignored) {
      return kids(n).flatMap(convert);
    }
    const role = str(n.role?.value);
    const rect = rectOf(n);
    const enabled = prop(n, 'disabled') === true ? 0 : F.ENABLED;
    const focused = prop(n, 'focused') === true ? F.FOCUSED : 0;
    const leafClass = LEAF_CLASSES[role];
    if (leafClass !== undefined) {
      if (rect === null) {
        return [];
      }
      const editable = role === 'textbox' || role === 'searchbox';
      const password = editable && (a.boxes.get(n.backendDOMNodeId ?? -1)?.password ?? false);
      const value = str(n.value?.value);
      const checked = prop(n, 'checked');
      const flags =
        enabled |
        focused |
        (role === 'image' || role === 'img' ? 0 : F.CLICKABLE | F.FOCUSABLE) |
        (editable ? F.EDITABLE : 0) |
        (password ? F.PASSWORD : 0) |
        (CHECKABLE.has(role) ? F.CHECKABLE : 0) |
        (checked === 'true' || checked === true ? F.CHECKED : 0);
      return [
        node(leafClass, at.pkg, rect, {
          id: idOf(n),
          // A field shows its value (a password's as dots); an image its name as a description.
          text: editable
            ? password
              ? '•'.repeat(value.length)
              : value
            : leafClass.endsWith('Image')
              ? ''
              : str(n.name?.value) || textOf(n),
          desc: leafClass.endsWith('Image') ? str(n.name?.value) : '',
          flags,
        }),
      ];
    }
    if (TEXT_ROLES.has(role) || isTextLeaf(n) || (kids(n).length === 0 && idOf(n) !== '')) {
      const text = TEXT_ROLES.has(role) ? str(n.name?.value) : textOf(n) || str(n.name?.value);
      if (rect === null || (text === '' && idOf(n) === '')) {
        return [];
      }
      const cls = role === 'LabelText' ? 'android.view.View' : 'android.widget.TextView';
      return [node(cls, at.pkg, rect, { id: idOf(n), text, flags: enabled })];
    }
    const children = kids(n).flatMap(convert);
    if (children.length === 0 || rect === null) {
      return children;
    }
    return [node('android.view.View', at.pkg, rect, { id: idOf(n), flags: enabled | focused, children })];
  };

  const inner = kids(root).flatMap(convert);
  const anyFocused = (ns: ViewNode[]): boolean =>
    ns.some((c) => (c.flags & F.FOCUSED) !== 0 || anyFocused(c.children));
  return node('android.webkit.WebView', at.pkg, at.bounds, {
    text: str(root.name?.value),
    flags: F.ENABLED | F.FOCUSABLE | (at.focused && !anyFocused(inner) ? F.FOCUSED : 0),
    children: inner,
  });
}
