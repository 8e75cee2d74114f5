/**
 * Reading a parsed tree: the interactive rows of `list_clickable_elements`, the searches of
 * `find_ui_elements`, and tree-path lookups for `ui_tap_element`, `ui_fill_input` and
 * `find_ui_parent`. Results are plain data.
 */
import type {
  UiBounds,
  UiNode,
  UiPoint,
  UiResult,
  UiTree,
  UiWindowKind,
} from '../../../device/ui-dump/ui-types.js';
import { uiFail } from '../../../device/ui-dump/ui-types.js';
import { clip, looseText, oneLine } from './ui-text.js';

export const DEFAULT_ROWS = 80;
export const MAX_ROWS = 500;
export const DEFAULT_FIND_RESULTS = 20;
export const MAX_FIND_RESULTS = 100;
/** Labels and texts in results are cut to this many characters. */
export const MAX_LABEL_CHARS = 80;
export const MAX_TEXT_CHARS = 200;

export type LabelSource = 'text' | 'content_desc' | 'resource_id' | 'descendant' | 'hint' | 'none';

/** One element as the tools return it. */
export interface UiElement {
  tree_path: string;
  label: string;
  label_source: LabelSource;
  class: string;
  resource_id: string;
  text: string;
  content_desc: string;
  package: string;
  window_kind: UiWindowKind;
  bounds: UiBounds;
  center: UiPoint;
  clickable: boolean;
  long_clickable: boolean;
  checkable: boolean;
  checked: boolean;
  editable: boolean;
  scrollable: boolean;
  enabled: boolean;
  focused: boolean;
  selected: boolean;
  password: boolean;
}

/** A numbered interactive row (the number is what annotated screenshots draw). */
export interface UiRow extends UiElement {
  n: number;
}

export interface UiRowsResult {
  rows: UiRow[];
  /** Interactive elements on screen, shown or not. */
  total: number;
  truncated: boolean;
}

const PATH = /^\d{1,4}(\.\d{1,4}){0,199}$/;

/** A label: one line, escaped, cut. */
function cut(s: string, max: number): string {
  return clip(oneLine(s.trim()), max);
}

/** The part of a resource id after `:id/` (`com.app:id/login` → `login`). */
export function shortResourceId(id: string): string {
  const at = id.indexOf(':id/');
  return at >= 0 ? id.slice(at + 4) : id;
}

/** The class name after the last dot (`android.widget.Button` → `Button`). */
export function shortClass(cls: string): string {
  const at = cls.lastIndexOf('.');
  return at >= 0 ? cls.slice(at + 1) : cls;
}

/** True for nodes an agent can act on: clickable, long-clickable, checkable, editable or scrollable. */
export function isInteractive(n: UiNode): boolean {
  return n.clickable || n.long_clickable || n.checkable || n.editable || n.scrollable;
}

function hasArea(n: UiNode): boolean {
  return n.bounds.right > n.bounds.left && n.bounds.bottom > n.bounds.top;
}

/** The first text or description in a node's subtree (pre-order), for labelling icon containers. */
function descendantLabel(tree: UiTree, n: UiNode): string {
  const stack = [...n.children].reverse();
  let visited = 0;
  while (stack.length > 0 && visited < 200) {
    const id = stack.pop() ?? -1;
    const c = tree.nodes[id];
    visited++;
    if (c === undefined) {
      continue;
    }
    if (c.text.trim() !== '') {
      return c.text;
    }
    if (c.content_desc.trim() !== '') {
      return c.content_desc;
    }
    for (let k = c.children.length - 1; k >= 0; k--) {
      stack.push(c.children[k] ?? -1);
    }
  }
  return '';
}

/**
 * A node's label: its text, else its content description, else its resource id's short name, else
 * (for nodes that are not scroll containers) the first text or description among its descendants,
 * else its input hint.
 */
export function nodeLabel(tree: UiTree, n: UiNode): { label: string; source: LabelSource } {
  // A password field's text is its dots (or, on some builds, its characters): never its name —
  // unless it is the hint an empty field shows.
  if (n.text.trim() !== '' && (!n.password || n.text === n.hint)) {
    return { label: cut(n.text, MAX_LABEL_CHARS), source: 'text' };
  }
  if (n.content_desc.trim() !== '') {
    return { label: cut(n.content_desc, MAX_LABEL_CHARS), source: 'content_desc' };
  }
  if (n.resource_id !== '') {
    return { label: shortResourceId(n.resource_id), source: 'resource_id' };
  }
  if (!n.scrollable) {
    const d = descendantLabel(tree, n);
    if (d !== '') {
      return { label: cut(d, MAX_LABEL_CHARS), source: 'descendant' };
    }
  }
  if (n.hint.trim() !== '') {
    return { label: cut(n.hint, MAX_LABEL_CHARS), source: 'hint' };
  }
  return { label: '', source: 'none' };
}

