/**
 * A short, stable fingerprint of what is on screen, used by `expect_screen_hash`: an action refuses
 * to run when the screen changed since the agent looked.
 *
 * What counts: for every window except the status and navigation bars, its kind and package, and
 * for every node its depth, class, resource id, text, content description, bounds and the
 * checked/enabled/focused/selected states. So a new screen, a dialog or keyboard appearing, a scroll
 * (bounds move), a toggle or typed text all change the hash.
 *
 * What does not: the status and navigation bars (their clock, battery, signal and notification
 * icons change on their own), and any text or description that is only a time of day (`23:38:50`,
 * `2:06 PM`), which apps show as live clocks. Attributes that do not change what is on screen
 * (`index`, `drawing-order`, `NAF`, `visible-to-user`) and the order of attributes never count.
 */
import { createHash } from 'node:crypto';
import type { UiNode, UiTree } from '../../../device/ui-dump/ui-types.js';

const TIME_OF_DAY = /^\s*\d{1,2}[:.]\d{2}(?:[:.]\d{2})?\s*(?:[AaPp]\.?\s?[Mm]\.?)?\s*$/;

/** Replaces a pure time-of-day string by a placeholder so a ticking clock does not change the hash. */
export function normalizeVolatileText(text: string): string {
  return TIME_OF_DAY.test(text) ? '<time>' : text;
}

function nodeLine(n: UiNode): string {
  const b = n.bounds;
  const flags = `${n.checked ? 1 : 0}${n.enabled ? 1 : 0}${n.focused ? 1 : 0}${n.selected ? 1 : 0}`;
  return `${n.depth}\u0001${n.class}\u0001${n.resource_id}\u0001${normalizeVolatileText(n.text)}\u0001${normalizeVolatileText(
    n.content_desc,
  )}\u0001${b.left},${b.top},${b.right},${b.bottom}\u0001${flags}\n`;
}

/** The screen hash: 16 lowercase hex characters (64 bits of SHA-256 over the canonical form). */
export function screenHash(tree: UiTree): string {
  const parts: string[] = [];
  const counted = tree.windows.filter((w) => w.kind !== 'status_bar' && w.kind !== 'navigation_bar');
  const windows = counted.length > 0 ? counted : tree.windows;
  const keep = new Set(windows.map((w) => w.index));
  for (const w of windows) {
    parts.push(`W\u0001${w.kind}\u0001${w.package}\n`);
  }
  for (const n of tree.nodes) {
    if (keep.has(n.window)) {
      parts.push(nodeLine(n));
    }
  }
  return createHash('sha256').update(parts.join('')).digest('hex').slice(0, 16);
}
