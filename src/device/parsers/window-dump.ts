/**
 * `dumpsys window windows`: every window the window manager has, top-most first, with its type,
 * package, frame and visibility, and which one has focus. Reads Android 10–15 shapes: `mFrame=` or
 * the `frame=` of a one-line `Frames:`; types by name (`ty=BASE_APPLICATION`) or number
 * (`ty=2040`, the notification shade on Android 11–12); focus from `mCurrentFocus=`, which newer
 * versions print only in `dumpsys window displays` (the caller appends that line).
 */
import type { WindowEntry } from '../../bus/messages/extras.js';

/** Window types by number (WindowManager.LayoutParams), for dumps that print a number. */
const TYPE_BY_NUMBER: Readonly<Record<number, string>> = {
  1: 'BASE_APPLICATION',
  2: 'APPLICATION',
  3: 'APPLICATION_STARTING',
  4: 'DRAWN_APPLICATION',
  1000: 'APPLICATION_PANEL',
  1001: 'APPLICATION_MEDIA',
  1002: 'APPLICATION_SUB_PANEL',
  1003: 'APPLICATION_ATTACHED_DIALOG',
  2000: 'STATUS_BAR',
  2001: 'SEARCH_BAR',
  2002: 'PHONE',
  2003: 'SYSTEM_ALERT',
  2005: 'TOAST',
  2006: 'SYSTEM_OVERLAY',
  2007: 'PRIORITY_PHONE',
  2008: 'SYSTEM_DIALOG',
  2009: 'KEYGUARD_DIALOG',
  2010: 'SYSTEM_ERROR',
  2011: 'INPUT_METHOD',
  2012: 'INPUT_METHOD_DIALOG',
  2013: 'WALLPAPER',
  2014: 'STATUS_BAR_PANEL',
  2015: 'SECURE_SYSTEM_OVERLAY',
  2017: 'STATUS_BAR_SUB_PANEL',
  2019: 'NAVIGATION_BAR',
  2020: 'VOLUME_OVERLAY',
  2024: 'NAVIGATION_BAR_PANEL',
  2027: 'MAGNIFICATION_OVERLAY',
  2032: 'ACCESSIBILITY_OVERLAY',
  2038: 'APPLICATION_OVERLAY',
  2040: 'NOTIFICATION_SHADE',
  2041: 'STATUS_BAR_ADDITIONAL',
};

/** Packages whose application windows are the system asking the user something. */
const DIALOG_PACKAGES = new Set([
  'com.android.permissioncontroller',
  'com.google.android.permissioncontroller',
  'com.android.packageinstaller',
  'com.google.android.packageinstaller',
]);

/**
 * A window's header line, `Window #N Window{…}:`, in every form the window manager has printed
 * (AOSP WindowState.toString): Android 4.0–4.1 `Window{41a7c2a0 StatusBar paused=false}` (no user),
 * 4.2 on `Window{6d67f78 u0 StatusBar}` and ` EXITING}` while it animates out; some OEM builds (Vivo,
 * issue 22) add the window's type, `type=2000`, in the braces. Older builds put a colon after the
 * index (`Window #0: Window{…}`); a header may lack the closing colon.
 */
const WINDOW_HEAD = /^\s*Window #(\d+):? Window\{([0-9a-fA-F]+) (.*)\}:?\s*$/;
const FOCUS_LINE = /^\s*mCurrentFocus=Window\{([0-9a-fA-F]+) (.*)\}\s*$/;

/** The braces' words after the hash: the user (`u0`), an OEM `type=N`, `paused=…`, `EXITING`, the title. */
function splitTitle(raw: string): { title: string; headerType: string | null } {
  const words = raw.split(' ');
  if (/^u-?\d+$/.test(words[0] ?? '')) {
    words.shift();
  }
  let headerType: string | null = null;
  const typeAt = words.findIndex((w) => /^type=\d+$/.test(w));
  if (typeAt >= 0) {
    headerType = words[typeAt]!.slice('type='.length);
    words.splice(typeAt, 1);
  }
  while (words.length > 1 && /^(EXITING|paused=(true|false)|)$/.test(words[words.length - 1]!)) {
    words.pop();
  }
  return { title: words.join(' '), headerType };
}

const RECT = /\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]/;

/** The readable type: a name stays, a number becomes its name when known. */
function typeName(raw: string | null): string | null {
  if (raw === null) {
    return null;
  }
  return /^\d+$/.test(raw) ? (TYPE_BY_NUMBER[Number(raw)] ?? raw) : raw;
}

