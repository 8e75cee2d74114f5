/**
 * Argument vectors for the device's `input` and `am` commands. Every builder validates its input
 * and returns plain argv arrays; the caller joins them with `quoteDeviceShellArg` (src/adb/quote.ts),
 * so nothing here is ever a shell string.
 *
 * `input text` quirks (AOSP `InputShellCommand.sendText`): the argument is typed character by
 * character through the virtual keyboard's key map, so only printable ASCII can be typed; a space
 * must be written as `%s` (an argument with spaces would be split by the device shell on older
 * Androids); and every `%s` in the argument becomes a space, with no escape for a literal `%s`.
 * A text containing a literal `%s` is therefore typed in two commands, split between `%` and `s`:
 * each command decodes on its own, so `…%` followed by `s…` types `%s`.
 */
import { keyCodeOf, KEY_NAMES } from './android-keycodes.js';
import type { UiResult } from '../../../device/ui-dump/ui-types.js';
import { uiFail } from '../../../device/ui-dump/ui-types.js';

/** Most bytes (UTF-8) one typing call may send, as the reference allows. */
export const MAX_TEXT_BYTES = 1000;
/** Coordinates past this are refused (no screen is that large). */
export const MAX_COORDINATE = 100_000;
export const DEFAULT_SWIPE_MS = 300;
export const MAX_SWIPE_MS = 60_000;
/** Plain numbers accepted as key codes. */
export const MAX_NUMERIC_KEYCODE = 300;

export type Argv = string[];

/** Friendly names for common keys, mapped to `KEYCODE_*` names. */
const KEY_ALIASES: Record<string, string> = {
  BACKSPACE: 'DEL',
  DELETE: 'FORWARD_DEL',
  ESC: 'ESCAPE',
  RETURN: 'ENTER',
  UP: 'DPAD_UP',
  DOWN: 'DPAD_DOWN',
  LEFT: 'DPAD_LEFT',
  RIGHT: 'DPAD_RIGHT',
  CENTER: 'DPAD_CENTER',
  OK: 'DPAD_CENTER',
  RECENTS: 'APP_SWITCH',
  RECENT: 'APP_SWITCH',
  VOLUMEUP: 'VOLUME_UP',
  VOLUMEDOWN: 'VOLUME_DOWN',
  PAGEUP: 'PAGE_UP',
  PAGEDOWN: 'PAGE_DOWN',
  NOTIFICATIONS: 'NOTIFICATION',
};

function coordinate(v: number): string | null {
  return Number.isInteger(v) && v >= 0 && v <= MAX_COORDINATE ? String(v) : null;
}

/** `input tap X Y`. Coordinates are device pixels, whole numbers from 0 to 100,000. */
export function tapArgs(x: number, y: number): UiResult<Argv> {
  const xs = coordinate(x);
  const ys = coordinate(y);
  if (xs === null || ys === null) {
    return uiFail(
      'INVALID_ARGUMENT',
      `tap coordinates must be whole numbers from 0 to ${MAX_COORDINATE}, got (${x}, ${y})`,
    );
  }
  return { ok: true, value: ['input', 'tap', xs, ys] };
}

/** `input swipe X1 Y1 X2 Y2 DURATION_MS` (default 300 ms, at most 60 s). */
export function swipeArgs(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  durationMs: number = DEFAULT_SWIPE_MS,
): UiResult<Argv> {
  const coords = [x1, y1, x2, y2].map(coordinate);
  if (coords.some((c) => c === null)) {
    return uiFail(
      'INVALID_ARGUMENT',
      `swipe coordinates must be whole numbers from 0 to ${MAX_COORDINATE}, got (${x1}, ${y1}) → (${x2}, ${y2})`,
    );
  }
  if (!Number.isInteger(durationMs) || durationMs < 0 || durationMs > MAX_SWIPE_MS) {
    return uiFail(
      'INVALID_ARGUMENT',
      `swipe duration must be whole milliseconds from 0 to ${MAX_SWIPE_MS}, got ${durationMs}`,
    );
  }
  return { ok: true, value: ['input', 'swipe', ...(coords as string[]), String(durationMs)] };
}

/**
 * Resolves a key name to what `input keyevent` takes: a `KEYCODE_*` name (with or without the
 * prefix, any case), a friendly alias (`BACK`, `HOME`, `ENTER`, `DEL`, `BACKSPACE`, `TAB`, `ESC`…),
 * or a number from 0 to 300. Anything else is refused.
 */
export function resolveKey(key: string): UiResult<string> {
  const raw = key.trim();
  if (/^\d{1,3}$/.test(raw)) {
    const code = Number(raw);
    if (code <= MAX_NUMERIC_KEYCODE) {
      return { ok: true, value: String(code) };
    }
    return uiFail('INVALID_ARGUMENT', `key code ${code} is out of range (0–${MAX_NUMERIC_KEYCODE})`);
  }
  let name = raw.toUpperCase().replace(/[\s-]+/g, '_');
  if (name.startsWith('KEYCODE_')) {
    name = name.slice('KEYCODE_'.length);
  }
  name = KEY_ALIASES[name.replace(/_/g, '')] ?? KEY_ALIASES[name] ?? name;
  // Only letters, digits and underscores can be a key name; this also keeps anything shell-like out.
  if (!/^[A-Z0-9_]{1,40}$/.test(name) || keyCodeOf(name) === undefined) {
    return uiFail(
      'INVALID_ARGUMENT',
      `unknown key ${JSON.stringify(key.slice(0, 40))}: use a KEYCODE_* name (for example KEYCODE_BACK), an alias (BACK, HOME, ENTER, DEL, TAB, ESCAPE, UP, DOWN…) or a number 0–${MAX_NUMERIC_KEYCODE}`,
    );
  }
  return { ok: true, value: `KEYCODE_${name}` };
}

