/**
 * android.view.KeyEvent key codes by name (without the KEYCODE_ prefix).
 *
 * Evidence: frameworks/base/core/java/android/view/KeyEvent.java (the KEYCODE_ constants and their
 * values).
 */
const NAMED: Readonly<Record<string, number>> = {
  UNKNOWN: 0,
  SOFT_LEFT: 1,
  SOFT_RIGHT: 2,
  HOME: 3,
  BACK: 4,
  CALL: 5,
  ENDCALL: 6,
  STAR: 17,
  POUND: 18,
  DPAD_UP: 19,
  DPAD_DOWN: 20,
  DPAD_LEFT: 21,
  DPAD_RIGHT: 22,
  DPAD_CENTER: 23,
  VOLUME_UP: 24,
  VOLUME_DOWN: 25,
  POWER: 26,
  CAMERA: 27,
  CLEAR: 28,
  COMMA: 55,
  PERIOD: 56,
  ALT_LEFT: 57,
  ALT_RIGHT: 58,
  SHIFT_LEFT: 59,
  SHIFT_RIGHT: 60,
  TAB: 61,
  SPACE: 62,
  SYM: 63,
  EXPLORER: 64,
  ENVELOPE: 65,
  ENTER: 66,
  DEL: 67,
  GRAVE: 68,
  MINUS: 69,
  EQUALS: 70,
  LEFT_BRACKET: 71,
  RIGHT_BRACKET: 72,
  BACKSLASH: 73,
  SEMICOLON: 74,
  APOSTROPHE: 75,
  SLASH: 76,
  AT: 77,
  NUM: 78,
  HEADSETHOOK: 79,
  FOCUS: 80,
  PLUS: 81,
  MENU: 82,
  NOTIFICATION: 83,
  SEARCH: 84,
  MEDIA_PLAY_PAUSE: 85,
  MEDIA_STOP: 86,
  MEDIA_NEXT: 87,
  MEDIA_PREVIOUS: 88,
  MEDIA_REWIND: 89,
  MEDIA_FAST_FORWARD: 90,
  MUTE: 91,
  PAGE_UP: 92,
  PAGE_DOWN: 93,
  ESCAPE: 111,
  FORWARD_DEL: 112,
  CTRL_LEFT: 113,
  CTRL_RIGHT: 114,
  CAPS_LOCK: 115,
  SCROLL_LOCK: 116,
  META_LEFT: 117,
  META_RIGHT: 118,
  MOVE_HOME: 122,
  MOVE_END: 123,
  INSERT: 124,
  MEDIA_PLAY: 126,
  MEDIA_PAUSE: 127,
  VOLUME_MUTE: 164,
  SETTINGS: 176,
  APP_SWITCH: 187,
  ASSIST: 219,
  BRIGHTNESS_DOWN: 220,
  BRIGHTNESS_UP: 221,
  SLEEP: 223,
  WAKEUP: 224,
  CUT: 277,
  COPY: 278,
  PASTE: 279,
  ALL_APPS: 284,
};

for (let i = 0; i < 10; i++) {
  (NAMED as Record<string, number>)[String(i)] = 7 + i;
}
for (let i = 0; i < 26; i++) {
  (NAMED as Record<string, number>)[String.fromCharCode(65 + i)] = 29 + i;
}

/** KeyEvent.keyCodeFromString: `KEYCODE_BACK`, `BACK` or `4`; 0 (KEYCODE_UNKNOWN) when unknown. */
export function keyCodeFromString(s: string): number {
  if (/^\d+$/.test(s)) {
    return Number(s);
  }
  const name = s.startsWith('KEYCODE_') ? s.slice('KEYCODE_'.length) : s;
  return NAMED[name] ?? 0;
}
