/**
 * Says whether a soft keyboard or a system dialog covers the app, from the top-level windows of a
 * capture. Only dumps that include several windows (androidx/uiautomator2 dumps, `uiautomator dump
 * --windows`) can show a keyboard; a classic dump shows only the active window, so a system dialog
 * appears there as the only window, from a system package.
 */
import type { UiBounds, UiTree, UiWindow } from '../../../device/ui-dump/ui-types.js';

export interface UiWindowSummary {
  index: number;
  package: string;
  kind: UiWindow['kind'];
  bounds: UiBounds;
}

export interface UiOverlays {
  /** The input method window, when one is on screen. */
  keyboard: UiWindowSummary | null;
  /** A system window (permission dialog, ANR dialog, notification shade…) other than the bars. */
  system_dialog: UiWindowSummary | null;
  /** The package of the largest application window, or null when none is captured. */
  app_package: string | null;
  /** One line for people and models, or '' when nothing covers the app. */
  note: string;
}

function area(b: UiBounds): number {
  return Math.max(0, b.right - b.left) * Math.max(0, b.bottom - b.top);
}

function summary(w: UiWindow): UiWindowSummary {
  return { index: w.index, package: w.package, kind: w.kind, bounds: { ...w.bounds } };
}

/** Finds a keyboard or system dialog among the capture's windows. */
export function detectOverlays(tree: UiTree): UiOverlays {
  const keyboard = tree.windows.find((w) => w.kind === 'input_method' && area(w.bounds) > 0) ?? null;
  const dialog = tree.windows.find((w) => w.kind === 'system' && area(w.bounds) > 0) ?? null;
  const apps = tree.windows.filter((w) => w.kind === 'application');
  const app = apps.reduce<UiWindow | null>(
    (best, w) => (best === null || area(w.bounds) > area(best.bounds) ? w : best),
    null,
  );
  const notes: string[] = [];
  if (dialog) {
    notes.push(`a system window from ${dialog.package} is on screen${app ? ` over ${app.package}` : ''}`);
  }
  if (keyboard) {
    notes.push(
      `the soft keyboard (${keyboard.package}) is open and covers [${keyboard.bounds.left},${keyboard.bounds.top}][${keyboard.bounds.right},${keyboard.bounds.bottom}]`,
    );
  }
  return {
    keyboard: keyboard ? summary(keyboard) : null,
    system_dialog: dialog ? summary(dialog) : null,
    app_package: app?.package ?? null,
    note: notes.join('; '),
  };
}
