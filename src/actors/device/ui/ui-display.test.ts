import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { displayBounds, displaySizeOf } from './ui-display.js';
import { formatHierarchy } from './ui-format.js';
import { parseUiDump } from '../../../device/ui-dump/ui-parse.js';

describe('the display a capture is on', () => {
  it('reads `wm size` as AOSP WindowManagerShellCommand prints it, the override first', () => {
    expect(displaySizeOf('Physical size: 1080x2400\n')).toEqual({ width: 1080, height: 2400 });
    expect(displaySizeOf('Physical size: 1080x2400\nOverride size: 720x1600\n')).toEqual({
      width: 720,
      height: 1600,
    });
    expect(displaySizeOf('')).toBeNull();
  });

  it('turns the natural size to the capture rotation', () => {
    expect(displayBounds({ width: 1080, height: 2400 }, 0)).toEqual({
      left: 0,
      top: 0,
      right: 1080,
      bottom: 2400,
    });
    expect(displayBounds({ width: 1080, height: 2400 }, 1)).toEqual({
      left: 0,
      top: 0,
      right: 2400,
      bottom: 1080,
    });
    expect(displayBounds({ width: 1080, height: 2400 }, null)).toEqual({
      left: 0,
      top: 0,
      right: 1080,
      bottom: 2400,
    });
  });

  it('names the display as the screen and the captured windows apart from it', () => {
    // A real dump (tests/fixtures/ui/facebook-multiwindow.xml, 720×1560) read as if on a larger display.
    const xml = readFileSync(
      new URL('../../../../tests/fixtures/ui/facebook-multiwindow.xml', import.meta.url),
    );
    const parsed = parseUiDump(xml);
    expect(parsed.ok).toBe(true);
    const tree = parsed.ok ? parsed.value : null;
    expect(formatHierarchy(tree!).text.split('\n')[0]).toMatch(/^screen 720x1560, rotation 0/);
    tree!.display = displayBounds({ width: 1080, height: 2400 }, tree!.rotation);
    expect(formatHierarchy(tree!).text.split('\n')[0]).toMatch(
      /^screen 1080x2400 \(captured area 720x1560 at 0,0\), rotation 0/,
    );
  });
});
