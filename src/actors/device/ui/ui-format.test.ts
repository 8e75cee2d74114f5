import { treeOf, uiFixtureText } from '../../../device/ui-dump/test-fixtures.js';
import { describe, expect, it } from 'vitest';
import { MAX_HIERARCHY_CHARS, formatHierarchy } from './ui-format.js';
import { detectOverlays } from './ui-overlays.js';
import { nodeAt } from './ui-query.js';
import { screenHash } from './ui-screen-hash.js';

const text = uiFixtureText;

const tree = treeOf;

const launcherXml = text('launcher-pixel.xml');
const facebookXml = text('facebook-multiwindow.xml');
const KEYBOARD =
  '<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.google.android.inputmethod.latin" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,1000][720,1498]"><node index="0" text="" resource-id="" class="android.widget.Button" package="com.google.android.inputmethod.latin" content-desc="q" checkable="false" checked="false" clickable="true" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,1000][72,1100]" /></node>';

describe('formatHierarchy', () => {
  it('renders the launcher as indented rows that each start with a resolvable tree path', () => {
    const t = tree(launcherXml);
    const f = formatHierarchy(t, { tree: true });
    const lines = f.text.split('\n');
    expect(lines[0]).toBe(
      `screen 1080x1794, rotation 0, 25 nodes, hash ${screenHash(t)}; windows: 0 com.google.android.apps.nexuslauncher (application)`,
    );
    expect(f.screen_hash).toBe(screenHash(t));
    // A description equal to the text is not repeated.
    expect(lines).toContain('          0.0.0.0.0.4.0.1 TextView "Chrome" {click,long} @742,1465 202x166');
    expect(lines).toContain(
      '            0.0.0.0.0.4.1.1.0 ImageView desc="Voice search" id=mic_icon {click} @940,1685 142x165',
    );
    for (const row of f.rows) {
      expect(nodeAt(t, row.tree_path)).not.toBeNull();
      const line = lines.find((l) => l.trimStart().startsWith(`${row.tree_path} `));
      expect(line?.startsWith('  '.repeat(row.level) + row.tree_path)).toBe(true);
    }
    // Anonymous wrappers are not shown: 25 nodes, 19 rows.
    expect(f.total_rows).toBe(19);
    expect(f.truncated).toBe(false);
  });

  it('lists the interactive elements first, then the texts, leaving the layout rows out (the default)', () => {
    const t = tree(launcherXml);
    const whole = formatHierarchy(t, { tree: true });
    const f = formatHierarchy(t);
    const interactive = (flags: string[]): boolean =>
      flags.some((x) => ['click', 'long', 'check', 'checked', 'edit', 'scroll'].includes(x));
    const firstText = f.rows.findIndex((r) => !interactive(r.flags));
    expect(firstText).toBeGreaterThan(0);
    expect(f.rows.slice(0, firstText).every((r) => interactive(r.flags))).toBe(true);
    expect(f.rows.slice(firstText).every((r) => !interactive(r.flags))).toBe(true);
    // The same nodes as the tree minus its layout rows (text-less containers), each at its tree level.
    const layout = whole.rows.filter((r) => !f.rows.some((x) => x.tree_path === r.tree_path));
    expect(layout.map((r) => `${r.class} ${r.resource_id}`.trim())).toEqual([
      'FrameLayout',
      'FrameLayout content',
      'FrameLayout launcher',
      'FrameLayout drag_layer',
      'View scrim_view',
      'FrameLayout search_container_workspace',
      'FrameLayout bc_smartspace_view',
      'View page_indicator',
      'ViewGroup hotseat',
    ]);
    expect(f.total_rows).toBe(whole.total_rows - layout.length);
    for (const r of f.rows) {
      expect(whole.rows.find((w) => w.tree_path === r.tree_path)?.level).toBe(r.level);
    }
    const lines = f.text.split('\n');
    expect(lines).toContain('0.0.0.0.0.4.0.1 TextView "Chrome" {click,long} @742,1465 202x166');
    expect(lines.at(-1)).toBe(
      `${layout.length} layout rows not shown (tree: true shows the whole hierarchy)`,
    );
  });

  it('keeps a child one level under its nearest shown ancestor', () => {
    const f = formatHierarchy(tree(launcherXml), { tree: true });
    const level = (p: string): number => f.rows.find((r) => r.tree_path === p)?.level ?? -1;
    // 0.0 (an anonymous LinearLayout) is hidden, so content sits right under the root.
    expect(level('0')).toBe(0);
    expect(level('0.0.0')).toBe(1);
    expect(level('0.0.0.0.0.4.0.1')).toBe(level('0.0.0.0.0.4') + 1);
  });

  it('bounds the rows and says how to see more', () => {
    const f = formatHierarchy(tree(facebookXml), { max_rows: 5, tree: true });
    expect(f.rows).toHaveLength(5);
    expect(f.truncated).toBe(true);
    expect(f.text.split('\n').at(-1)).toBe(
      `… ${f.total_rows - 5} more rows not shown: raise max_rows (up to 500) or search with find_ui_elements`,
    );
    expect(formatHierarchy(tree(facebookXml), { max_rows: 100_000 }).rows.length).toBeLessThanOrEqual(500);
  });

  it('summarises the status and navigation bars unless asked for them', () => {
    const plain = formatHierarchy(tree(facebookXml), { max_rows: 500 });
    expect(plain.text).toContain('window 1 com.android.systemui (navigation_bar): 7 nodes not shown');
    expect(plain.text).toContain('window 2 com.android.systemui (status_bar): 39 nodes not shown');
    expect(plain.text).not.toContain('"2:06"');
    const bars = formatHierarchy(tree(facebookXml), { max_rows: 500, include_bars: true });
    expect(bars.text).toContain('2.2.0.1.0.0.0.0.0 TextView "2:06" desc="2:06 PM" id=clock @71,27 58x54');
  });

  it('keeps the whole text under its size cap on a huge screen', () => {
    const row =
      '<node index="0" text="' +
      'x'.repeat(300) +
      '" resource-id="com.app:id/row" class="android.widget.TextView" package="com.app" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,100]" />';
    const xml = `<hierarchy rotation="0"><node index="0" class="android.widget.FrameLayout" package="com.app" bounds="[0,0][1080,2400]">${row.repeat(2000)}</node></hierarchy>`;
    const f = formatHierarchy(tree(xml), { max_rows: 500, tree: true });
    expect(f.text.length).toBeLessThanOrEqual(MAX_HIERARCHY_CHARS);
    expect(f.truncated).toBe(true);
    expect(f.total_rows).toBe(2001);
  });

  it('leaves what covers the app to the answer around it: no note among the rows (issue 69)', () => {
    const f = formatHierarchy(tree(facebookXml.replace('</hierarchy>', `${KEYBOARD}</hierarchy>`)));
    expect(f.text).not.toMatch(/^note: /m);
    expect(detectOverlays(tree(facebookXml.replace('</hierarchy>', `${KEYBOARD}</hierarchy>`))).note).toBe(
      'the soft keyboard (com.google.android.inputmethod.latin) is open and covers [0,1000][720,1498]',
    );
  });
});

