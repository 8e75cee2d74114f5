import { describe, expect, it } from 'vitest';
import { screenAnchor, selectNodes, selectorFor } from './maestro-select.js';
import { treeOf, uiFixtureText } from '../../../device/ui-dump/test-fixtures.js';
import type { UiNode, UiTree } from '../../../device/ui-dump/ui-types.js';

// Maestro's selection rules (Orchestra.buildFilter, Filters.kt; maestro v1.39.10) on real dumps from
// tests/fixtures/ui (SOURCES.md), and on small dumps written for one rule each.

const news = treeOf(uiFixtureText('spotlight-rotation1.xml'));
const facebook = treeOf(uiFixtureText('facebook-multiwindow.xml'));
const launcher = treeOf(uiFixtureText('launcher-pixel.xml'));
const cjkList = treeOf(uiFixtureText('lingbook-list-cjk.xml'));

function first(tree: UiTree, selector: Parameters<typeof selectNodes>[1]): UiNode | undefined {
  return selectNodes(tree, selector)[0];
}

/** A dump of the given nodes under one root (attributes as uiautomator writes them). */
function dump(nodes: string): UiTree {
  return treeOf(
    `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="app" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">${nodes}</node></hierarchy>`,
  );
}

function node(
  attrs: {
    text?: string;
    id?: string;
    desc?: string;
    clickable?: boolean;
    password?: boolean;
    bounds: string;
  },
  children = '',
): string {
  return `<node index="0" text="${attrs.text ?? ''}" resource-id="${attrs.id ?? ''}" class="android.widget.TextView" package="app" content-desc="${attrs.desc ?? ''}" checkable="false" checked="false" clickable="${attrs.clickable ?? false}" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="${attrs.password ?? false}" selected="false" bounds="${attrs.bounds}">${children}</node>`;
}

describe('selecting as Maestro selects', () => {
  it('matches text as a whole, ignoring case: a part matches nothing, a pattern does', () => {
    expect(first(news, { text: 'articles' })?.text).toBe('Articles');
    expect(selectNodes(news, { text: 'Article' })).toEqual([]);
    expect(selectNodes(news, { text: 'Art.*' }).map((n) => n.text)).toEqual(['Articles']);
    expect(
      selectNodes(news, { text: '.*articles' })
        .map((n) => n.text)
        .sort(),
    ).toEqual(['All Articles', 'Articles']);
  });

  it('matches an id whole or after its last slash', () => {
    const byShort = selectNodes(news, { id: 'tvTitle' });
    expect(byShort).toHaveLength(3);
    expect(selectNodes(news, { id: 'net.spotlightlabs.spotlight:id/tvTitle' })).toEqual(byShort);
    expect(selectNodes(news, { id: 'tvTit' })).toEqual([]);
  });

  it('ranks a text match before a content description that comes earlier (Filters.textMatches, issue 71)', () => {
    const tree = dump(
      node({ desc: 'Save', clickable: true, bounds: '[0,100][1080,200]' }) +
        node({ text: 'Save', clickable: true, bounds: '[0,300][1080,400]' }),
    );
    expect(first(tree, { text: 'Save' })?.text).toBe('Save');
    expect(selectNodes(tree, { text: 'Save' }).map((n) => n.content_desc)).toEqual(['', 'Save']);
  });

  it('leaves out what is not on the screen, as filterOutOfBounds does (issue 71)', () => {
    const tree = dump(
      node({ text: 'Gone', bounds: '[-100,-100][0,0]' }) +
        node({ text: 'Below', bounds: '[0,2500][1080,2600]' }) +
        node({ text: 'Edge', bounds: '[0,2390][1080,2490]' }) +
        node({ text: 'Peeks', bounds: '[0,2300][1080,2500]' }) +
        node({ text: 'Empty', bounds: '[0,0][0,0]' }) +
        node(
          { text: 'Holder', bounds: '[0,2500][1080,2600]' },
          node({ text: 'Inside', bounds: '[0,10][10,20]' }),
        ),
    );
    // 10 of 100 rows on screen is a tenth: kept; a child on screen keeps its parent.
    // (Holder, off screen, stands for its child Inside, which is on it: deepestMatchingElement.)
    expect(selectNodes(tree, { text: '.*' }).map((n) => n.text)).toEqual(['Edge', 'Peeks', 'Inside']);
    expect(selectNodes(tree, { text: 'Gone' })).toEqual([]);
    expect(selectNodes(tree, { text: 'Below' })).toEqual([]);
    expect(first(tree, { text: 'Holder' })?.text).toBe('Holder');
  });

  it('ranks whole-id matches before matches after the last slash (Filters.idMatches)', () => {
    const tree = dump(
      node({ id: 'app:id/save', clickable: true, bounds: '[0,100][1080,200]' }) +
        node({ id: 'save', clickable: true, bounds: '[0,300][1080,400]' }),
    );
    expect(selectNodes(tree, { id: 'save' }).map((n) => n.resource_id)).toEqual(['save', 'app:id/save']);
  });

  it("matches a content description with text (Maestro's accessibilityText)", () => {
    expect(first(launcher, { text: 'chrome' })?.content_desc).toBe('Chrome');
  });

  it('orders by position for index: top to bottom, then left to right', () => {
    const all = selectNodes(cjkList, { text: '删除' });
    expect(all.length).toBeGreaterThan(1);
    const byPosition = [...all].sort((a, b) => a.bounds.top - b.bounds.top || a.bounds.left - b.bounds.left);
    expect(first(cjkList, { text: '删除', index: 1 })).toBe(byPosition[1]);
    expect(selectNodes(cjkList, { text: '删除', index: all.length })).toEqual([]);
  });

  it('takes a text it cannot parse as a pattern literally (toRegexSafe)', () => {
    const tree = dump(node({ text: 'Sign (in', bounds: '[0,0][100,100]' }));
    expect(first(tree, { text: 'Sign (in' })?.text).toBe('Sign (in');
  });

  it('stands a match for its last matching child, and puts clickable matches first', () => {
    const tree = dump(
      node({ text: 'Pay', bounds: '[0,0][500,100]' }) +
        node(
          { desc: 'Pay', clickable: true, bounds: '[0,200][500,300]' },
          node({ text: 'Pay', bounds: '[0,200][500,300]' }),
        ),
    );
    const matches = selectNodes(tree, { text: 'Pay' });
    // The clickable container matched, and stands for its matching child; that child is not clickable.
    expect(matches.map((n) => n.bounds.top)).toEqual([0, 200]);
    const clickableFirst = dump(
      node({ text: 'Pay', bounds: '[0,0][500,100]' }) +
        node({ text: 'Pay', clickable: true, bounds: '[0,200][500,300]' }),
    );
    expect(first(clickableFirst, { text: 'Pay' })?.clickable).toBe(true);
  });

  it('runs a pattern that backtracking engines cannot finish in linear time', () => {
    const tree = dump(node({ text: `${'a'.repeat(5000)}!`, bounds: '[0,0][100,100]' }));
    expect(selectNodes(tree, { text: '(a+)+$' })).toEqual([]);
  });

  it('refuses a pattern past the limits droidbus keeps on every pattern', () => {
    expect(() => selectNodes(news, { text: 'x'.repeat(600) })).toThrow(/more than the 512/);
  });
});

