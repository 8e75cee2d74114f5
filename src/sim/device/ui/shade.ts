import type { Device, SimNotification } from '../device.js';
import { startActivity } from '../lifecycle.js';
import { SYSTEMUI_PACKAGE } from '../packages.js';
import { F, hitPath, node, type ViewNode } from './view.js';

/**
 * The notification shade (`cmd statusbar expand-notifications`): System UI's window over everything,
 * one clickable row per notification (newest first) with the app's name, the title and the text, as
 * real rows expose them (`android:id/title`, `android:id/text`). A tap opens the notification (its
 * app's launcher activity; a clearable one is cancelled, like AUTO_CANCEL); a sideways swipe on a
 * clearable row dismisses it.
 */

const ROW_ACTION = 'notification';

function rowsInOrder(dev: Device): SimNotification[] {
  return [...dev.notifications].reverse();
}

/** The shade's view tree; rows that do not fit the screen are not shown. */
export function shadeTree(dev: Device): ViewNode {
  const d = dev.display();
  const dp = (v: number): number => Math.round((v * d.density) / 160);
  const pkg = SYSTEMUI_PACKAGE;
  const children: ViewNode[] = [
    node('android.widget.TextView', pkg, [dp(16), dp(24), d.width - dp(16), dp(64)], {
      id: `${pkg}:id/header_title`,
      text: 'Notifications',
    }),
  ];
  let top = dp(72);
  const rowHeight = dp(96);
  for (const n of rowsInOrder(dev)) {
    if (top + rowHeight > d.height - dp(64)) {
      break;
    }
    const left = dp(8);
    const right = d.width - dp(8);
    children.push(
      node('android.widget.FrameLayout', pkg, [left, top, right, top + rowHeight], {
        id: `${pkg}:id/expandableNotificationRow`,
        desc: `${dev.packages.get(n.pkg)?.info.label ?? n.pkg} notification: ${n.title}`,
        flags: F.ENABLED | F.CLICKABLE | F.LONG_CLICKABLE | F.FOCUSABLE,
        action: `${ROW_ACTION}:${n.id}`,
        children: [
          node('android.widget.TextView', pkg, [left + dp(16), top + dp(8), right - dp(16), top + dp(28)], {
            id: 'android:id/app_name_text',
            text: dev.packages.get(n.pkg)?.info.label ?? n.pkg,
          }),
          node('android.widget.TextView', pkg, [left + dp(16), top + dp(32), right - dp(16), top + dp(56)], {
            id: 'android:id/title',
            text: n.title,
          }),
          node('android.widget.TextView', pkg, [left + dp(16), top + dp(60), right - dp(16), top + dp(84)], {
            id: 'android:id/text',
            text: n.text,
          }),
        ],
      }),
    );
    top += rowHeight + dp(8);
  }
  return node('android.widget.FrameLayout', pkg, [0, 0, d.width, d.height], {
    id: `${pkg}:id/notification_panel`,
    children,
  });
}

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