describe('detectOverlays', () => {
  it('finds nothing over the app when only the bars are there', () => {
    expect(detectOverlays(tree(facebookXml))).toEqual({
      keyboard: null,
      system_dialog: null,
      app_package: 'com.facebook.katana',
      note: '',
    });
  });

  it('finds a soft keyboard window by its package', () => {
    const o = detectOverlays(tree(facebookXml.replace('</hierarchy>', `${KEYBOARD}</hierarchy>`)));
    // Listed last, placed after the app's window and before the bars (ui-parse.ts, KIND_RANK).
    expect(o.keyboard).toEqual({
      index: 1,
      package: 'com.google.android.inputmethod.latin',
      kind: 'input_method',
      bounds: { left: 0, top: 1000, right: 720, bottom: 1498 },
    });
    expect(o.app_package).toBe('com.facebook.katana');
  });

  it('finds a system dialog that is the only window of a classic dump', () => {
    // An "isn't responding" dialog is the active window, from the `android` package.
    const anr = launcherXml.replace(
      /package="com\.google\.android\.apps\.nexuslauncher"/g,
      'package="android"',
    );
    const o = detectOverlays(tree(anr));
    expect(o.system_dialog?.package).toBe('android');
    expect(o.app_package).toBeNull();
    expect(o.note).toBe('a system window from android is on screen');
  });
});
