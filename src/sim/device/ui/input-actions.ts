/**
 * Evidence: frameworks/base/services/core/java/com/android/server/input/InputShellCommand.java (tap,
 * swipe, keyevent, text) and KeyEvent.java (the key codes); PhoneWindowManager.interceptKeyBeforeQueueing
 * for KEYCODE_SOFT_SLEEP (the user made inactive, setUserInactiveOverrideFromWindowManager: the
 * screen goes off as at its timeout, unless a screen wake lock holds it on) — the key Maestro's
 * AndroidDriver.pressKey sends for LOCK (276).
 */
import { SAMPLE_ACTIVITIES } from '../../sample-app.js';
import { crashPackage } from '../crashes.js';
import type { Device } from '../device.js';
import { startActivity } from '../lifecycle.js';
import { appRequest } from '../app-http.js';
import { appTrust } from '../trust-store.js';
import { WEB_FOCUS } from './screens.js';
import type { ActivityRecord } from './ui-model.js';
import { homeListGeometry } from './screens.js';
import { openFromShade, swipeInShade } from './shade.js';
import { F, hitPath, scrollTarget, tapTarget } from './view.js';

/** Key codes the simulator acts on (android.view.KeyEvent). */
export const KEY = {
  HOME: 3,
  BACK: 4,
  DPAD_CENTER: 23,
  POWER: 26,
  TAB: 61,
  SPACE: 62,
  ENTER: 66,
  DEL: 67,
  FORWARD_DEL: 112,
  MOVE_HOME: 122,
  MOVE_END: 123,
  WAKEUP: 224,
  SLEEP: 223,
  SOFT_SLEEP: 276,
} as const;

const LOGIN = SAMPLE_ACTIVITIES[0];
/** The API key the sample app sends with its requests (an app's build-time key; masked by readers). */
const SAMPLE_API_KEY = 'sk_live_sample_4f9a2c7e1b';
const HOME = SAMPLE_ACTIVITIES[1];
const DETAIL = SAMPLE_ACTIVITIES[2];

/** A tap at screen coordinates: the widget under it acts. */
export function tap(dev: Device, x: number, y: number): void {
  dev.stats.taps++;
  if (!dev.ui.screenOn) {
    return;
  }
  if (dev.ui.loaded !== null) {
    const [next, ...rest] = dev.ui.loaded.onTap ?? [];
    if (next !== undefined) {
      const [l, t, r, b] = next.bounds;
      if (x >= l && x < r && y >= t && y < b) {
        dev.ui.loaded = rest.length > 0 ? { ...next.screen, onTap: rest } : next.screen;
      }
    }
    return;
  }
  // The app under the finger draws the press (a ripple) whether or not the tap does anything.
  dev.renderFrames('tap');
  const tree = dev.currentTree();
  if (hitPath(tree, x, y).some((n) => n.action === 'web')) {
    // A WebView takes the tap to its page (its own focus and clicks) and holds the input focus.
    const rec = dev.topActivity();
    rec.state.focus = WEB_FOCUS;
    dev.webviews.tap(rec, x, y);
    return;
  }
  const target = tapTarget(tree, x, y);
  if (target === null || target.action === undefined) {
    return;
  }
  runAction(dev, target.action);
}

function runAction(dev: Device, action: string): void {
  if (openFromShade(dev, action)) {
    return;
  }
  const rec = dev.topActivity();
  const state = rec.state;
  const [verb, arg = '', extra = ''] = action.split(':');
  switch (verb) {
    case 'focus':
      state.focus = arg;
      dev.ui.imeShown = true;
      return;
    case 'back':
      back(dev);
      return;
    case 'launch': {
      const p = dev.packages.get(arg);
      if (p?.info.launcher !== null && p !== undefined) {
        startActivity(dev, arg, p.info.launcher as string);
      }
      return;
    }
    case 'toggle':
      state.checked[arg] = state.checked[arg] !== true;
      return;
    case 'dialog':
      dev.ui.dialog = null;
      return;
    case 'click':
      break;
    default:
      return;
  }
  const pkg = rec.pkg;
  switch (arg) {
    case 'sign_in': {
      const user = state.fields['username'] ?? '';
      const password = state.fields['password'] ?? '';
      if (user === '' || password === '') {
        state.error = true;
        return;
      }
      state.error = false;
      dev.ui.imeShown = false;
      if (dev.sampleApi === null) {
        startActivity(dev, pkg, HOME, { user });
      } else {
        signIn(dev, rec, user, password);
      }
      return;
    }
    case 'open_details':
      startActivity(dev, pkg, DETAIL, { item: '1' });
      return;
    case 'item':
      startActivity(dev, pkg, DETAIL, { item: extra });
      return;
    case 'crash':
      crashPackage(dev, pkg, 'java');
      return;
  }
}

/**
 * The sample's sign-in against its server (`sim app-server URL`): POST URL/auth with the credentials
 * as JSON and the app's API key; 200 opens the home screen, anything else shows the server's error.
 */
function signIn(dev: Device, rec: ActivityRecord, user: string, password: string): void {
  rec.state.busy = true;
  void appRequest(
    dev.net,
    {
      method: 'POST',
      url: `${dev.sampleApi!.replace(/\/$/, '')}/auth`,
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': SAMPLE_API_KEY },
      body: JSON.stringify({ username: user, password }),
    },
    (host) => appTrust(dev, rec.pkg, host),
  ).then((r) => {
    rec.state.busy = false;
    const pid = dev.procs.forPackage(rec.pkg)?.pid;
    if (pid !== undefined) {
      dev.log.append([
        {
          pid,
          priority: r.ok ? 'I' : 'W',
          tag: 'SampleAuth',
          message: r.ok ? `POST /auth -> ${r.status}` : `POST /auth failed: ${r.error}`,
        },
      ]);
    }
    if (r.ok && r.status === 200) {
      startActivity(dev, rec.pkg, HOME, { user });
      return;
    }
    rec.state.error = true;
    rec.state.errorText = r.ok ? `Sign-in failed (${r.status})` : 'No connection';
  });
}

