/**
 * Evidence: POSIX utility conventions (XBD 12.2: an operand `-` is standard input; no operand reads
 * standard input).
 */
import { errnoText } from '../device/fs.js';
import type { CommandContext } from './command.js';
import { absPath } from './command.js';
import { BytesInput, type InputStream } from './streams.js';

/** The inputs a filter reads: its file operands (`-` for stdin), or stdin when there are none. */
export async function* operandInputs(
  ctx: CommandContext,
  files: string[],
  cmd: string,
  status: { code: number },
  quiet: boolean,
): AsyncGenerator<{ name: string; input: InputStream }> {
  if (files.length === 0) {
    yield { name: '(standard input)', input: ctx.stdin };
    return;
  }
  for (const f of files) {
    if (f === '-') {
      yield { name: '(standard input)', input: ctx.stdin };
      continue;
    }
    try {
      yield { name: f, input: new BytesInput(ctx.fs.read(absPath(ctx, f))) };
    } catch (err) {
      if (!quiet) {
        await ctx.stderr.write(`${cmd}: ${f}: ${errnoText(err)}\n`);
      }
      status.code = 2;
    }
  }
}
