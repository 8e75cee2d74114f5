/**
 * Evidence: none — the shell's entry and its table of built-ins.
 */
import type { CommandFn } from './command.js';
import { FILTER_COMMANDS } from './builtins-filter.js';
import { FS_COMMANDS } from './builtins-fs.js';
import { MISC_COMMANDS } from './builtins-misc.js';
import { stat } from './builtins-stat.js';
import { TEXT_COMMANDS } from './builtins-text.js';
import { dd } from './builtins-dd.js';

export { runShell, SHELL_NAME, type ShellOptions, type Streams } from './interpreter.js';
export type { CommandContext, CommandFn } from './command.js';

/** Every device-independent built-in (text, filters, files, shell utilities). */
export const GENERIC_COMMANDS: ReadonlyMap<string, CommandFn> = new Map([
  ...TEXT_COMMANDS,
  ['dd', dd],
  ...FILTER_COMMANDS,
  ...FS_COMMANDS,
  ...MISC_COMMANDS,
  ['stat', stat],
]);