/** A swipe: scrolls the scrollable view it starts on. */
export function swipe(dev: Device, x1: number, y1: number, x2: number, y2: number): void {
  if (!dev.ui.screenOn || dev.ui.loaded !== null) {
    return;
  }
  if (swipeInShade(dev, x1, y1, x2, y2)) {
    return;
  }
  dev.renderFrames('swipe');
  const target = scrollTarget(dev.currentTree(), x1, y1);
  if (target === null) {
    return;
  }
  const rec = dev.topActivity();
  if (rec.cls !== HOME) {
    return;
  }
  const g = homeListGeometry(dev.screenEnv());
  rec.state.scroll = Math.max(0, Math.min(g.maxScroll, rec.state.scroll + (y1 - y2)));
}

/** BACK: keyboard first, then dialog, then the top activity. */
export function back(dev: Device): void {
  if (dev.ui.loaded !== null) {
    return;
  }
  dev.renderFrames('key');
  dev.ui.back();
}

/** Types text into the focused field (what `input text` and ADBKeyBoard do). False when nothing has focus. */
export function typeText(dev: Device, text: string): boolean {
  const field = dev.topActivity().state.focus;
  if (field === null || dev.ui.loaded !== null || !dev.ui.screenOn) {
    return false;
  }
  if (field === WEB_FOCUS) {
    return dev.webviews.type(dev.topActivity(), text);
  }
  setFieldText(dev, field, text, false);
  return true;
}

/** Sets one field of the top activity, appended or replaced (an accessibility ACTION_SET_TEXT on its node). */
export function setFieldText(dev: Device, field: string, text: string, replace: boolean): void {
  const rec = dev.topActivity();
  rec.state.fields[field] = (replace ? '' : (rec.state.fields[field] ?? '')) + text;
  dev.renderFrames('text');
  if (rec.cls === LOGIN) {
    rec.state.error = false;
  }
}

/** Sets the focused field's text, appended or replaced (an accessibility ACTION_SET_TEXT). False when nothing has focus. */
export function setFocusedText(dev: Device, text: string, replace: boolean): boolean {
  const field = dev.topActivity().state.focus;
  if (field !== null && replace) {
    dev.topActivity().state.fields[field] = '';
  }
  return typeText(dev, text);
}

/** Clears the focused field (ADBKeyBoard's ADB_CLEAR_TEXT). */
export function clearText(dev: Device): void {
  const rec = dev.topActivity();
  if (rec.state.focus !== null) {
    rec.state.fields[rec.state.focus] = '';
  }
}

const LETTER_BASE = 29; // KEYCODE_A
const DIGIT_BASE = 7; // KEYCODE_0

/** One key press. */
export function keyEvent(dev: Device, code: number): void {
  const rec = dev.topActivity();
  const web = {
    [KEY.ENTER]: 'Enter',
    [KEY.DEL]: 'Backspace',
    [KEY.TAB]: 'Tab',
    [KEY.MOVE_END]: 'End',
  } as const;
  const webKey = web[code as keyof typeof web];
  if (rec.state.focus === WEB_FOCUS && webKey !== undefined) {
    dev.webviews.key(rec, webKey);
    return;
  }
  switch (code) {
    case KEY.BACK:
      back(dev);
      return;
    case KEY.HOME:
      dev.ui.home();
      return;
    case KEY.POWER:
      dev.ui.screenOn = !dev.ui.screenOn;
      return;
    case KEY.WAKEUP:
      dev.ui.screenOn = true;
      return;
    case KEY.SLEEP:
      dev.ui.screenOn = false;
      return;
    case KEY.SOFT_SLEEP:
      if (!dev.power.held().some((l) => l.level === 'SCREEN_DIM_WAKE_LOCK')) {
        dev.ui.screenOn = false;
      }
      return;
    case KEY.DEL: {
      const field = rec.state.focus;
      if (field !== null) {
        const chars = [...(rec.state.fields[field] ?? '')];
        chars.pop();
        rec.state.fields[field] = chars.join('');
      }
      return;
    }
    case KEY.TAB: {
      const fields = [...editableIds(dev)];
      if (fields.length > 0) {
        const idx = rec.state.focus === null ? -1 : fields.indexOf(rec.state.focus);
        rec.state.focus = fields[(idx + 1) % fields.length] ?? null;
      }
      return;
    }
    case KEY.ENTER:
      if (rec.cls === LOGIN && rec.state.focus === 'password') {
        runAction(dev, 'click:sign_in');
      }
      return;
    case KEY.SPACE:
      typeText(dev, ' ');
      return;
  }
  if (code >= LETTER_BASE && code < LETTER_BASE + 26) {
    typeText(dev, String.fromCharCode(97 + code - LETTER_BASE));
  } else if (code >= DIGIT_BASE && code < DIGIT_BASE + 10) {
    typeText(dev, String(code - DIGIT_BASE));
  }
}

function* editableIds(dev: Device): Generator<string> {
  const stack = [dev.currentTree()];
  while (stack.length > 0) {
    const n = stack.shift();
    if (n === undefined) {
      break;
    }
    if ((n.flags & F.EDITABLE) !== 0 && n.action?.startsWith('focus:') === true) {
      yield n.action.slice('focus:'.length);
    }
    stack.push(...n.children);
  }
}
