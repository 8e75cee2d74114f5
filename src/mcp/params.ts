import { z } from 'zod';

/** Tool parameters several tools share, with their limits in the schema (never in a handler). */

/** How many items at most: `noun at most (default D, max M)`. */
export function limitParam(noun: string, dflt: number, max: number) {
  return z
    .number()
    .int()
    .min(1)
    .max(max)
    .default(dflt)
    .describe(
      `${noun} at most (default ${dflt.toLocaleString('en-US')}, max ${max.toLocaleString('en-US')})`,
    );
}
