import { describe, expect, it } from 'vitest';
import { findNotificationRow } from './notification-actions.js';
import { parseUiDump } from '../../../device/ui-dump/ui-parse.js';
import type { UiTree } from '../../../device/ui-dump/ui-types.js';

// A shade in the classic dump's shape (hand-written: rows as System UI exposes them).
function shade(rows: { title: string; text: string }[]): UiTree {
  const node = (attrs: string, inner = ''): string =>
    `<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.android.systemui" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" ${attrs}>${inner}</node>`;
  const text = (id: string, value: string, top: number): string =>
    `<node index="0" text="${value}" resource-id="android:id/${id}" class="android.widget.TextView" package="com.android.systemui" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[40,${top}][1040,${top + 40}]" />`;
  const body = rows
    .map((r, i) => {
      const top = 200 + i * 260;
      return node(
        `clickable="true" bounds="[20,${top}][1060,${top + 240}]"`.replace('clickable="false" ', ''),
        text('title', r.title, top + 60) + text('text', r.text, top + 120),
      );
    })
    .join('');
  const xml = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${node('bounds="[0,0][1080,2400]"', body)}</hierarchy>`;
  const parsed = parseUiDump(Buffer.from(xml));
  if (!parsed.ok) {
    throw new Error(parsed.error.message);
  }
  return parsed.value;
}

describe('finding a notification row in the shade', () => {
  it('finds the clickable row that shows the title', () => {
    const tree = shade([
      { title: 'Order shipped', text: 'On its way' },
      { title: 'Coupon', text: '10% off' },
    ]);
    const found = findNotificationRow(tree, { title: 'Coupon', text: '10% off' });
    expect('row' in found && found.row.bounds).toEqual({ left: 20, top: 460, right: 1060, bottom: 700 });
  });

  it('tells same-titled rows apart by their text, and refuses to guess when it cannot', () => {
    const tree = shade([
      { title: 'New message', text: 'from Ada' },
      { title: 'New message', text: 'from Grace' },
    ]);
    const grace = findNotificationRow(tree, { title: 'New message', text: 'from Grace' });
    expect('row' in grace && grace.row.bounds.top).toBe(460);
    const twins = shade([
      { title: 'Same', text: 'same' },
      { title: 'Same', text: 'same' },
    ]);
    expect(findNotificationRow(twins, { title: 'Same', text: 'same' })).toEqual({
      problem: '2 rows show "Same"; droidbus will not guess which one is meant',
    });
    expect(findNotificationRow(twins, { title: null, text: null })).toMatchObject({
      problem: expect.stringMatching(/no title or text/),
    });
    expect(findNotificationRow(twins, { title: 'Gone', text: null })).toMatchObject({
      problem: expect.stringMatching(/no row/),
    });
  });
});
