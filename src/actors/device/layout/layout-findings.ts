/**
 * What is wrong with a screen under one display configuration (check_layout, issue 74), from its
 * UI Automator tree and its screenshot's pixels (layout-pixels.ts):
 *
 * * `text_cut`: a text element whose glyphs run into its bounds (its view, parent or the screen
 *   clips them).
 * * `overlap`: two interactive elements, neither inside the other, whose bounds intersect by at
 *   least 4 dp each way.
 * * `small_target`: an interactive element under 48 × 48 dp (Android's accessibility guideline;
 *   Accessibility Test Framework's TouchTargetSizeCheck), unless a scrolling parent or the screen
 *   clips it (then its size on screen is not its size).
 * * `missing`: an element (by resource id) the first configuration shows and this one does not.
 * * `low_contrast`: text under WCAG AA's 4.5:1 against its background.
 * * `untranslated`: under another locale, an element (by resource id) says what it said before —
 *   a string the app's translations lack (Android lint's MissingTranslation, seen on screen).
 */
import type { UiNode, UiTree } from '../../../device/ui-dump/ui-types.js';
import { inkAtEdges, textContrast, type Raster } from './layout-pixels.js';

export type FindingKind =
  'text_cut' | 'overlap' | 'small_target' | 'missing' | 'low_contrast' | 'untranslated';

export interface LayoutFinding {
  kind: FindingKind;
  /** The element: its label (text, description or id) and tree path in this configuration's capture. */
  label: string;
  tree_path: string | null;
  resource_id: string | null;
  /** Screen pixels of this configuration (left, top, right, bottom); null for a missing element. */
  bounds: [number, number, number, number] | null;
  detail: string;
}

const MIN_TARGET_DP = 48;
const MIN_OVERLAP_DP = 4;
const AA_NORMAL = 4.5;

