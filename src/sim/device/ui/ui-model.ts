/**
 * The per-activity state a simulated screen is built from.
 *
 * Evidence: none — state types; their dumps cite ActivityTaskManager's (commands/dumpsys.ts).
 */
import type { ViewNode } from './view.js';

export interface ActivityState {
  /** Text of the editable fields, by short id (`username`). */
  fields: Record<string, string>;
  /** Short id of the focused field. */
  focus: string | null;
  /** Pixels the screen's list is scrolled by. */
  scroll: number;
  /** The login form showed its validation error. */
  error: boolean;
  /** The error the login form shows instead of the validation one (the server's answer). */
  errorText?: string;
  /** A sign-in request is on its way (the form shows progress). */
  busy?: boolean;
  checked: Record<string, boolean>;
  /** Launch parameters (intent extras, the item a detail screen shows). */
  extras: Record<string, string>;
}

export interface ActivityRecord {
  pkg: string;
  /** Fully qualified class name. */
  cls: string;
  /** Identity hash dumpsys prints for the record. */
  hash: string;
  state: ActivityState;
}

export interface Task {
  id: number;
  pkg: string;
  activities: ActivityRecord[];
}

/** A launchable app as the launcher shows it. */
export interface LauncherApp {
  pkg: string;
  label: string;
}

/** What screen builders need to know about the device. */
export interface ScreenEnv {
  width: number;
  height: number;
  density: number;
  /** The font_scale setting (1 when unset). */
  fontScale?: number;
  imeShown: boolean;
  launcherApps: readonly LauncherApp[];
  /** The label of an installed package. */
  labelOf(pkg: string): string;
  /** An app's own locales (`cmd locale set-app-locales`); '' when it follows the system's. */
  localeOf?(pkg: string): string;
  /** The accessibility echo of `rec`'s WebView page at `bounds` (webview/echo.ts); null when none was read. */
  webEcho?(
    rec: ActivityRecord,
    bounds: readonly [number, number, number, number],
    focused: boolean,
  ): ViewNode | null;
}

/** A fresh state for a new activity. */
export function newActivityState(extras: Record<string, string> = {}): ActivityState {
  return { fields: {}, focus: null, scroll: 0, error: false, checked: {}, extras };
}
