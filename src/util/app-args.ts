/**
 * Validators for what the device-admin tools pass to a device or to the SDK's emulator: activity
 * class names, permission names, AVD names, emulator serials, and the orientations. Every device
 * argument is also quoted for the device shell; these rules give clear refusals first.
 */

/** An activity class: fully qualified, or relative to the package (`.LoginActivity`), `$` for nested classes. */
export const ACTIVITY_CLASS_RE = /^\.?[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;

/** A permission name: dotted identifiers with at least one dot (`android.permission.CAMERA`). */
export const PERMISSION_RE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$/;

/**
 * An AVD name as avdmanager accepts it (letters, digits, `.`, `_`, `-`), never starting with `-`
 * or `.`: the name becomes an argument of the emulator binary, where `-…` would be an option.
 */
export const AVD_NAME_RE = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/;

/** An emulator's adb serial: `emulator-` and its console port. */
export const EMULATOR_SERIAL_RE = /^emulator-(\d{2,5})$/;

/** The orientations set_device_orientation knows, with the `user_rotation` each one locks. */
export const ORIENTATIONS = [
  'portrait',
  'landscape',
  'reverse_portrait',
  'reverse_landscape',
  'auto',
] as const;
export type Orientation = (typeof ORIENTATIONS)[number];

/** `Surface.ROTATION_*` of each fixed orientation (auto has none: the accelerometer decides). */
export const ROTATION_OF: Readonly<Record<Exclude<Orientation, 'auto'>, number>> = {
  portrait: 0,
  landscape: 1,
  reverse_portrait: 2,
  reverse_landscape: 3,
};

/** The orientation a locked `user_rotation` stands for. */
export function orientationOfRotation(rotation: number): Exclude<Orientation, 'auto'> | null {
  const hit = (Object.entries(ROTATION_OF) as [Exclude<Orientation, 'auto'>, number][]).find(
    ([, r]) => r === rotation,
  );
  return hit?.[0] ?? null;
}

/** The console port an emulator serial names, or null for any other serial. */
export function emulatorConsolePortOf(serial: string): number | null {
  const m = EMULATOR_SERIAL_RE.exec(serial);
  const port = m ? Number(m[1]) : NaN;
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
}

/**
 * True for a serial adb reaches over the network (`host:port` from `adb connect`, or an mDNS name of
 * wireless debugging): cutting Wi-Fi or turning airplane mode on would drop adb's own connection.
 */
export function isWirelessAdbSerial(serial: string): boolean {
  return (
    /:\d{1,5}$/.test(serial) || serial.includes('._adb-tls-connect._tcp') || serial.includes('._adb._tcp')
  );
}

/**
 * Why a network change must be refused for `serial` (Wi-Fi off or airplane mode on over wireless
 * adb would drop the connection adb uses), or null when it may go ahead.
 */
export function wirelessNetworkRefusal(
  serial: string,
  change: { wifi?: boolean | undefined; airplane_mode?: boolean | undefined },
): string | null {
  if (!isWirelessAdbSerial(serial)) {
    return null;
  }
  const what =
    change.wifi === false ? 'turn Wi-Fi off' : change.airplane_mode === true ? 'turn airplane mode on' : null;
  return what === null
    ? null
    : `${serial} is connected over wireless adb: refusing to ${what}, which would cut the connection droidbus uses to reach it. Use a USB cable or an emulator for offline tests, or turn mobile_data off instead.`;
}
