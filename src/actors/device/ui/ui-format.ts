/**
 * The compact rendering of `get_ui_hierarchy`: one row per meaningful node (a text, description or
 * resource id, or something to act on), indented by the number of shown ancestors, so chains of
 * anonymous layout containers collapse. Every row starts with its tree path, which is what
 * `ui_tap_element`, `ui_fill_input` and `find_ui_parent` take. Rows are bounded (default 80, at
 * most 500) and so is the whole text; the status and navigation bars are summarised in one line
 * each unless asked for.
 *
 *     screen 1080x1794, rotation 0, 25 nodes, hash 3f2a…; windows: 0 com.google.android.apps.nexuslauncher (application)
 *     0 FrameLayout @540,897 1080x1794
 *       0.0.0.0.0.1 ScrollView id=workspace {scroll} @540,897 1080x1794
 *         0.0.0.0.0.1.0.0.0.0.0.0 LinearLayout {click} @561,210 968x253
 *           0.0.0.0.0.1.0.0.0.0.0.0.0.0 TextView "Fri, Apr 21" id=clock @561,151 968x57
 */
import { clip, oneLine } from './ui-text.js';
import { isInteractive, shortClass, shortResourceId } from './ui-query.js';
import { screenHash } from './ui-screen-hash.js';
import type { UiBounds, UiNode, UiPoint, UiTree } from '../../../device/ui-dump/ui-types.js';
import { displayOf } from '../../../device/ui-dump/ui-types.js';

export const DEFAULT_HIERARCHY_ROWS = 80;
export const MAX_HIERARCHY_ROWS = 500;
/** Upper bound of the rendered text, whatever the row limit. */
export const MAX_HIERARCHY_CHARS = 64 * 1024;
const MAX_ROW_TEXT = 80;

export interface HierarchyOptions {
  /** Rows shown at most: default 80, clamped to 1–500. */
  max_rows?: number;
  /** Show the nodes of the status and navigation bars too (default false). */
  include_bars?: boolean;
  /**
   * The whole hierarchy, indented (default false): else the elements only — the interactive ones
   * first, then those with a text or description — and the layout rows are left out.
   */
  tree?: boolean;
}

/** The structured form of one shown row. */
export type HierarchyRow = {
  tree_path: string;
  /** Indentation level: how many shown ancestors the row has. */
  level: number;
  window: number;
  class: string;
  text: string;
  content_desc: string;
  resource_id: string;
  hint: string;
  bounds: UiBounds;
  center: UiPoint;
  flags: string[];
};

export interface FormattedHierarchy {
  text: string;
  rows: HierarchyRow[];
  /** Rows there would be without the limits. */
  total_rows: number;
  truncated: boolean;
  screen_hash: string;
}

function cut(s: string): string {
  return clip(oneLine(s.trim()), MAX_ROW_TEXT);
}

function quote(s: string): string {
  return `"${cut(s).replace(/"/g, '\\"')}"`;
}

/** The state words of a node, in a fixed order. */
export function nodeFlags(n: UiNode): string[] {
  const f: string[] = [];
  if (n.clickable) {
    f.push('click');
  }
  if (n.long_clickable) {
    f.push('long');
  }
  if (n.checkable) {
    f.push(n.checked ? 'checked' : 'check');
  }
  if (n.editable) {
    f.push('edit');
  }
  if (n.scrollable) {
    f.push('scroll');
  }
  if (n.focused) {
    f.push('focused');
  }
  if (n.selected) {
    f.push('selected');
  }
  if (n.password) {
    f.push('password');
  }
  if (!n.enabled) {
    f.push('disabled');
  }
  return f;
}

function isShown(n: UiNode): boolean {
  return (
    n.parent < 0 ||
    n.text.trim() !== '' ||
    n.content_desc.trim() !== '' ||
    n.resource_id !== '' ||
    isInteractive(n)
  );
}

/** Classes that only lay out their children (a row of one is left out of the elements view). */
const LAYOUT_CLASS =
  /(?:^|\.)(?:View|ViewGroup|\w*Layout|ScrollView|NestedScrollView|RecyclerView|ListView|ViewPager2?|CardView|Toolbar|ViewStub)$/;

/**
 * A node an agent acts on or reads: interactive, with a text, description or hint, or a view that
 * shows something (an image, a progress bar) rather than laying out its children.
 */
function isElement(n: UiNode): boolean {
  return (
    isInteractive(n) ||
    n.text.trim() !== '' ||
    n.content_desc.trim() !== '' ||
    n.hint.trim() !== '' ||
    !LAYOUT_CLASS.test(n.class)
  );
}

