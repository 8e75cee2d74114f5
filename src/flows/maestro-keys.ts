/**
 * Maestro's key names and the Android keys they press: maestro-client `KeyCode.kt` (names matched
 * by their description, ignoring case: `KeyCode.getByName`) and `AndroidDriver.pressKey` (the key
 * codes), mobile-dev-inc/maestro v1.39.10. The Android side is the `KEYCODE_*` name droidbus's input
 * takes. Maestro's BACK is also its own command (`back`).
 */
const KEYS: readonly (readonly [maestro: string, android: string])[] = [
  ['Enter', 'KEYCODE_ENTER'],
  ['Backspace', 'KEYCODE_DEL'],
  ['Back', 'KEYCODE_BACK'],
  ['Home', 'KEYCODE_HOME'],
  // AndroidDriver.pressKey sends 276 (KEYCODE_SOFT_SLEEP) for LOCK.
  ['Lock', 'KEYCODE_SOFT_SLEEP'],
  ['Volume Up', 'KEYCODE_VOLUME_UP'],
  ['Volume Down', 'KEYCODE_VOLUME_DOWN'],
  ['Remote Dpad Up', 'KEYCODE_DPAD_UP'],
  ['Remote Dpad Down', 'KEYCODE_DPAD_DOWN'],
  ['Remote Dpad Left', 'KEYCODE_DPAD_LEFT'],
  ['Remote Dpad Right', 'KEYCODE_DPAD_RIGHT'],
  ['Remote Dpad Center', 'KEYCODE_DPAD_CENTER'],
  ['Remote Media Play Pause', 'KEYCODE_MEDIA_PLAY_PAUSE'],
  ['Remote Media Stop', 'KEYCODE_MEDIA_STOP'],
  ['Remote Media Next', 'KEYCODE_MEDIA_NEXT'],
  ['Remote Media Previous', 'KEYCODE_MEDIA_PREVIOUS'],
  ['Remote Media Rewind', 'KEYCODE_MEDIA_REWIND'],
  ['Remote Media Fast Forward', 'KEYCODE_MEDIA_FAST_FORWARD'],
  ['Escape', 'KEYCODE_ESCAPE'],
  ['Power', 'KEYCODE_POWER'],
  ['Tab', 'KEYCODE_TAB'],
  ['Remote System Navigation Up', 'KEYCODE_SYSTEM_NAVIGATION_UP'],
  ['Remote System Navigation Down', 'KEYCODE_SYSTEM_NAVIGATION_DOWN'],
  ['Remote Button A', 'KEYCODE_BUTTON_A'],
  ['Remote Button B', 'KEYCODE_BUTTON_B'],
  ['Remote Menu', 'KEYCODE_MENU'],
  ['TV Input', 'KEYCODE_TV_INPUT'],
  ['TV Input HDMI 1', 'KEYCODE_TV_INPUT_HDMI_1'],
  ['TV Input HDMI 2', 'KEYCODE_TV_INPUT_HDMI_2'],
  ['TV Input HDMI 3', 'KEYCODE_TV_INPUT_HDMI_3'],
];

/** The Android key a Maestro key name presses; null for a name Maestro does not know. */
export function androidKeyOf(maestroName: string): string | null {
  const wanted = maestroName.trim().toLowerCase();
  return KEYS.find(([m]) => m.toLowerCase() === wanted)?.[1] ?? null;
}

/** The Maestro key name for an Android key; null when Maestro cannot press it. */
export function maestroKeyOf(androidKey: string): string | null {
  return KEYS.find(([, a]) => a === androidKey)?.[0] ?? null;
}

/** Maestro's key names, for an error that lists them. */
export const MAESTRO_KEY_NAMES: readonly string[] = KEYS.map(([m]) => m);
