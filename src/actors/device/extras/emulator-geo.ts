/**
 * `set_emulator_location`: the emulator console's `geo fix LONGITUDE LATITUDE [ALTITUDE]` (longitude
 * first), sent the way `adb emu` sends it: to 127.0.0.1 on the console port that the serial
 * `emulator-N` names, after `auth <token>` with the token from `~/.emulator_console_auth_token`
 * when that file exists.
 */
import { EmulatorConsoleError, withEmulatorConsole } from '../../../adb/emulator-console.js';
import { BusError } from '../../../bus/errors.js';
import { emulatorConsolePortOf } from '../../../util/app-args.js';

const CONSOLE_TIMEOUT_MS = 10_000;

/** The console port of an emulator serial, or null for any other device. */
export function emulatorConsolePort(serial: string): number | null {
  return emulatorConsolePortOf(serial);
}

/** A coordinate as the console reads it: plain decimal, never exponent notation. */
export function consoleNumber(n: number): string {
  const fixed = n.toFixed(7).replace(/0+$/, '').replace(/\.$/, '');
  return fixed === '-0' ? '0' : fixed;
}

/** The `geo fix` line: longitude, latitude, then the altitude when given. */
export function geoFixCommand(latitude: number, longitude: number, altitude?: number): string {
  const parts = ['geo', 'fix', consoleNumber(longitude), consoleNumber(latitude)];
  if (altitude !== undefined) {
    parts.push(consoleNumber(altitude));
  }
  return parts.join(' ');
}

/** Sends `geo fix` to the emulator behind `serial`; refuses any serial that is not `emulator-N`. */
export async function setEmulatorLocation(
  serial: string,
  latitude: number,
  longitude: number,
  altitude: number | undefined,
  signal: AbortSignal,
): Promise<{ console_port: number; command: string }> {
  const port = emulatorConsolePort(serial);
  if (port === null) {
    throw new BusError(
      'INVALID',
      `${serial} is not an emulator (emulator serials are emulator-N); a real device's location cannot be set over adb`,
    );
  }
  const command = geoFixCommand(latitude, longitude, altitude);
  try {
    const answer = await withEmulatorConsole(port, (session) => session.send(command), {
      signal,
      timeoutMs: CONSOLE_TIMEOUT_MS,
    });
    if (!answer.ok) {
      throw new BusError('FAILED', `the console of ${serial} refused \`${command}\`: ${answer.line}`);
    }
    return { console_port: port, command };
  } catch (err) {
    if (err instanceof BusError) {
      throw err;
    }
    if (err instanceof EmulatorConsoleError && err.kind === 'cancelled') {
      throw new BusError('CANCELLED', 'cancelled');
    }
    if (err instanceof EmulatorConsoleError && err.kind === 'unreachable') {
      throw new BusError('FAILED', `${err.message}. Is the emulator ${serial} running on this machine?`);
    }
    throw new BusError(
      'FAILED',
      `the console of ${serial}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
