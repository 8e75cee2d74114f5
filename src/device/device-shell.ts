import type { ShellCommand } from '../adb/shell-command.js';
import type { Device, ShellResult } from './device.js';

/**
 * One device's shell as the app and device handlers use it: a quoted command in, its outcome out.
 * The handlers take it as a parameter so their logic runs the same on any device shell.
 */
export type DeviceShell = (command: ShellCommand, options?: { timeoutMs?: number }) => Promise<ShellResult>;

/** The shell of `device`, cancelled with `signal`, adb failures as bus errors. */
export function deviceShell(device: Device, signal: AbortSignal): DeviceShell {
  return (command, options = {}) => device.shell(command, { signal, timeoutMs: options.timeoutMs ?? 30_000 });
}

/** stdout then stderr, trimmed: what a person would have seen in a terminal. */
export function outputOf(result: ShellResult): string {
  return `${result.stdout}${result.stderr ? `\n${result.stderr}` : ''}`.trim();
}
