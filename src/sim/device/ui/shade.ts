/**
 * Evidence: Notification.java FLAG_AUTO_CANCEL (a tapped notification is cancelled) and System UI's
 * swipe-to-dismiss of clearable rows.
 */
import type { Device, SimNotification } from '../device.js';
import { startActivity } from '../lifecycle.js';
import { ROW_ACTION, shadeTree } from './shade-tree.js';
import { hitPath } from './view.js';

/**
 * What the notification shade does (its tree is shade-tree.ts): a tap opens the notification (its
 * app's launcher activity; a clearable one is cancelled, like AUTO_CANCEL); a sideways swipe on a
 * clearable row dismisses it.
 */

function byId(dev: Device, id: number): SimNotification | undefined {
  return dev.notifications.find((n) => n.id === id);
}

function cancel(dev: Device, n: SimNotification): void {
  const at = dev.notifications.indexOf(n);
  if (at >= 0) {
    dev.notifications.splice(at, 1);
  }
}

/** A tap on a row's action (`notification:ID`): opens its app and cancels a clearable one. */
export function openFromShade(dev: Device, action: string): boolean {
  const [verb, id] = action.split(':');
  if (verb !== ROW_ACTION) {
    return false;
  }
  const n = byId(dev, Number(id));
  dev.ui.shadeOpen = false;
  if (n === undefined) {
    return true;
  }
  if (!n.ongoing) {
    cancel(dev, n);
  }
  const launcher = dev.packages.get(n.pkg)?.info.launcher;
  if (launcher !== null && launcher !== undefined) {
    startActivity(dev, n.pkg, launcher);
  }
  return true;
}

/** A swipe while the shade shows: sideways on a clearable row dismisses it. True when the shade handled it. */
export function swipeInShade(dev: Device, x1: number, y1: number, x2: number, y2: number): boolean {
  if (!dev.ui.shadeOpen) {
    return false;
  }
  const d = dev.display();
  if (Math.abs(x2 - x1) < d.width * 0.25 || Math.abs(x2 - x1) < Math.abs(y2 - y1)) {
    return true;
  }
  const row = hitPath(shadeTree(dev), x1, y1)
    .reverse()
    .find((v) => v.action?.startsWith(`${ROW_ACTION}:`) === true);
  const n = row === undefined ? undefined : byId(dev, Number(row.action!.slice(ROW_ACTION.length + 1)));
  if (n !== undefined && !n.ongoing) {
    cancel(dev, n);
  }
  return true;
}
