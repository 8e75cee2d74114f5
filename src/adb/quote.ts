/**
 * Quotes one argument for the device's `/system/bin/sh` (mksh/toybox sh) so that it is read back as
 * exactly this one argument, whatever it contains. `adb shell` joins its arguments with spaces and
 * the device shell parses the line again, so every non-literal argument must pass through here.
 *
 * Single quotes suppress every expansion in POSIX sh; a single quote itself is written as `'\''`.
 */
export function quoteDeviceShellArg(arg: string): string {
  if (arg.includes('\0')) {
    // A NUL cannot travel through a shell command line at all; refusing is the only honest answer.
    throw new Error('a device shell argument cannot contain a NUL character');
  }
  if (arg.length > 0 && /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) {
    return arg;
  }
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}
