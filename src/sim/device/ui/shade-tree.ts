/**
 * The notification shade's view tree (`cmd statusbar expand-notifications`): System UI's window over
 * everything, one clickable row per notification (newest first) with the app's name, the title and
 * the text, as real rows expose them (`android:id/title`, `android:id/text`). What a row does when
 * tapped or swiped is shade.ts's.
 *
 * Evidence: a row exposes the notification template's ids (android:id/title, android:id/text:
 * frameworks/base/core/res/res/layout/notification_template_material_base.xml). No dump of an open
 * shade is in the repo yet, so the row's layout and its place in System UI's window are modelled.
 */
import type { SimNotification } from '../device-parts.js';
import { SYSTEMUI_PACKAGE } from '../packages.js';
import { F, node, type ViewNode } from './view.js';

/** What the shade draws from: the notifications, the display, the apps' labels. */
export interface ShadeSource {
  readonly notifications: readonly SimNotification[];
  display(): { width: number; height: number; density: number };
  readonly packages: ReadonlyMap<string, { info: { label: string } }>;
}

/** A row's action: `notification:ID`. */
export const ROW_ACTION = 'notification';

function rowsInOrder(dev: ShadeSource): SimNotification[] {
  return [...dev.notifications].reverse();
}

/** The shade's view tree; rows that do not fit the screen are not shown. */
export function shadeTree(dev: ShadeSource): ViewNode {
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
