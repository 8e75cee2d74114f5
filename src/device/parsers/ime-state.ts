/**
 * Whether the soft keyboard shows, from `dumpsys input_method`: the system's own `mInputShown`.
 *
 * A screen capture cannot tell: `uiautomator dump` reads only the focused window, never the IME's.
 * InputMethodManagerService.dump prints `  mInputShown=<bool>` (Android 4–13, on one line with
 * mShowRequested in some releases); from Android 14 ImeVisibilityStateComputer.dump prints it
 * (frameworks/base services/core/java/com/android/server/inputmethod/). appium-adb's
 * isSoftKeyboardPresent reads the same field. The IME's own `mIsInputViewShown` is not used: it
 * stays true on screens without an input field.
 */

/** True or false as the system says, or null when the dump has no `mInputShown` (an OEM's, or denied). */
export function parseImeShown(dump: string): boolean | null {
  let seen: boolean | null = null;
  for (const m of dump.matchAll(/\bmInputShown=(true|false)\b/g)) {
    // Several users or displays print a section each: shown anywhere is shown.
    seen = seen === true || m[1] === 'true';
  }
  return seen;
}
