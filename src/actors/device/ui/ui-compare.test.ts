import { treeOf, uiFixtureText } from '../../../device/ui-dump/test-fixtures.js';
import { describe, expect, it } from 'vitest';
import { compareStates } from './ui-compare.js';

const text = uiFixtureText;

const tree = treeOf;

const list = text('lingbook-list-cjk.xml');
const editor = text('lingbook-editor-entities.xml');
const spotlight = text('spotlight-rotation1.xml');
const facebook = text('facebook-multiwindow.xml');

describe('compareStates', () => {
  it('reports two captures of the same screen as the same, with nothing changed', () => {
    const c = compareStates(tree(spotlight), tree(spotlight));
    expect(c.same_screen).toBe(true);
    expect(c.counts).toEqual({ appeared: 0, disappeared: 0, changed: 0, moved: 0 });
    expect(c.summary).toBe('same screen: 0 appeared, 0 disappeared, 0 changed, 0 moved');
  });

  it('shows what appeared and disappeared when the app moved from its list to its editor', () => {
    const c = compareStates(tree(list), tree(editor));
    expect(c.same_screen).toBe(false);
    expect(c.before_hash).not.toBe(c.after_hash);
    const appeared = c.appeared.map((e) => e.label);
    expect(appeared.slice(0, 3)).toEqual(['保存', '2', '撤销']);
    expect(c.disappeared.map((e) => e.label)).toEqual(
      expect.arrayContaining(['新建学科', 'TO-DO', '删除', '重命名']),
    );
    // Disappearances keep a third of the budget left after the changes.
    expect(c.disappeared.length).toBe(Math.floor((30 - c.changed.length) / 3));
    // Nodes on both screens (the root layouts, the status bar background) are matched, not listed.
    expect(c.appeared.some((e) => e.resource_id === 'android:id/statusBarBackground')).toBe(false);
    expect(c.counts.appeared + c.counts.disappeared).toBeGreaterThan(40);
    expect(c.appeared.length + c.disappeared.length + c.changed.length).toBe(30);
    expect(c.truncated).toBe(true);
  });

  it('reports a toggled state as a change of that field', () => {
    const after = spotlight.replace(
      'content-desc="Explore" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false"',
      'content-desc="Explore" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="true"',
    );
    const c = compareStates(tree(spotlight), tree(after));
    expect(c.counts).toEqual({ appeared: 0, disappeared: 0, changed: 1, moved: 0 });
    expect(c.changed[0]).toMatchObject({
      label: 'Explore',
      resource_id: 'net.spotlightlabs.spotlight:id/navigation_explore',
      changes: [{ field: 'selected', before: 'false', after: 'true' }],
    });
  });

  it('reports typed text as a text change of the same field, not as a new element', () => {
    const after = editor.replace(
      'text="关键路径算法详解" resource-id="" class="android.widget.EditText"',
      'text="关键路径" resource-id="" class="android.widget.EditText"',
    );
    const c = compareStates(tree(editor), tree(after));
    expect(c.counts).toEqual({ appeared: 0, disappeared: 0, changed: 1, moved: 0 });
    expect(c.changed[0]).toMatchObject({
      tree_path: '0.0.0.0.0.0.0.12.0',
      before_path: '0.0.0.0.0.0.0.12.0',
      changes: [{ field: 'text', before: '关键路径算法详解', after: '关键路径' }],
    });
  });

  it('counts a scroll as moved elements, not as changes', () => {
    // The three article titles and read times move up by 40 px.
    const shifted = spotlight.replace(
      /(resource-id="net\.spotlightlabs\.spotlight:id\/tv(?:Title|ReadTime)"[^>]*?bounds=")\[(\d+),(\d+)\]\[(\d+),(\d+)\]/g,
      (_m, pre: string, l: string, t: string, r: string, b: string) =>
        `${pre}[${l},${Number(t) - 40}][${r},${Number(b) - 40}]`,
    );
    const c = compareStates(tree(spotlight), tree(shifted));
    expect(c.same_screen).toBe(false);
    expect(c.counts).toEqual({ appeared: 0, disappeared: 0, changed: 0, moved: 6 });
  });

  it('ignores the status bar', () => {
    const later = facebook
      .replace('text="2:06"', 'text="2:07"')
      .replace('Battery charging, 90 percent', 'Battery charging, 91 percent');
    const c = compareStates(tree(facebook), tree(later));
    expect(c.same_screen).toBe(true);
    expect(c.counts).toEqual({ appeared: 0, disappeared: 0, changed: 0, moved: 0 });
  });

  it('names windows that appeared', () => {
    const keyboard =
      '<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.google.android.inputmethod.latin" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,1000][720,1498]"><node index="0" text="" resource-id="" class="android.widget.Button" package="com.google.android.inputmethod.latin" content-desc="q" checkable="false" checked="false" clickable="true" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,1000][72,1100]" /></node>';
    const c = compareStates(
      tree(facebook),
      tree(facebook.replace('</hierarchy>', `${keyboard}</hierarchy>`)),
    );
    expect(c.windows).toEqual({
      appeared: ['com.google.android.inputmethod.latin (input_method)'],
      disappeared: [],
    });
    expect(c.appeared.map((e) => e.label)).toEqual(['q']);
    expect(c.summary).toBe(
      'screen changed: 1 appeared, 0 disappeared, 0 changed, 0 moved; windows +com.google.android.inputmethod.latin (input_method)',
    );
  });

  it('shares one budget between the lists, changes first, and keeps the counts complete', () => {
    const c = compareStates(tree(list), tree(editor), 5);
    expect(c.changed.length + c.appeared.length + c.disappeared.length).toBe(5);
    expect(c.changed.length).toBe(Math.min(5, c.counts.changed));
    expect(c.counts.appeared).toBeGreaterThan(5);
  });
});