/** The plain-data summary of one node. */
export function toElement(tree: UiTree, n: UiNode): UiElement {
  const { label, source } = nodeLabel(tree, n);
  return {
    tree_path: n.tree_path,
    label,
    label_source: source,
    class: n.class,
    resource_id: n.resource_id,
    text: n.password ? '' : clip(n.text, MAX_TEXT_CHARS),
    content_desc: clip(n.content_desc, MAX_TEXT_CHARS),
    package: n.package,
    window_kind: tree.windows[n.window]?.kind ?? 'unknown',
    bounds: { ...n.bounds },
    center: { ...n.center },
    clickable: n.clickable,
    long_clickable: n.long_clickable,
    checkable: n.checkable,
    checked: n.checked,
    editable: n.editable,
    scrollable: n.scrollable,
    enabled: n.enabled,
    focused: n.focused,
    selected: n.selected,
    password: n.password,
  };
}

/** Rank of a window kind in row order: the app and system dialogs first, bars last. */
function windowRank(kind: UiWindowKind): number {
  switch (kind) {
    case 'application':
    case 'system':
    case 'accessibility_overlay':
    case 'unknown':
      return 0;
    case 'input_method':
      return 1;
    case 'status_bar':
    case 'navigation_bar':
      return 2;
  }
}

/**
 * The interactive rows of `list_clickable_elements`: every interactive node with an area, in
 * document order, application and system windows first, then the keyboard, then the bars. `limit`
 * defaults to 80 and is clamped to 1–500.
 */