/** `input keyevent KEY` for a key `resolveKey` accepts. */
export function keyeventArgs(key: string): UiResult<Argv> {
  const k = resolveKey(key);
  return k.ok ? { ok: true, value: ['input', 'keyevent', k.value] } : k;
}

/** All `KEYCODE_*` names `resolveKey` knows (for tool descriptions and tests). */
export function knownKeyNames(): readonly string[] {
  return KEY_NAMES;
}

function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

function checkTextSize(text: string): UiResult<null> {
  if (text.length === 0) {
    return uiFail('INVALID_ARGUMENT', 'text must not be empty');
  }
  const bytes = utf8Length(text);
  if (bytes > MAX_TEXT_BYTES) {
    return uiFail(
      'INVALID_ARGUMENT',
      `text is ${bytes} bytes; at most ${MAX_TEXT_BYTES} bytes can be typed in one call`,
    );
  }
  return { ok: true, value: null };
}

/** What `input text` decodes an argument to (`%s` → space), for tests and the simulator. */
export function decodeInputText(arg: string): string {
  return arg.replace(/%s/g, ' ');
}

/**
 * `input text` commands that type `text` exactly: printable ASCII only (non-ASCII needs
 * `unicodeTextArgs`; newlines and tabs need `keyeventArgs('ENTER' | 'TAB')`). Usually one command;
 * one more for each literal `%s` in the text (see the module comment).
 */
export function typeTextArgs(text: string): UiResult<Argv[]> {
  const size = checkTextSize(text);
  if (!size.ok) {
    return size;
  }
  const bad = /[^\x20-\x7e]/.exec(text);
  if (bad !== null) {
    const cp = bad[0].codePointAt(0) ?? 0;
    const what =
      cp < 0x20 || cp === 0x7f
        ? `control character U+${cp.toString(16).padStart(4, '0').toUpperCase()}`
        : `non-ASCII character ${JSON.stringify(bad[0])}`;
    return uiFail(
      'INVALID_ARGUMENT',
      `input text can only type printable ASCII; the text has a ${what} at position ${bad.index}. Use the unicode typing tool for non-ASCII text, and send_ui_key ENTER or TAB for line breaks and tabs`,
    );
  }
  const chunks: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === 's' && text.charAt(i - 1) === '%') {
      // A literal "%s": end this command after the '%' so 's' starts the next one.
      chunks.push(current);
      current = '';
    }
    current += c === ' ' ? '%s' : c;
  }
  chunks.push(current);
  return { ok: true, value: chunks.map((c) => ['input', 'text', c]) };
}

/**
 * The ADBKeyBoard broadcast that types any Unicode text into the focused field:
 * `am broadcast -a ADB_INPUT_B64 --es msg BASE64(UTF-8)`. Base64 keeps the text free of anything a
 * shell or `am` could read specially. Needs the ADBKeyBoard IME installed and selected.
 */
export function unicodeTextArgs(text: string): UiResult<Argv> {
  const size = checkTextSize(text);
  if (!size.ok) {
    return size;
  }
  if (/[\uD800-\uDFFF]/.test(text.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''))) {
    return uiFail('INVALID_ARGUMENT', 'text holds a lone UTF-16 surrogate, which is not a character');
  }
  const b64 = Buffer.from(text, 'utf8').toString('base64');
  return { ok: true, value: ['am', 'broadcast', '-a', 'ADB_INPUT_B64', '--es', 'msg', b64] };
}

/** Keys per `input keyevent` command when deleting, so no command line grows long. */
export const KEYS_PER_COMMAND = 50;
export const MAX_DELETE_CHARS = 1000;

/**
 * `input keyevent` commands that empty the focused field without a special keyboard: move to the
 * end, then `count` deletions (1–1,000; use the field's text length), at most 50 keys per command.
 * `input keyevent` takes several keys in one call on Android 6 and later.
 */
export function deleteTextArgs(count: number): UiResult<Argv[]> {
  if (!Number.isInteger(count) || count < 1 || count > MAX_DELETE_CHARS) {
    return uiFail(
      'INVALID_ARGUMENT',
      `count must be a whole number from 1 to ${MAX_DELETE_CHARS}, got ${count}`,
    );
  }
  const keys = ['KEYCODE_MOVE_END', ...Array<string>(count).fill('KEYCODE_DEL')];
  const out: Argv[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_COMMAND) {
    out.push(['input', 'keyevent', ...keys.slice(i, i + KEYS_PER_COMMAND)]);
  }
  return { ok: true, value: out };
}

/** The ADBKeyBoard broadcast that clears the focused field. */
export function clearTextBroadcastArgs(): Argv {
  return ['am', 'broadcast', '-a', 'ADB_CLEAR_TEXT'];
}
