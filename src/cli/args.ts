import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from './command.js';

/** node:util parseArgs in strict mode, its errors turned into UsageError (exit 2 with usage). */
export function parseCliArgs<const O extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: O,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
