/**
 * The window manager's list beside a capture (issue 52: the device actor's, not a tool's): the
 * capture's windows named, the window read, what covers the app and what the capture lacks.
 */
import type { z } from 'zod';
import type { capturedWindowSchema, windowRefSchema } from '../../../bus/messages/ui.js';
import type { ResponseOf } from '../../../bus/registry.js';

type Windows = ResponseOf<'device.windows'>;
type WindowEntry = Windows['windows'][number];

function ref(w: WindowEntry): z.infer<typeof windowRefSchema> {
  return { title: w.title, package: w.package, kind: w.kind };
}

/**
 * The capture's windows with the window manager's title and type: each capture window takes the
 * first visible window-manager entry of its package not taken yet, one of its kind first (top-most
 * first in the list, so a dialog over its own app is told apart by kind). Neither `uiautomator dump` of the
 * active window nor the helper's page source names windows (AOSP AccessibilityNodeInfoDumper,
 * Appium's AccessibilityNodeInfoDumper put the roots side by side), so `dumpsys window` does.
 */
export function nameWindows<W extends z.infer<typeof capturedWindowSchema>>(
  captured: readonly W[],
  w: Windows | null,
): W[] {
  const taken = new Set<number>();
  return captured.map((c) => {
    const free = (w?.windows ?? []).filter(
      (x) => !taken.has(x.index) && x.visible && x.package === c.package,
    );
    // The capture's kind is inferred from the views; the window manager's from the window type.
    const match = free.find((x) => x.kind === c.kind) ?? free[0];
    if (match !== undefined) {
      taken.add(match.index);
    }
    return { ...c, title: c.title ?? match?.title ?? null, type: c.type ?? match?.type ?? null };
  });
}

/**
 * The captured window, what covers the app, the visible windows the capture lacks (`allWindows`:
 * the reader read every window, as the on-device helper does), and a sentence for the model.
 */
export function windowFacts(
  w: Windows | null,
  allWindows = false,
): {
  captured_window: z.infer<typeof windowRefSchema> | null;
  covering: z.infer<typeof windowRefSchema>[];
  not_captured: z.infer<typeof windowRefSchema>[];
  note: string;
} {
  if (w === null) {
    return { captured_window: null, covering: [], not_captured: [], note: '' };
  }
  const captured = w.windows.find((x) => x.focused) ?? w.system_dialog ?? w.app_window ?? null;
  const appAt = w.app_window === null ? w.windows.length : w.windows.indexOf(w.app_window);
  const covering = w.windows.filter(
    (x, i) =>
      i < appAt &&
      x.visible &&
      (x.kind === 'system_dialog' || x.kind === 'notification_shade' || x.kind === 'input_method') &&
      (x.frame === null || (x.frame.right > x.frame.left && x.frame.bottom > x.frame.top)),
  );
  const parts: string[] = [];
  if (captured !== null) {
    parts.push(`captured window: ${captured.title}${captured.package ? ` (${captured.package})` : ''}`);
  }
  for (const c of covering) {
    parts.push(
      c.kind === 'input_method'
        ? `the keyboard (${c.package ?? '?'}) is open over ${w.app_window?.package ?? 'the app'}`
        : `${c.kind === 'notification_shade' ? 'the notification shade' : `a system dialog "${c.title}" (${c.package ?? '?'})`} covers ${w.app_window?.package ?? 'the app'}`,
    );
  }
  // What a dump of the focused window cannot show: the other windows on screen that hold views
  // an agent may need (the app under a dialog, the keyboard, the shade), not bars or wallpaper.
  const unseen = allWindows
    ? []
    : w.windows.filter(
        (x) =>
          x !== captured &&
          x.visible &&
          ['application', 'system_dialog', 'input_method', 'notification_shade'].includes(x.kind) &&
          (x.frame === null || (x.frame.right > x.frame.left && x.frame.bottom > x.frame.top)),
      );
  const notes = covering.length > 0 ? [parts.join('; ')] : [];
  if (unseen.length > 0) {
    notes.push(
      `not in this capture: ${unseen.map((x) => x.title).join(', ')} (uiautomator dump reads the focused window only; with the on-device helper, which the user installs with droidbus helper install, every window is read)`,
    );
  }
  return {
    captured_window: captured === null ? null : ref(captured),
    covering: covering.map(ref),
    not_captured: unseen.map(ref),
    note: notes.join('; '),
  };
}
