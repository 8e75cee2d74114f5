/**
 * The view trees of the windows System UI and the keyboard put on screen, as a reader of every
 * window (the UiAutomator2 server with `enableMultiWindows`) sees them. Their shapes follow the real
 * uiautomator2 dump tests/fixtures/ui/facebook-multiwindow.xml: the navigation bar a FrameLayout of
 * three button FrameLayouts, each with a View; the status bar a FrameLayout holding
 * `status_bar_container` › `status_bar` with the clock, a TextView whose text is the time and whose
 * description adds AM/PM (`2:06`, `2:06 PM`). Trimmed: the real ones also carry notification and
 * signal icons. The keyboard is its window's root only: the keys of a real IME are not modelled.
 */
import { SYSTEMUI_PACKAGE } from '../packages.js';
import { node, type ViewNode } from './view.js';

type Frame = readonly [number, number, number, number];

/** The status bar over `frame`, its clock showing `now`'s hours and minutes. */
export function statusBarTree(frame: Frame, now: Date): ViewNode {
  const pkg = SYSTEMUI_PACKAGE;
  const h24 = now.getUTCHours();
  const time = `${h24 % 12 === 0 ? 12 : h24 % 12}:${String(now.getUTCMinutes()).padStart(2, '0')}`;
  const height = frame[3] - frame[1];
  const clock = node(
    'android.widget.TextView',
    pkg,
    [frame[0] + height, frame[1], frame[0] + 3 * height, frame[3]],
    {
      id: `${pkg}:id/clock`,
      text: time,
      desc: `${time} ${h24 < 12 ? 'AM' : 'PM'}`,
    },
  );
  const bar = node('android.widget.FrameLayout', pkg, frame, {
    id: `${pkg}:id/status_bar`,
    children: [clock],
  });
  const container = node('android.widget.FrameLayout', pkg, frame, {
    id: `${pkg}:id/status_bar_container`,
    children: [bar],
  });
  return node('android.widget.FrameLayout', pkg, frame, { children: [container] });
}

/** The navigation bar over `frame`: back, home and overview, each a FrameLayout with a View. */
export function navigationBarTree(frame: Frame): ViewNode {
  const pkg = SYSTEMUI_PACKAGE;
  const [left, top, right, bottom] = frame;
  const third = Math.floor((right - left) / 3);
  const buttons = [0, 1, 2].map((i) => {
    const l = left + i * third;
    const cx = l + Math.floor(third / 2);
    const cy = Math.floor((top + bottom) / 2);
    return node('android.widget.FrameLayout', pkg, [l, top, l + third, bottom], {
      children: [node('android.view.View', pkg, [cx, cy, cx, cy])],
    });
  });
  return node('android.widget.FrameLayout', pkg, frame, { children: buttons });
}

/** The keyboard's window root, of the input method's package. */
export function keyboardTree(frame: Frame, imePackage: string): ViewNode {
  return node('android.widget.FrameLayout', imePackage, frame);
}
