import { treeOf, uiFixtureText } from '../../../device/ui-dump/test-fixtures.js';
import { describe, expect, it } from 'vitest';
import { normalizeVolatileText, screenHash } from './ui-screen-hash.js';

const text = uiFixtureText;

const tree = treeOf;

function hashOf(xml: string): string {
  return screenHash(tree(xml));
}

function replaceOnce(s: string, from: string, to: string): string {
  expect(s.includes(from)).toBe(true);
  return s.replace(from, to);
}

const launcher = text('launcher-pixel.xml');
const list = text('lingbook-list-cjk.xml');
const editor = text('lingbook-editor-entities.xml');
const facebook = text('facebook-multiwindow.xml');
const spotlight = text('spotlight-rotation1.xml');

describe('screenHash', () => {
  it('is 16 lowercase hex characters', () => {
    expect(hashOf(launcher)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('is equal for two captures of the same screen, whatever the formatting', () => {
    expect(hashOf(facebook)).toBe(hashOf(facebook));
    // The same dump without indentation and with LF endings, and with attributes in another order.
    const compact = facebook.replace(/\r?\n\s*/g, '');
    expect(hashOf(compact)).toBe(hashOf(facebook));
    const reordered = launcher.replace(/ index="(\d+)" text="([^"]*)"/g, ' text="$2" index="$1"');
    expect(reordered).not.toBe(launcher);
    expect(hashOf(reordered)).toBe(hashOf(launcher));
  });

  it('ignores the status bar clock, battery and notification icons', () => {
    let later = replaceOnce(facebook, 'text="2:06"', 'text="2:07"');
    later = replaceOnce(later, 'content-desc="2:06 PM"', 'content-desc="2:07 PM"');
    later = replaceOnce(later, 'Battery charging, 90 percent', 'Battery charging, 91 percent');
    later = replaceOnce(
      later,
      'content-desc="Temu notification: Order out for delivery"',
      'content-desc="Temu notification: Delivered"',
    );
    expect(hashOf(later)).toBe(hashOf(facebook));
  });

  it('ignores a live clock inside the app', () => {
    expect(hashOf(replaceOnce(list, 'text="23:38:50"', 'text="23:39:07"'))).toBe(hashOf(list));
    expect(normalizeVolatileText('7:05 p.m.')).toBe('<time>');
    expect(normalizeVolatileText('4 / 4')).toBe('4 / 4');
    expect(normalizeVolatileText('2026/06/24')).toBe('2026/06/24');
  });

  it('changes when the app shows another screen', () => {
    expect(hashOf(list)).not.toBe(hashOf(editor));
    expect(hashOf(launcher)).not.toBe(hashOf(list));
  });

  it('changes when a text, a state or a position on screen changes', () => {
    const base = hashOf(spotlight);
    const variants = [
      replaceOnce(spotlight, 'text="Following"', 'text="Follow"'),
      replaceOnce(
        spotlight,
        'content-desc="Explore" checkable="false" checked="false" clickable="true" enabled="true"',
        'content-desc="Explore" checkable="false" checked="false" clickable="true" enabled="false"',
      ),
      replaceOnce(
        spotlight,
        'content-desc="Explore" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false"',
        'content-desc="Explore" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="true"',
      ),
      replaceOnce(spotlight, 'bounds="[18,871][601,904]"', 'bounds="[18,771][601,804]"'),
      replaceOnce(editor, 'text="关键路径算法详解"', 'text="关键路径算法"'),
    ];
    const hashes = variants.map(hashOf);
    for (const h of hashes.slice(0, 4)) {
      expect(h).not.toBe(base);
    }
    expect(hashes[4]).not.toBe(hashOf(editor));
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it('changes when a soft keyboard window appears', () => {
    const keyboard =
      '<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.google.android.inputmethod.latin" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,1000][720,1498]" />';
    const withKeyboard = replaceOnce(facebook, '</hierarchy>', `${keyboard}</hierarchy>`);
    expect(tree(withKeyboard).windows.map((w) => w.kind)).toContain('input_method');
    expect(hashOf(withKeyboard)).not.toBe(hashOf(facebook));
  });
});
