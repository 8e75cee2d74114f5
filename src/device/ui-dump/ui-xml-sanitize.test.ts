import { uiFixture } from './test-fixtures.js';
import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { parseUiDump } from './ui-parse.js';
import { nodeAt } from '../../actors/device/ui/ui-query.js';
import type { UiNode, UiTree } from './ui-types.js';
import { decodeDumpBytes } from '../../util/dump-decode.js';
import { sanitizeUiXml } from './ui-xml-sanitize.js';

const fixture = uiFixture;

function load(bytes: Uint8Array | string): UiTree {
  const r = parseUiDump(bytes);
  if (!r.ok) {
    throw new Error(`${r.error.code} ${r.error.message}`);
  }
  return r.value;
}

/** A node without its position bookkeeping, for comparing trees parsed from different bytes. */
function content(n: UiNode): Omit<UiNode, 'children'> & { children: number } {
  return { ...n, children: n.children.length };
}

function sameTree(a: UiTree, b: UiTree): void {
  expect(b.node_count).toBe(a.node_count);
  expect(b.rotation).toBe(a.rotation);
  expect(b.windows).toEqual(a.windows);
  expect(b.nodes).toEqual(a.nodes);
}

const ORIGINAL = {
  launcher: 'launcher-pixel.xml',
  list: 'lingbook-list-cjk.xml',
  editor: 'lingbook-editor-entities.xml',
  spotlight: 'spotlight-rotation1.xml',
  facebook: 'facebook-multiwindow.xml',
};

