/**
 * Evidence: none — the table of filters; grep and sed cite toybox's sources in their own files.
 */
import type { CommandFn } from './command.js';
import { grep } from './builtins-grep.js';
import { sed } from './builtins-sed.js';

/** grep and sed: the filters clients pipe device output into. */
export const FILTER_COMMANDS: ReadonlyMap<string, CommandFn> = new Map([
  ['grep', grep],
  ['egrep', (ctx) => grep({ ...ctx, argv: ['grep', '-E', ...ctx.argv.slice(1)] })],
  ['fgrep', (ctx) => grep({ ...ctx, argv: ['grep', '-F', ...ctx.argv.slice(1)] })],
  ['sed', sed],
]);
