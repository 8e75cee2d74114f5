import type { ShellResult } from '../../adb/client.js';
import type { ShellCommand } from '../../adb/shell-command.js';
import { withAdbErrors } from '../adb-errors.js';
import { adbClient } from '../adb-instance.js';

/**
 * One device's shell as the app and device handlers use it: a quoted command in, its outcome out.
 * The handlers take it as a parameter so their logic runs the same on any device shell.
 */
export type DeviceShell = (command: ShellCommand, options?: { timeoutMs?: number }) => Promise<ShellResult>;

/** The shell of `serial` through the adb server, cancelled with `signal`, adb failures as bus errors. */
export function deviceShell(serial: string, signal: AbortSignal): DeviceShell {
  return (command, options = {}) =>
    withAdbErrors(() =>
      adbClient().shell(serial, command, { signal, timeoutMs: options.timeoutMs ?? 30_000 }),
    );
}

/** stdout then stderr, trimmed: what a person would have seen in a terminal. */
export function outputOf(result: ShellResult): string {
  return `${result.stdout}${result.stderr ? `\n${result.stderr}` : ''}`.trim();
}
