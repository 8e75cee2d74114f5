import { treeOf, uiFixture } from '../../../device/ui-dump/test-fixtures.js';
import { describe, expect, it } from 'vitest';
import { findElements, findParent, interactiveRows, nodeAt, titleOf, type FindQuery } from './ui-query.js';
import type { UiTree } from '../../../device/ui-dump/ui-types.js';

const load = (name: string): UiTree => treeOf(uiFixture(name));

const launcher = load('launcher-pixel.xml');
const list = load('lingbook-list-cjk.xml');
const editor = load('lingbook-editor-entities.xml');
const facebook = load('facebook-multiwindow.xml');

function find(tree: UiTree, q: FindQuery): string[] {
  const r = findElements(tree, q);
  if (!r.ok) {
    throw new Error(r.error.message);
  }
  return r.value.matches.map((m) => m.tree_path);
}

describe('interactiveRows', () => {
  it('lists the interactive elements of the launcher home screen with labels, centres and paths', () => {
    const r = interactiveRows(launcher);
    expect(r.total).toBe(7);
    expect(r.truncated).toBe(false);
    expect(r.rows.map((x) => [x.n, x.tree_path, x.label, x.label_source, x.center.x, x.center.y])).toEqual([
      [1, '0.0.0.0.0.1', 'workspace', 'resource_id', 540, 897],
      [2, '0.0.0.0.0.1.0.0.0.0.0', 'smartspace_card_pager', 'resource_id', 561, 210],
      [3, '0.0.0.0.0.1.0.0.0.0.0.0', 'Fri, Apr 21', 'descendant', 561, 210],
      [4, '0.0.0.0.0.4.0.0', 'Messages', 'text', 338, 1465],
      [5, '0.0.0.0.0.4.0.1', 'Chrome', 'text', 742, 1465],
      [6, '0.0.0.0.0.4.1', 'Search', 'content_desc', 539, 1685],
      [7, '0.0.0.0.0.4.1.1.0', 'Voice search', 'content_desc', 940, 1685],
    ]);
    const chrome = r.rows[4];
    expect(chrome).toMatchObject({
      class: 'android.widget.TextView',
      clickable: true,
      long_clickable: true,
      enabled: true,
      window_kind: 'application',
      bounds: { left: 641, top: 1382, right: 843, bottom: 1548 },
    });
  });

  it('labels icon containers from their first texted descendant', () => {
    const rows = interactiveRows(list).rows;
    expect(rows.find((x) => x.label === '新建学科')?.label_source).toBe('descendant');
    expect(rows.filter((x) => x.label === '删除').every((x) => x.label_source === 'descendant')).toBe(true);
  });

  it('flags disabled and editable elements', () => {
    const rows = interactiveRows(editor, 500).rows;
    expect(rows.filter((x) => !x.enabled).map((x) => x.label)).toEqual(['撤销', '重做', '下一页', '发送']);
    expect(rows.filter((x) => x.editable).map((x) => x.tree_path)).toEqual([
      '0.0.0.0.0.0.0.12.0',
      '0.0.0.0.0.0.0.12.1.0',
      '0.0.0.0.0.0.0.14',
    ]);
    expect(rows.find((x) => x.tree_path === '0.0.0.0.0.0.0.14')?.label).toBe('询问 AI 关于当前页的内容…');
  });

  it('cuts long texts in labels', () => {
    const body = interactiveRows(editor, 500).rows.find((x) => x.tree_path === '0.0.0.0.0.0.0.12.1.0');
    expect(body?.label.length).toBe(80);
    expect(body?.label.endsWith('…')).toBe(true);
    expect(body?.label).not.toContain('\n');
  });

  it('bounds the rows: default 80, at least 1, at most 500', () => {
    const all = interactiveRows(editor, 500);
    expect(all.total).toBe(all.rows.length);
    const two = interactiveRows(editor, 2);
    expect(two.rows.map((x) => x.n)).toEqual([1, 2]);
    expect(two).toMatchObject({ total: all.total, truncated: true });
    expect(interactiveRows(editor, 0).rows).toHaveLength(1);
    expect(interactiveRows(editor, Number.NaN).rows).toHaveLength(Math.min(80, all.total));
    expect(interactiveRows(editor, 10_000).rows).toHaveLength(all.total);
  });

  it('leaves out elements without an area', () => {
    const zero = facebook.nodes.filter((n) => n.bounds.right === n.bounds.left);
    expect(zero.length).toBeGreaterThan(0);
    const paths = new Set(interactiveRows(facebook, 500).rows.map((x) => x.tree_path));
    expect(zero.some((n) => paths.has(n.tree_path))).toBe(false);
  });
});