/** What a window is for a person reading the screen. */
export function windowKind(type: string | null, title: string, pkg: string | null): string {
  if (title === 'NotificationShade' || type === 'NOTIFICATION_SHADE') {
    return 'notification_shade';
  }
  switch (type) {
    case 'INPUT_METHOD':
    case 'INPUT_METHOD_DIALOG':
      return 'input_method';
    case 'STATUS_BAR':
      return 'status_bar';
    case 'NAVIGATION_BAR':
    case 'NAVIGATION_BAR_PANEL':
      return 'navigation_bar';
    case 'SYSTEM_ALERT':
    case 'SYSTEM_DIALOG':
    case 'SYSTEM_ERROR':
    case 'KEYGUARD_DIALOG':
    case 'PRIORITY_PHONE':
    case 'PHONE':
      return 'system_dialog';
    case 'TOAST':
      return 'toast';
    case 'WALLPAPER':
      return 'wallpaper';
    case 'APPLICATION_OVERLAY':
    case 'ACCESSIBILITY_OVERLAY':
    case 'SYSTEM_OVERLAY':
    case 'SECURE_SYSTEM_OVERLAY':
    case 'MAGNIFICATION_OVERLAY':
      return 'overlay';
    default:
      break;
  }
  if (type !== null && /APPLICATION|^\d{1,4}$/.test(type) && (Number(type) || 0) < 2000) {
    return pkg !== null && DIALOG_PACKAGES.has(pkg) ? 'system_dialog' : 'application';
  }
  if (type === null) {
    return pkg !== null && DIALOG_PACKAGES.has(pkg) ? 'system_dialog' : 'unknown';
  }
  return 'system';
}

export interface WindowList {
  windows: WindowEntry[];
  focused: string | null;
}

function rect(m: RegExpExecArray): WindowEntry['frame'] {
  return { left: Number(m[1]), top: Number(m[2]), right: Number(m[3]), bottom: Number(m[4]) };
}

/** Parses the dump; `mCurrentFocus=Window{hash u0 title}` anywhere in the text marks the focused window. */
export function parseWindowDump(text: string): WindowList {
  const lines = text.split(/\r?\n/);
  const blocks: { index: number; hash: string; title: string; headerType: string | null; lines: string[] }[] =
    [];
  let focusHash: string | null = null;
  let focusTitle: string | null = null;
  for (const line of lines) {
    const head = WINDOW_HEAD.exec(line);
    if (head) {
      const { title, headerType } = splitTitle(head[3]!);
      blocks.push({ index: Number(head[1]), hash: head[2]!, title, headerType, lines: [] });
      continue;
    }
    const focus = FOCUS_LINE.exec(line);
    if (focus) {
      focusHash = focus[1]!;
      focusTitle = splitTitle(focus[2]!).title;
      continue;
    }
    blocks[blocks.length - 1]?.lines.push(line);
  }
  const windows = blocks.map((b): WindowEntry => {
    const find = (re: RegExp): RegExpExecArray | null => {
      for (const l of b.lines) {
        const m = re.exec(l);
        if (m) {
          return m;
        }
      }
      return null;
    };
    const pkg = find(/\bpackage=(\S+)/)?.[1] ?? null;
    const type = typeName(find(/\bty=(\S+)/)?.[1] ?? b.headerType);
    const mFrame = find(/\bmFrame=(\[-?\d+,-?\d+\]\[-?\d+,-?\d+\])/);
    const frameInFrames = find(/^\s*Frames:.*\bframe=(\[-?\d+,-?\d+\]\[-?\d+,-?\d+\])/);
    const frameText = mFrame?.[1] ?? frameInFrames?.[1] ?? null;
    const frameMatch = frameText === null ? null : RECT.exec(frameText);
    const visibleFlag = find(/^\s*isVisible=(true|false)/)?.[1] ?? find(/^\s*isOnScreen=(true|false)/)?.[1];
    const visible =
      visibleFlag !== undefined
        ? visibleFlag === 'true'
        : find(/\bmViewVisibility=0x0\b/) !== null && find(/\bmHasSurface=true\b/) !== null;
    return {
      index: b.index,
      title: b.title,
      package: pkg,
      type,
      kind: windowKind(type, b.title, pkg),
      focused: focusHash !== null && b.hash === focusHash && b.title === focusTitle,
      visible,
      frame: frameMatch ? rect(frameMatch) : null,
    };
  });
  return { windows, focused: focusTitle };
}

function area(w: WindowEntry): number {
  const f = w.frame;
  return f === null ? 0 : Math.max(0, f.right - f.left) * Math.max(0, f.bottom - f.top);
}

/** What covers the app: the keyboard, and a system window above the top-most application window. */
export function summarizeWindows(windows: WindowEntry[]): {
  ime_visible: boolean;
  system_dialog: WindowEntry | null;
  app_window: WindowEntry | null;
} {
  const shown = windows.filter((w) => w.visible && (w.frame === null || area(w) > 0));
  const app = shown.find((w) => w.kind === 'application') ?? null;
  const appAt = app === null ? Number.POSITIVE_INFINITY : windows.indexOf(app);
  const dialog =
    shown.find(
      (w) => (w.kind === 'system_dialog' || w.kind === 'notification_shade') && windows.indexOf(w) < appAt,
    ) ?? null;
  return {
    ime_visible: shown.some((w) => w.kind === 'input_method'),
    system_dialog: dialog,
    app_window: app,
  };
}
