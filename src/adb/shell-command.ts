import { quoteDeviceShellArg } from './quote.js';

declare const shellCommandBrand: unique symbol;

/**
 * A device shell command line whose every non-literal part was quoted. The adb client only runs
 * these, so an unquoted value cannot reach a device shell by mistake.
 */
export type ShellCommand = string & { readonly [shellCommandBrand]: true };

/**
 * Builds a ShellCommand: the template's literal text is trusted code, every interpolated value is
 * quoted as one argument (`sh\`pm path ${pkg}\`` → `pm path 'com.example'` when it needs quotes).
 */
export function sh(strings: TemplateStringsArray, ...values: readonly (string | number)[]): ShellCommand {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += quoteDeviceShellArg(String(value)) + (strings[i + 1] ?? '');
  });
  return out as ShellCommand;
}

/**
 * Builds a ShellCommand from an argument vector: every element is quoted, the command name too
 * (a plain word such as `input` comes out unchanged), so the device runs exactly this argv.
 */
export function shArgv(argv: readonly (string | number)[]): ShellCommand {
  return argv.map((a) => quoteDeviceShellArg(String(a))).join(' ') as ShellCommand;
}