describe('sanitizeUiXml', () => {
  it.each(Object.values(ORIGINAL))('leaves the real dump %s as it is, without its declaration', (name) => {
    const text = fixture(name).toString('utf8');
    const r = sanitizeUiXml(fixture(name));
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.repairs).toEqual([]);
      expect(r.value.root).toBe('hierarchy');
      expect(r.value.xml).toBe(text.slice(text.indexOf('<hierarchy')));
    }
  });

  it.each([
    ['launcher-log-noise.txt', ORIGINAL.launcher, ['leading_text', 'trailing_text']],
    ['lingbook-list-controls.xml', ORIGINAL.list, ['control_chars']],
    ['lingbook-list-utf16le.xml', ORIGINAL.list, ['utf16le']],
    ['spotlight-invalid-utf8.xml', ORIGINAL.spotlight, ['invalid_utf8']],
    ['lingbook-list-gbk.xml', ORIGINAL.list, ['encoding_gbk']],
    ['facebook-trailing-garbage.xml', ORIGINAL.facebook, ['trailing_text']],
  ])('repairs damaged/%s to the same tree as the original', (damaged, original, repairs) => {
    const fixed = load(fixture(`damaged/${damaged}`));
    expect(fixed.repairs).toEqual(repairs);
    sameTree(load(fixture(original)), fixed);
  });

  it('reads a Korean dump in CP949 that declares UTF-8 as CP949, not as U+FFFD', () => {
    const fixed = load(fixture('damaged/launcher-korean-cp949.xml'));
    expect(fixed.repairs).toEqual(['encoding_euc-kr']);
    const texts = fixed.nodes.map((n) => n.text).filter((t) => t !== '');
    expect(texts).toContain('마이페이지에서 프로필을 관리해요.');
    expect(texts).toContain('오늘의 네컷 기록');
    expect(texts.join('')).not.toContain('\uFFFD');
  });

  it('escapes a bare & and a < in attribute values, keeping the characters in the text', () => {
    const fixed = load(fixture('damaged/launcher-bare-amp.xml'));
    expect(fixed.repairs).toEqual(['bare_ampersand', 'lt_in_attribute']);
    const original = load(fixture(ORIGINAL.launcher));
    const expected = original.nodes.map((n) =>
      n.content_desc === 'Chrome'
        ? { ...n, content_desc: 'Chrome & Web' }
        : n.text === 'Messages'
          ? { ...n, text: 'Q&A <Messages>' }
          : n,
    );
    expect(fixed.nodes).toEqual(expected);
  });

  it.each([
    ['lingbook-editor-truncated.xml', ORIGINAL.editor],
    ['facebook-truncated.xml', ORIGINAL.facebook],
  ])('closes the open elements of damaged/%s, keeping a prefix of the original tree', (damaged, original) => {
    const fixed = load(fixture(`damaged/${damaged}`));
    const full = load(fixture(original));
    expect(fixed.repairs).toContain('truncated');
    expect(fixed.node_count).toBeGreaterThan(10);
    expect(fixed.node_count).toBeLessThan(full.node_count);
    for (const n of fixed.nodes) {
      const o = nodeAt(full, n.tree_path);
      expect(o).not.toBeNull();
      if (o !== null) {
        // Same node, except that a truncated one may have lost children at the end.
        expect({ ...content(n), children: 0 }).toEqual({ ...content(o), children: 0 });
        expect(n.children.length).toBeLessThanOrEqual(o.children.length);
      }
    }
  });

  it('drops a DOCTYPE so no entity it defines is ever expanded', () => {
    const xml =
      '<?xml version="1.0"?><!DOCTYPE h [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>' +
      '<hierarchy rotation="0"><node index="0" text="&b;" bounds="[0,0][10,10]"/></hierarchy>';
    const tree = load(xml);
    expect(tree.repairs).toEqual(['doctype', 'bare_ampersand']);
    expect(tree.nodes[0]?.text).toBe('&b;');
  });

  it('keeps valid character references and drops ones that name no XML character', () => {
    const tree = load(
      '<hierarchy><node text="a&#10;b&#x41;&#1;c&amp;&quot;" bounds="[0,0][1,1]"/></hierarchy>',
    );
    expect(tree.nodes[0]?.text).toBe('a\nbAc&"');
    expect(tree.repairs).toEqual(['control_chars']);
  });

  it('skips tag-shaped words in the log before the hierarchy', () => {
    const text =
      'java.io.FileNotFoundException: /dev/tty at java.io.FileInputStream.<init>(FileInputStream.java:160)\n' +
      fixture(ORIGINAL.launcher).toString('utf8');
    const tree = load(text);
    expect(tree.repairs).toEqual(['leading_text']);
    expect(tree.node_count).toBe(25);
  });

  it('answers EMPTY_DUMP for output cut before the hierarchy began', () => {
    const r = sanitizeUiXml("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hier");
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.error.code).toBe('EMPTY_DUMP');
  });

  it('any cut of a real dump after its first node started parses to a prefix of the full tree', () => {
    const bytes = fixture(ORIGINAL.facebook);
    const full = load(bytes);
    const rootAt = bytes.indexOf('<hierarchy') + '<hierarchy rotation="0">'.length;
    const firstNodeAt = bytes.indexOf('>', bytes.indexOf('<node')) + 1;
    fc.assert(
      fc.property(fc.integer({ min: rootAt, max: bytes.length }), (cut) => {
        const r = parseUiDump(bytes.subarray(0, cut));
        if (!r.ok) {
          // Cut before the first node's start tag ended: a hierarchy without a node, which is no screen.
          return cut < firstNodeAt && r.error.code === 'EMPTY_DUMP';
        }
        return r.value.nodes.every((n) => nodeAt(full, n.tree_path)?.bounds.right === n.bounds.right);
      }),
      { numRuns: 300 },
    );
  });

  it('any text in an attribute value comes out as well-formed XML that parses', () => {
    const template = fixture(ORIGINAL.launcher).toString('utf8');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (junk) => {
        const s = template.replace('text="Chrome"', `text="${junk.replace(/"/g, "'")}"`);
        const r = sanitizeUiXml(s);
        if (!r.ok || XMLValidator.validate(r.value.xml) !== true) {
          return false;
        }
        const parsed = parseUiDump(s);
        return parsed.ok && parsed.value.node_count === 25;
      }),
      { numRuns: 400 },
    );
  });
});

describe('decodeDumpBytes', () => {
  it('reads UTF-16 with and without a byte order mark, in both byte orders', () => {
    const text = '<hierarchy rotation="0"><node text="灵记 ✓"/></hierarchy>';
    const le = Buffer.from(text, 'utf16le');
    const be = Buffer.from(le).swap16();
    expect(decodeDumpBytes(Buffer.concat([Buffer.from([0xff, 0xfe]), le]))).toEqual({
      text,
      repairs: ['utf16le'],
    });
    expect(decodeDumpBytes(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toEqual({
      text,
      repairs: ['utf16be'],
    });
    expect(decodeDumpBytes(le)).toEqual({ text, repairs: ['utf16le'] });
    expect(decodeDumpBytes(be)).toEqual({ text, repairs: ['utf16be'] });
  });

  it('drops a UTF-8 byte order mark and replaces invalid bytes', () => {
    expect(decodeDumpBytes(Buffer.from([0xef, 0xbb, 0xbf, 0x3c, 0x61, 0x3e]))).toEqual({
      text: '<a>',
      repairs: [],
    });
    expect(decodeDumpBytes(Buffer.from([0x3c, 0xff, 0x3e]))).toEqual({
      text: '<\uFFFD>',
      repairs: ['invalid_utf8'],
    });
  });
});
