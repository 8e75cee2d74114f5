import { uiFixture } from './test-fixtures.js';
import { describe, expect, it } from 'vitest';
import { isEditableClass, parseBounds, parseUiDump } from './ui-parse.js';
import { nodeAt } from '../../actors/device/ui/ui-query.js';
import type { UiTree } from './ui-types.js';

const fixture = uiFixture;

function load(name: string, nodeLimit?: number): UiTree {
  const r = parseUiDump(fixture(name), nodeLimit === undefined ? {} : { node_limit: nodeLimit });
  if (!r.ok) {
    throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  }
  return r.value;
}

const REAL_DUMPS: Array<[string, number, number]> = [
  // file, nodes, rotation
  ['launcher-pixel.xml', 25, 0],
  ['lingbook-list-cjk.xml', 50, 0],
  ['lingbook-editor-entities.xml', 72, 0],
  ['spotlight-rotation1.xml', 126, 1],
  ['facebook-multiwindow.xml', 104, 0],
];

describe('parseUiDump on real dumps', () => {
  it.each(REAL_DUMPS)('%s parses cleanly with every node and its rotation', (name, nodes, rotation) => {
    const tree = load(name);
    expect(tree.repairs).toEqual([]);
    expect(tree.node_count).toBe(nodes);
    // An independent count: every <node start tag in the file.
    expect(
      fixture(name)
        .toString('utf8')
        .match(/<node[\s>]/g)?.length,
    ).toBe(nodes);
    expect(tree.rotation).toBe(rotation);
    expect(tree.truncated).toBe(false);
  });

  it.each(REAL_DUMPS)('every tree path of %s resolves back to the same node', (name) => {
    const tree = load(name);
    for (const n of tree.nodes) {
      expect(nodeAt(tree, n.tree_path)).toBe(n);
    }
  });

  it('gives plain data that survives structuredClone and JSON unchanged', () => {
    const tree = load('facebook-multiwindow.xml');
    expect(structuredClone(tree)).toEqual(tree);
    expect(JSON.parse(JSON.stringify(tree))).toEqual(tree);
  });

  it('parses bytes and the same text alike', () => {
    const bytes = fixture('lingbook-list-cjk.xml');
    const fromText = parseUiDump(bytes.toString('utf8'));
    expect(fromText.ok && fromText.value).toEqual(load('lingbook-list-cjk.xml'));
  });

  it('keeps the document order and the parent links consistent with the paths', () => {
    const tree = load('spotlight-rotation1.xml');
    tree.nodes.forEach((n, i) => {
      expect(n.id).toBe(i);
      if (n.parent >= 0) {
        const parent = tree.nodes[n.parent];
        expect(parent?.children).toContain(n.id);
        expect(n.tree_path.startsWith(`${parent?.tree_path}.`)).toBe(true);
        expect(n.depth).toBe((parent?.depth ?? -1) + 1);
      }
    });
  });

  it('reads the attributes of a known node', () => {
    const tree = load('launcher-pixel.xml');
    const chrome = nodeAt(tree, '0.0.0.0.0.4.0.1');
    expect(chrome).toMatchObject({
      index: 1,
      class: 'android.widget.TextView',
      text: 'Chrome',
      content_desc: 'Chrome',
      package: 'com.google.android.apps.nexuslauncher',
      bounds: { left: 641, top: 1382, right: 843, bottom: 1548 },
      center: { x: 742, y: 1465 },
      clickable: true,
      long_clickable: true,
      focusable: true,
      enabled: true,
      checkable: false,
      editable: false,
    });
    expect(tree.screen).toEqual({ left: 0, top: 0, right: 1080, bottom: 1794 });
  });

  it('decodes entities and keeps unicode text', () => {
    const editor = load('lingbook-editor-entities.xml');
    const body = editor.nodes.find((n) => n.text.startsWith('# 关键路径算法'));
    expect(body?.text.split('\n').length).toBeGreaterThan(40);
    expect(body?.text).toContain('## 1. 什么是关键路径？\n\n关键路径（Critical Path）');
    expect(body?.text).toContain('`etv[j] = max{etv[i] + weight(i,j)}`');
    expect(editor.nodes.some((n) => n.text === '触发:—  方向:—  量:—')).toBe(true);
    const spotlight = load('spotlight-rotation1.xml');
    expect(spotlight.nodes.some((n) => n.text.includes('Penn State men’s basketball'))).toBe(true);
    const list = load('lingbook-list-cjk.xml');
    expect(list.nodes.filter((n) => n.content_desc === '重命名')).toHaveLength(3);
  });

  it('keeps trailing spaces in attribute values', () => {
    const tree = load('facebook-multiwindow.xml');
    expect(tree.nodes.some((n) => n.content_desc === 'Temu notification: ')).toBe(true);
  });

  it('keeps every window of a multi-window dump, with its kind', () => {
    const tree = load('facebook-multiwindow.xml');
    expect(tree.windows.map((w) => [w.index, w.package, w.kind])).toEqual([
      [0, 'com.facebook.katana', 'application'],
      [1, 'com.android.systemui', 'navigation_bar'],
      [2, 'com.android.systemui', 'status_bar'],
    ]);
    expect(tree.roots.map((id) => tree.nodes[id]?.tree_path)).toEqual(['0', '1', '2']);
    const clock = tree.nodes.find((n) => n.resource_id === 'com.android.systemui:id/clock');
    expect(clock?.tree_path.startsWith('2.')).toBe(true);
    expect(clock?.window).toBe(2);
    expect(tree.screen).toEqual({ left: 0, top: 0, right: 720, bottom: 1560 });
  });

  it('derives editable from the class, as old dumps have no such attribute', () => {
    const tree = load('lingbook-editor-entities.xml');
    expect(tree.nodes.filter((n) => n.editable).map((n) => n.class)).toEqual([
      'android.widget.EditText',
      'android.widget.EditText',
      'android.widget.EditText',
    ]);
    expect(isEditableClass('androidx.appcompat.widget.AppCompatEditText')).toBe(true);
    expect(isEditableClass('com.google.android.material.textfield.TextInputEditText')).toBe(true);
    expect(isEditableClass('android.widget.AutoCompleteTextView')).toBe(true);
    expect(isEditableClass('android.widget.MultiAutoCompleteTextView')).toBe(true);
    expect(isEditableClass('android.widget.TextView')).toBe(false);
    expect(isEditableClass('android.widget.Button')).toBe(false);
  });

  it('stops at the node limit, keeping a resolvable prefix of the tree', () => {
    const full = load('spotlight-rotation1.xml');
    const cut = load('spotlight-rotation1.xml', 10);
    expect(cut.node_count).toBe(10);
    expect(cut.truncated).toBe(true);
    expect(cut.nodes.map((n) => n.tree_path)).toEqual(full.nodes.slice(0, 10).map((n) => n.tree_path));
    for (const n of cut.nodes) {
      expect(nodeAt(cut, n.tree_path)).toBe(n);
      expect(n.children.every((c) => c < 10)).toBe(true);
    }
  });

  it('reads the windows of `uiautomator dump --windows`, with types, display and rotation', () => {
    // The --windows shape as AccessibilityNodeInfoDumper.dumpWindowsToFile writes it, around real nodes.
    const launcher = fixture('launcher-pixel.xml')
      .toString('utf8')
      .replace(/^.*?<hierarchy rotation="0">/, '')
      .replace('</hierarchy>', '');
    const keyboard =
      '<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.google.android.inputmethod.latin" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,1100][1080,1794]" />';
    const xml =
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><displays><display id="0">` +
      `<window index="0" title="Gboard" bounds="[0,1100][1080,1794]" active="false" focused="false" accessibility-focused="false" id="7" layer="2" type="TYPE_INPUT_METHOD"><hierarchy rotation="0">${keyboard}</hierarchy></window>` +
      `<window index="1" title="Launcher" bounds="[0,0][1080,1794]" active="true" focused="true" accessibility-focused="false" id="3" layer="1" type="TYPE_APPLICATION"><hierarchy rotation="0">${launcher}</hierarchy></window>` +
      `</display></displays>`;
    const r = parseUiDump(xml);
    expect(r.ok).toBe(true);
    if (!r.ok) {
      return;
    }
    const tree = r.value;
    // The app's window first (the dump lists the keyboard first): its paths do not depend on the keyboard.
    expect(tree.windows.map((w) => [w.kind, w.title, w.display_id, w.layer, w.focused])).toEqual([
      ['application', 'Launcher', 0, 1, true],
      ['input_method', 'Gboard', 0, 2, false],
    ]);
    expect(tree.node_count).toBe(26);
    expect(nodeAt(tree, '0.0.0.0.0.4.0.1')?.text).toBe('Chrome');
    expect(tree.rotation).toBe(0);
  });

  it("keeps an app element's tree path when the keyboard, a dialog or the bars come, in any reader's order", () => {
    const app = fixture('launcher-pixel.xml')
      .toString('utf8')
      .replace(/^.*?<hierarchy rotation="0">/, '')
      .replace('</hierarchy>', '');
    const root = (pkg: string, cls: string, bounds: string): string =>
      `<node index="0" text="" resource-id="" class="${cls}" package="${pkg}" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="${bounds}" />`;
    const keyboard = root(
      'com.google.android.inputmethod.latin',
      'android.widget.FrameLayout',
      '[0,1100][1080,1794]',
    );
    const dialog = root('android', 'android.widget.FrameLayout', '[60,700][1020,1100]');
    const status = root('com.android.systemui', 'android.widget.FrameLayout', '[0,0][1080,63]');
    const nav = root('com.android.systemui', 'android.widget.FrameLayout', '[0,1668][1080,1794]');
    // Its own dialog, over the activity: an application window of the same package.
    const own = root(
      'com.google.android.apps.nexuslauncher',
      'android.widget.FrameLayout',
      '[60,700][1020,1100]',
    );
    const hierarchy = (...roots: string[]): string =>
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${roots.join('')}</hierarchy>`;
    const chromeIn = (
      xml: string,
      order: 'top_first' | 'as_given',
    ): { path: string | undefined; kinds: string[] } => {
      const r = parseUiDump(xml, { window_order: order });
      if (!r.ok) {
        throw new Error(r.error.message);
      }
      return {
        path: r.value.nodes.find((n) => n.text === 'Chrome' && n.clickable)?.tree_path,
        kinds: r.value.windows.map((w) => w.kind),
      };
    };
    const alone = chromeIn(hierarchy(app), 'as_given');
    expect(alone.path).toBe('0.0.0.0.0.4.0.1');
    // The UiAutomator2 server lists windows top-most first (AccessibilityWindowManager's list).
    expect(chromeIn(hierarchy(keyboard, status, nav, app), 'top_first')).toEqual({
      path: alone.path,
      kinds: ['application', 'input_method', 'navigation_bar', 'status_bar'],
    });
    expect(chromeIn(hierarchy(dialog, keyboard, app, nav), 'top_first')).toEqual({
      path: alone.path,
      kinds: ['application', 'system', 'input_method', 'navigation_bar'],
    });
    // The app's own dialog sits above its activity: the activity, bottom-most, stays window 0.
    const withOwn = parseUiDump(hierarchy(own, app), { window_order: 'top_first' });
    expect(withOwn.ok && withOwn.value.nodes[withOwn.value.roots[1]!]?.bounds.top).toBe(700);
    expect(chromeIn(hierarchy(own, app), 'top_first').path).toBe(alone.path);
    // An androidx dump lists the active window first: kept, then the rest by kind.
    expect(chromeIn(hierarchy(app, keyboard, status), 'as_given').path).toBe(alone.path);
  });

  it('fails with the device message when the output holds no hierarchy', () => {
    const r = parseUiDump('ERROR: null root node returned by UiTestAutomationBridge.\n');
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'EMPTY_DUMP',
        message:
          'the dump holds no UI hierarchy; the device said: ERROR: null root node returned by UiTestAutomationBridge.',
      },
    });
    expect(parseUiDump(new Uint8Array()).ok).toBe(false);
  });

  it('fails on a hierarchy without a node: a read that found no window, not an empty screen', () => {
    // The shape AOSP's AccessibilityNodeInfoDumper writes with no window root (KXmlSerializer closes the
    // empty element), see tests/fixtures/ui/SOURCES.md.
    const r = parseUiDump(uiFixture('no-window-root.xml'));
    expect(r.ok ? null : r.error.code).toBe('EMPTY_DUMP');
    expect(r.ok ? '' : r.error.message).toMatch(/not one node: UI Automator found no window/);
  });
});

describe('parseBounds', () => {
  it('reads the four edges', () => {
    expect(parseBounds('[0,0][1080,2400]')).toEqual({ left: 0, top: 0, right: 1080, bottom: 2400 });
    expect(parseBounds('[-12,5][30,-1]')).toEqual({ left: -12, top: 5, right: 30, bottom: -1 });
  });

  it('gives an empty rectangle for anything malformed', () => {
    for (const bad of ['', '[0,0][1080]', '0,0,1080,2400', '[a,b][c,d]', '[1.5,0][2,2]']) {
      expect(parseBounds(bad)).toEqual({ left: 0, top: 0, right: 0, bottom: 0 });
    }
  });
});