describe('choosing the selector Maestro finds an element with', () => {
  for (const [name, tree] of [
    ['a news list with repeated rows', news],
    ['a multi-window dump with hints', facebook],
    ['a launcher', launcher],
    ['a list of repeated rows', cjkList],
  ] as const) {
    it(`names every element it can so that Maestro selects that very element (${name})`, () => {
      let named = 0;
      for (const n of tree.nodes) {
        const selector = selectorFor(tree, n);
        if (selector === null) {
          continue;
        }
        named++;
        expect(first(tree, selector), `${n.tree_path} by ${JSON.stringify(selector)}`).toBe(n);
      }
      expect(named).toBeGreaterThan(5);
    });
  }

  it('prefers the id, then the text; an index only when they are not enough', () => {
    const unique = news.nodes.find(
      (n) => n.resource_id !== '' && news.nodes.filter((m) => m.resource_id === n.resource_id).length === 1,
    )!;
    expect(selectorFor(news, unique)).toEqual({ id: unique.resource_id.split('/').pop() });
    const [, secondTitle] = selectNodes(news, { id: 'tvTitle' }).sort((a, b) => a.bounds.top - b.bounds.top);
    expect(selectorFor(news, secondTitle!)).toEqual({ text: expect.stringMatching(/^Column/) });
    const chrome = first(launcher, { text: 'Chrome' })!;
    expect(selectorFor(launcher, chrome)).toEqual({ text: 'Chrome' });
    const second = first(cjkList, { text: '删除', index: 1 })!;
    expect(selectorFor(cjkList, second)).toEqual({ text: '删除', index: 1 });
  });

  it('names an element with a long text by its start, within the pattern limits', () => {
    const long = 'Lorem ipsum (dolor) sit amet. '.repeat(40);
    const tree = dump(
      node({ text: long, bounds: '[0,0][500,100]' }) + node({ text: 'other', bounds: '[0,200][500,300]' }),
    );
    const selector = selectorFor(tree, tree.nodes[1]!);
    expect(selector!.text!.length).toBeLessThan(300);
    expect(selector!.text!.endsWith('.*')).toBe(true);
    expect(first(tree, selector!)).toBe(tree.nodes[1]);
  });

  it("never uses a password field's text", () => {
    const tree = dump(node({ text: 'hunter2', password: true, bounds: '[0,0][500,100]' }));
    expect(selectorFor(tree, tree.nodes[1]!)).toBeNull();
    const withId = dump(
      node({ text: 'hunter2', id: 'app:id/password', password: true, bounds: '[0,0][500,100]' }),
    );
    expect(selectorFor(withId, withId.nodes[1]!)).toEqual({ id: 'password' });
  });

  it("escapes a text's pattern characters, so that it matches only itself", () => {
    const tree = dump(
      node({ text: 'Total: $5.00 (tax)', bounds: '[0,0][500,100]' }) +
        node({ text: 'Total: $5x00 (tax)', bounds: '[0,200][500,300]' }),
    );
    const selector = selectorFor(tree, tree.nodes[1]!);
    expect(selector).toEqual({ text: 'Total: \\$5\\.00 \\(tax\\)' });
    expect(selectNodes(tree, selector!)).toEqual([tree.nodes[1]]);
  });

  it("names a screen by its first text that selects itself (the flow's closing assertion)", () => {
    expect(screenAnchor(news)).toEqual({ text: 'The Daily Collegian' });
  });
});
