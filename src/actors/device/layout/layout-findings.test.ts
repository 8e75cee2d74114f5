import { describe, expect, it } from 'vitest';
import { uiFixtureText, treeOf } from '../../../device/ui-dump/test-fixtures.js';
import { findLayoutProblems } from './layout-findings.js';
import type { Raster } from './layout-pixels.js';

/** A plain screen's pixels: no text anywhere, so only the tree speaks. */
function blank(width: number, height: number): Raster {
  return { data: new Uint8Array(width * height * 3).fill(250), width, height, channels: 3 };
}

describe('findLayoutProblems on a real capture', () => {
  it("finds a web login form's fields and button under 48 dp, and no overlap in their 1 dp slivers", () => {
    // A real emulator's dump (1080x2400, 420 dpi) of a WebView login page: Chromium's echo of
    // `<input>`s and a `<button>` at the page's default sizes (tests/fixtures/ui/SOURCES.md).
    const tree = treeOf(
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${uiFixtureText('argent-webview-inapp-excerpt.xml')}</hierarchy>`,
    );
    const found = findLayoutProblems(tree, blank(1080, 2400), 420, null);
    expect(found.map((f) => `${f.kind} ${f.resource_id} ${f.detail}`)).toEqual([
      'small_target username 193 × 22 dp: touch targets need 48 × 48 dp',
      'small_target password 192 × 23 dp: touch targets need 48 × 48 dp',
      'small_target login 50 × 23 dp: touch targets need 48 × 48 dp',
    ]);
  });

  it('says what the first configuration showed and this one does not, by resource id', () => {
    const tree = treeOf(
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${uiFixtureText('argent-webview-inapp-excerpt.xml')}</hierarchy>`,
    );
    const without = treeOf(
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${uiFixtureText('argent-webview-inapp-excerpt.xml').replace('resource-id="login"', 'resource-id=""')}</hierarchy>`,
    );
    const missing = findLayoutProblems(without, blank(1080, 2400), 420, tree).filter(
      (f) => f.kind === 'missing',
    );
    expect(missing).toEqual([
      expect.objectContaining({ resource_id: 'login', label: 'Login', bounds: null, tree_path: null }),
    ]);
  });
});