function labelOf(n: UiNode): string {
  return n.text || n.content_desc || n.resource_id.replace(/^.*:id\//, '') || n.class.replace(/^.*\./, '');
}

function boundsOf(n: UiNode): [number, number, number, number] {
  return [n.bounds.left, n.bounds.top, n.bounds.right, n.bounds.bottom];
}

function area(n: UiNode): number {
  return Math.max(0, n.bounds.right - n.bounds.left) * Math.max(0, n.bounds.bottom - n.bounds.top);
}

function isAncestor(tree: UiTree, a: UiNode, b: UiNode): boolean {
  for (let p = b.parent; p >= 0; p = tree.nodes[p]!.parent) {
    if (p === a.id) {
      return true;
    }
  }
  return false;
}

/** Whether a scrolling ancestor's edge or the screen's cuts `n` (its bounds there are what shows). */
function isClipped(tree: UiTree, n: UiNode, screen: { width: number; height: number }): boolean {
  const b = n.bounds;
  if (b.left <= 0 || b.top <= 0 || b.right >= screen.width || b.bottom >= screen.height) {
    return true;
  }
  for (let p = n.parent; p >= 0; p = tree.nodes[p]!.parent) {
    const s = tree.nodes[p]!;
    if (
      s.scrollable &&
      (b.top <= s.bounds.top ||
        b.bottom >= s.bounds.bottom ||
        b.left <= s.bounds.left ||
        b.right >= s.bounds.right)
    ) {
      return true;
    }
  }
  return false;
}

/** Whether `n` is an application window's (the bars and the keyboard are the system's to lay out). */
function inApp(tree: UiTree, n: UiNode): boolean {
  const kind = tree.windows[n.window]?.kind;
  return kind === undefined || kind === 'application' || kind === 'unknown';
}

/** The findings of one configuration's capture. */
export function findLayoutProblems(
  tree: UiTree,
  raster: Raster,
  density: number,
  baseline: UiTree | null,
): LayoutFinding[] {
  const screen = { width: raster.width, height: raster.height };
  const nodes = tree.nodes.filter((n) => inApp(tree, n) && area(n) > 0);
  const out: LayoutFinding[] = [];
  const finding = (kind: FindingKind, n: UiNode, detail: string): LayoutFinding => ({
    kind,
    label: labelOf(n),
    tree_path: n.tree_path,
    resource_id: n.resource_id || null,
    bounds: boundsOf(n),
    detail,
  });
  const texts = nodes.filter((n) => n.text.trim() !== '' && !n.editable && !n.password);
  for (const n of texts) {
    const edges = inkAtEdges(raster, boundsOf(n));
    if (edges.length > 0) {
      out.push(finding('text_cut', n, `its text runs into its ${edges.join(' and ')} edge: cut off`));
    }
    const c = textContrast(raster, boundsOf(n));
    if (c !== null && c.ratio < AA_NORMAL) {
      out.push(
        finding(
          'low_contrast',
          n,
          `text ${c.text} on ${c.background}: ${c.ratio}:1, under WCAG AA's 4.5:1 (3:1 only for text of 18 sp, or 14 sp bold)`,
        ),
      );
    }
  }
  const interactive = nodes.filter((n) => (n.clickable || n.long_clickable) && n.enabled);
  const dp = (px: number): number => Math.round((px * 160) / density);
  for (const n of interactive) {
    const w = dp(n.bounds.right - n.bounds.left);
    const h = dp(n.bounds.bottom - n.bounds.top);
    if ((w < MIN_TARGET_DP || h < MIN_TARGET_DP) && !isClipped(tree, n, screen)) {
      out.push(
        finding(
          'small_target',
          n,
          `${w} × ${h} dp: touch targets need ${MIN_TARGET_DP} × ${MIN_TARGET_DP} dp`,
        ),
      );
    }
  }
  for (let i = 0; i < interactive.length; i++) {
    for (let j = i + 1; j < interactive.length; j++) {
      const a = interactive[i]!;
      const b = interactive[j]!;
      const w = Math.min(a.bounds.right, b.bounds.right) - Math.max(a.bounds.left, b.bounds.left);
      const h = Math.min(a.bounds.bottom, b.bounds.bottom) - Math.max(a.bounds.top, b.bounds.top);
      // A sliver (edges touching, a pixel or two) takes no touch away from either.
      if (
        dp(w) >= MIN_OVERLAP_DP &&
        dp(h) >= MIN_OVERLAP_DP &&
        !isAncestor(tree, a, b) &&
        !isAncestor(tree, b, a)
      ) {
        out.push(
          finding('overlap', a, `overlaps "${labelOf(b)}" (${b.tree_path}) by ${dp(w)} × ${dp(h)} dp`),
        );
      }
    }
  }
  if (baseline !== null) {
    out.push(...missingFrom(baseline, tree));
  }
  return out;
}

/** The elements with a resource id of their own in `baseline` that `tree` lacks. */
function missingFrom(baseline: UiTree, tree: UiTree): LayoutFinding[] {
  const ids = (t: UiTree): Map<string, UiNode[]> => {
    const m = new Map<string, UiNode[]>();
    for (const n of t.nodes) {
      if (n.resource_id !== '' && inApp(t, n) && area(n) > 0) {
        m.set(n.resource_id, [...(m.get(n.resource_id) ?? []), n]);
      }
    }
    return m;
  };
  const here = ids(tree);
  return [...ids(baseline)]
    .filter(([id, ns]) => ns.length === 1 && !here.has(id) && !id.startsWith('android:id/'))
    .map(([id, [n]]) => ({
      kind: 'missing' as const,
      label: labelOf(n!),
      tree_path: null,
      resource_id: id,
      bounds: null,
      detail: `shown in the first configuration at ${n!.tree_path}, not in this one (gone, or off screen: scroll)`,
    }));
}

/** Words in `text` (letters, not just numbers or symbols): what a translation would change. */
function hasWords(text: string): boolean {
  return /\p{L}{2,}/u.test(text);
}

/** The elements of `tree`, shown in another locale, whose text is the first configuration's word for word. */
export function untranslated(baseline: UiTree, tree: UiTree, locale: string): LayoutFinding[] {
  const before = new Map<string, string>();
  for (const n of baseline.nodes) {
    if (n.resource_id !== '' && hasWords(n.text) && !n.editable) {
      before.set(n.resource_id, n.text);
    }
  }
  return tree.nodes
    .filter(
      (n) =>
        n.resource_id !== '' && inApp(tree, n) && before.get(n.resource_id) === n.text && hasWords(n.text),
    )
    .map((n) => ({
      kind: 'untranslated' as const,
      label: labelOf(n),
      tree_path: n.tree_path,
      resource_id: n.resource_id,
      bounds: boundsOf(n),
      detail: `says "${n.text}" in ${locale} too: not translated`,
    }));
}