function rowText(r: HierarchyRow, indent: boolean): string {
  const parts = [`${indent ? '  '.repeat(r.level) : ''}${r.tree_path} ${r.class || '?'}`];
  if (r.text !== '') {
    parts.push(quote(r.text));
  }
  if (r.content_desc !== '' && r.content_desc !== r.text) {
    parts.push(`desc=${quote(r.content_desc)}`);
  }
  if (r.resource_id !== '') {
    parts.push(`id=${r.resource_id}`);
  }
  if (r.hint !== '' && r.text === '') {
    parts.push(`hint=${quote(r.hint)}`);
  }
  if (r.flags.length > 0) {
    parts.push(`{${r.flags.join(',')}}`);
  }
  const w = r.bounds.right - r.bounds.left;
  const h = r.bounds.bottom - r.bounds.top;
  parts.push(`@${r.center.x},${r.center.y} ${w}x${h}`);
  return parts.join(' ');
}

/** Renders a capture for `get_ui_hierarchy`: a bounded text and the same rows as data. */
export function formatHierarchy(tree: UiTree, options: HierarchyOptions = {}): FormattedHierarchy {
  const max = Math.min(
    MAX_HIERARCHY_ROWS,
    Math.max(
      1,
      Math.floor(
        Number.isFinite(options.max_rows)
          ? (options.max_rows ?? DEFAULT_HIERARCHY_ROWS)
          : DEFAULT_HIERARCHY_ROWS,
      ),
    ),
  );
  const hash = screenHash(tree);
  const isBar = (w: number): boolean => {
    const k = tree.windows[w]?.kind;
    return k === 'status_bar' || k === 'navigation_bar';
  };
  // Levels in tree order first: a row's level is its count of shown ancestors.
  const levels = new Int32Array(tree.nodes.length);
  const listed: UiNode[] = [];
  const hiddenBars = new Map<number, number>();
  for (const n of tree.nodes) {
    const parentLevel = n.parent >= 0 ? (levels[n.parent] ?? 0) : -1;
    if (!options.include_bars && isBar(n.window)) {
      hiddenBars.set(n.window, (hiddenBars.get(n.window) ?? 0) + 1);
      levels[n.id] = parentLevel;
    } else if (!isShown(n)) {
      levels[n.id] = parentLevel;
    } else {
      levels[n.id] = parentLevel + 1;
      listed.push(n);
    }
  }
  // The elements view lists the interactive elements first, then the texts, each in tree order.
  const shown = options.tree
    ? listed
    : [...listed.filter(isInteractive), ...listed.filter((n) => isElement(n) && !isInteractive(n))];
  const layoutRows = listed.length - shown.length;
  const total = shown.length;
  const rows: HierarchyRow[] = shown.slice(0, max).map((n) => ({
    tree_path: n.tree_path,
    level: levels[n.id] ?? 0,
    window: n.window,
    class: shortClass(n.class),
    text: n.password ? '' : n.text,
    content_desc: n.content_desc,
    resource_id: shortResourceId(n.resource_id),
    hint: n.hint,
    bounds: { ...n.bounds },
    center: { ...n.center },
    flags: nodeFlags(n),
  }));

  const s = displayOf(tree);
  const c = tree.screen;
  const captured =
    tree.display && (c.left !== s.left || c.top !== s.top || c.right !== s.right || c.bottom !== s.bottom)
      ? ` (captured area ${c.right - c.left}x${c.bottom - c.top} at ${c.left},${c.top})`
      : '';
  const windowList = tree.windows.map((w) => `${w.index} ${w.package || '?'} (${w.kind})`).join(', ');
  const lines = [
    `screen ${s.right - s.left}x${s.bottom - s.top}${captured}, rotation ${tree.rotation ?? '?'}, ${tree.node_count} nodes${
      tree.truncated ? ` (cut at ${tree.node_limit})` : ''
    }, hash ${hash}; windows: ${windowList || 'none'}`,
  ];
  // What covers the app (a keyboard, a system dialog) is the answer's to say, once, above these
  // rows (the screen line, or the window manager's note): not again here.
  let chars = lines.reduce((a, l) => a + l.length + 1, 0);
  let shownRows = 0;
  for (const r of rows) {
    const line = rowText(r, options.tree === true);
    // Room is kept for the closing lines (hidden bars, the "more rows" hint).
    if (chars + line.length + 1 > MAX_HIERARCHY_CHARS - 1024) {
      break;
    }
    lines.push(line);
    chars += line.length + 1;
    shownRows++;
  }
  const kept = rows.slice(0, shownRows);
  for (const [w, count] of hiddenBars) {
    const win = tree.windows[w];
    lines.push(`window ${w} ${win?.package ?? '?'} (${win?.kind ?? '?'}): ${count} nodes not shown`);
  }
  const truncated = total > kept.length;
  if (truncated) {
    lines.push(
      `… ${total - kept.length} more rows not shown: raise max_rows (up to ${MAX_HIERARCHY_ROWS}) or search with find_ui_elements`,
    );
  }
  if (layoutRows > 0) {
    lines.push(`${layoutRows} layout rows not shown (tree: true shows the whole hierarchy)`);
  }
  return { text: lines.join('\n'), rows: kept, total_rows: total, truncated, screen_hash: hash };
}