describe('findElements', () => {
  it('matches text exactly and case-sensitively', () => {
    expect(find(launcher, { text: 'Chrome' })).toEqual(['0.0.0.0.0.4.0.1']);
    expect(find(launcher, { text: ' Chrome ' })).toEqual(['0.0.0.0.0.4.0.1']);
    expect(find(launcher, { text: 'chrome' })).toEqual([]);
    expect(find(launcher, { text: 'Chr' })).toEqual([]);
  });

  it('matches text_contains case-insensitively on the text only', () => {
    expect(find(launcher, { text_contains: 'chro' })).toEqual(['0.0.0.0.0.4.0.1']);
    expect(find(launcher, { text_contains: 'voice' })).toEqual([]);
    expect(find(list, { text_contains: '数据' })).toEqual(['0.0.0.0.0.0.0.0.2.0']);
  });

  it('matches content_desc as a case-insensitive substring', () => {
    expect(find(launcher, { content_desc: 'VOICE' })).toEqual(['0.0.0.0.0.4.1.1.0']);
    expect(find(facebook, { content_desc: 'profile picture' })).toHaveLength(2);
  });

  it('matches resource_id in full or by the name after :id/', () => {
    const clock = ['0.0.0.0.0.1.0.0.0.0.0.0.0.0'];
    expect(find(launcher, { resource_id: 'clock' })).toEqual(clock);
    expect(find(launcher, { resource_id: 'com.google.android.apps.nexuslauncher:id/clock' })).toEqual(clock);
    expect(find(launcher, { resource_id: 'com.other.app:id/clock' })).toEqual([]);
    expect(find(launcher, { resource_id: 'cloc' })).toEqual([]);
    expect(find(launcher, { resource_id: 'content' })).toEqual(['0.0.0']);
  });

  it('matches class_name by full or simple name, and combines criteria', () => {
    const textViews = find(launcher, { class_name: 'TextView' });
    expect(textViews).toHaveLength(3);
    expect(find(launcher, { class_name: 'android.widget.TextView' })).toEqual(textViews);
    expect(find(launcher, { class_name: 'widget.TextView' })).toEqual([]);
    expect(find(launcher, { class_name: 'TextView', clickable: true })).toEqual([
      '0.0.0.0.0.4.0.0',
      '0.0.0.0.0.4.0.1',
    ]);
    expect(find(launcher, { class_name: 'TextView', clickable: false })).toEqual([
      '0.0.0.0.0.1.0.0.0.0.0.0.0.0',
    ]);
  });

  it('caps the results at max_results (at most 100) and says so', () => {
    const r = findElements(facebook, { clickable: false, max_results: 3 });
    expect(r.ok && r.value.matches.length === 3 && r.value.truncated && r.value.total > 3).toBe(true);
    const capped = findElements(facebook, { clickable: false, max_results: 1000 });
    expect(capped.ok && capped.value.matches.length).toBe(Math.min(100, capped.ok ? capped.value.total : 0));
  });

  it('refuses an empty query or an empty criterion', () => {
    expect(findElements(launcher, {})).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
    expect(findElements(launcher, { text: '  ' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    });
  });

  it('hides the text of password fields in results', () => {
    const pw = launcher.nodes[0];
    if (pw === undefined) {
      throw new Error('no node');
    }
    const tree: UiTree = {
      ...launcher,
      nodes: [{ ...pw, text: 'hunter2', password: true }, ...launcher.nodes.slice(1)],
    };
    const r = findElements(tree, { text: 'hunter2' });
    expect(r.ok && r.value.matches[0]?.text).toBe('');
  });
});

describe('nodeAt and findParent', () => {
  it('resolve paths to nodes and parents', () => {
    expect(nodeAt(launcher, '0.0.0.0.0.4.0.1')?.text).toBe('Chrome');
    expect(findParent(launcher, '0.0.0.0.0.4.0.1')?.tree_path).toBe('0.0.0.0.0.4.0');
    expect(findParent(facebook, '2.2.0')?.resource_id).toBe('com.android.systemui:id/status_bar_container');
  });

  it('answer null for a window root, a missing node or a malformed path', () => {
    expect(findParent(launcher, '0')).toBeNull();
    for (const bad of ['1', '0.9', '0.0.0.0.0.4.0.1.0', '', 'a.b', '0..1', '-1', '0.1 ', '01x']) {
      expect(nodeAt(launcher, bad)).toBeNull();
      expect(findParent(launcher, bad)).toBeNull();
    }
  });
});

describe('titleOf: what the screen is', () => {
  it('names a launcher as the home screen, never after its first icon (real Pixel launcher dump)', () => {
    expect(titleOf(treeOf(uiFixture('launcher-pixel.xml')))).toBe('Home screen (Pixel Launcher)');
  });

  it('names an app by its app bar, a Compose app by its topmost text (real dumps)', () => {
    // A news app's toolbar title.
    expect(titleOf(treeOf(uiFixture('spotlight-rotation1.xml')))).toBe('The Daily Collegian');
    // Jetpack Compose: no resource ids; the topmost text is the screen's name.
    expect(titleOf(treeOf(uiFixture('lingbook-list-cjk.xml')))).toBe('灵记');
  });

  it('names a dialog by its title, over whatever screen it covers', () => {
    // The launcher dump with an AlertDialog over it, its title where AOSP's AlertController puts
    // it (alert_dialog_title_material.xml: @android:id/alertTitle). Not a capture: no public dump
    // of a dialog was found.
    const dump = uiFixture('launcher-pixel.xml')
      .toString('utf8')
      .replace(
        '</hierarchy>',
        '<node index="1" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.app" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[60,700][1020,1100]"><node index="0" text="Discard draft?" resource-id="android:id/alertTitle" class="android.widget.TextView" package="com.example.app" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[120,740][960,800]" /></node></hierarchy>',
      );
    expect(titleOf(treeOf(dump))).toBe('Discard draft?');
  });
});