export function interactiveRows(tree: UiTree, limit: number = DEFAULT_ROWS): UiRowsResult {
  const max = Math.min(MAX_ROWS, Math.max(1, Math.floor(Number.isFinite(limit) ? limit : DEFAULT_ROWS)));
  const picked = tree.nodes.filter((n) => isInteractive(n) && hasArea(n));
  const ordered = picked
    .map((n, order) => ({ n, order, rank: windowRank(tree.windows[n.window]?.kind ?? 'unknown') }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .map((x) => x.n);
  const rows = ordered.slice(0, max).map((n, i) => ({ n: i + 1, ...toElement(tree, n) }));
  return { rows, total: picked.length, truncated: picked.length > rows.length };
}

/** The criteria of `find_ui_elements`; every given criterion must hold (AND). */
export interface FindQuery {
  /** Whole text, case-sensitive, ignoring surrounding whitespace. */
  text?: string;
  /** Part of the text, case-insensitive. */
  text_contains?: string;
  /** Full id (`com.app:id/login`) exactly, or the bare name (`login`) against the part after `:id/`. */
  resource_id?: string;
  /** Part of the content description, case-insensitive. */
  content_desc?: string;
  /** Full class name, or the simple name (`Button`), exactly. */
  class_name?: string;
  clickable?: boolean;
  /** Default 20, clamped to 1–100. */
  max_results?: number;
}

export interface FindResult {
  matches: UiElement[];
  total: number;
  truncated: boolean;
}

function lower(s: string): string {
  return s.toLowerCase();
}

/** Searches the tree (see `FindQuery` for the matching rules); matches are in document order. */
export function findElements(tree: UiTree, query: FindQuery): UiResult<FindResult> {
  const strings: Array<[string, string | undefined]> = [
    ['text', query.text],
    ['text_contains', query.text_contains],
    ['resource_id', query.resource_id],
    ['content_desc', query.content_desc],
    ['class_name', query.class_name],
  ];
  for (const [name, v] of strings) {
    if (v !== undefined && v.trim() === '') {
      return uiFail('INVALID_ARGUMENT', `${name} must not be empty`);
    }
  }
  if (strings.every(([, v]) => v === undefined) && query.clickable === undefined) {
    return uiFail(
      'INVALID_ARGUMENT',
      'give at least one of text, text_contains, resource_id, content_desc, class_name, clickable',
    );
  }
  const max = Math.min(MAX_FIND_RESULTS, Math.max(1, Math.floor(query.max_results ?? DEFAULT_FIND_RESULTS)));
  const text = query.text?.trim();
  const looseWhole = text !== undefined ? looseText(text) : undefined;
  const contains = query.text_contains !== undefined ? lower(looseText(query.text_contains)) : undefined;
  const desc = query.content_desc !== undefined ? lower(looseText(query.content_desc)) : undefined;
  const rid = query.resource_id?.trim();
  const ridIsFull = rid !== undefined && rid.includes(':id/');
  const cls = query.class_name?.trim();
  const clsIsFull = cls !== undefined && cls.includes('.');

  const hits: UiNode[] = [];
  for (const n of tree.nodes) {
    if (text !== undefined && n.text.trim() !== text && looseText(n.text) !== looseWhole) {
      continue;
    }
    if (contains !== undefined && !lower(looseText(n.text)).includes(contains)) {
      continue;
    }
    if (desc !== undefined && !lower(looseText(n.content_desc)).includes(desc)) {
      continue;
    }
    if (rid !== undefined) {
      const ok = ridIsFull
        ? n.resource_id === rid
        : n.resource_id === rid || shortResourceId(n.resource_id) === rid;
      if (!ok) {
        continue;
      }
    }
    if (cls !== undefined && (clsIsFull ? n.class !== cls : n.class !== cls && shortClass(n.class) !== cls)) {
      continue;
    }
    if (query.clickable !== undefined && n.clickable !== query.clickable) {
      continue;
    }
    hits.push(n);
  }
  const matches = hits.slice(0, max).map((n) => toElement(tree, n));
  return { ok: true, value: { matches, total: hits.length, truncated: hits.length > matches.length } };
}

/** True when `path` has the shape of a tree path (`0`, `0.1.2`). */
export function isTreePath(path: string): boolean {
  return PATH.test(path);
}

/** The node at a tree path, or null when the path is malformed or names no node. */
export function nodeAt(tree: UiTree, path: string): UiNode | null {
  if (!isTreePath(path)) {
    return null;
  }
  const parts = path.split('.').map(Number);
  const first = parts[0] ?? -1;
  let node = tree.nodes[tree.windows[first]?.root ?? -1];
  for (let k = 1; k < parts.length && node !== undefined; k++) {
    node = tree.nodes[node.children[parts[k] ?? -1] ?? -1];
  }
  return node ?? null;
}

/** The parent of the node at a tree path; null for a window's root node or a path that names nothing. */
export function findParent(tree: UiTree, path: string): UiNode | null {
  const node = nodeAt(tree, path);
  if (node === null || node.parent < 0) {
    return null;
  }
  return tree.nodes[node.parent] ?? null;
}

const BAR = /toolbar|action_?bar|app_?bar|title/i;

/**
 * Home-screen apps by package, with the label each one's manifest gives it: a launcher's screen
 * is named "Home screen", never after its first icon. Other packages whose name says launcher or
 * home are launchers too, named by their package.
 */
const LAUNCHERS: Record<string, string> = {
  'com.google.android.apps.nexuslauncher': 'Pixel Launcher',
  'com.android.launcher3': 'Launcher3',
  'com.android.launcher': 'Launcher',
  'com.sec.android.app.launcher': 'One UI Home',
  'com.miui.home': 'System launcher',
  'com.huawei.android.launcher': 'Huawei Home',
  'com.oppo.launcher': 'System Launcher',
  'com.bbk.launcher2': 'vivo Home',
  'net.oneplus.launcher': 'OnePlus Launcher',
  'com.teslacoilsw.launcher': 'Nova Launcher',
};

function launcherLabel(pkg: string): string | null {
  return LAUNCHERS[pkg] ?? (/launcher|\.home$/i.test(pkg) ? pkg : null);
}

/**
 * The title of a dialog on screen: AOSP's AlertDialog puts it in `android:id/alertTitle`
 * (alert_dialog_title_material.xml), the permission dialog its question in
 * `permission_message` (PermissionController's grant_permissions.xml).
 */
const DIALOG_TITLE =
  /^(?:android:id\/alertTitle|com\.(?:google\.)?android\.permissioncontroller:id\/permission_message)$/;

/**
 * What the screen is, in a few words: a dialog's title when one is up; "Home screen (label)" on a
 * launcher; else the app bar's title (a text in a node whose id names a bar or title); else the app
 * window's topmost text (Compose apps have no ids).
 */
export function titleOf(tree: UiTree): string | null {
  const dialog = tree.nodes.find((n) => DIALOG_TITLE.test(n.resource_id) && n.text.trim() !== '');
  if (dialog !== undefined) {
    return clip(dialog.text.trim(), 80);
  }
  const app = tree.windows.findIndex((w) => w.kind === 'application');
  const launcher = launcherLabel(tree.windows[app]?.package ?? '');
  if (launcher !== null) {
    return `Home screen (${launcher})`;
  }
  const texts = tree.nodes.filter((n) => n.window === app && n.text.trim() !== '' && !n.editable);
  const inBar = (n: UiNode): boolean => {
    for (let at: UiNode | undefined = n; at; at = at.parent >= 0 ? tree.nodes[at.parent] : undefined) {
      if (BAR.test(at.resource_id)) {
        return true;
      }
    }
    return false;
  };
  const title = texts.find(inBar) ?? [...texts].sort((a, b) => a.bounds.top - b.bounds.top)[0];
  return title ? clip(title.text.trim(), 80) : null;
}

/** The focused node: an editable one first (the field text goes to), else any; null when none. */
export function focusedNode(tree: UiTree): UiNode | null {
  return tree.nodes.find((n) => n.focused && n.editable) ?? tree.nodes.find((n) => n.focused) ?? null;
}
