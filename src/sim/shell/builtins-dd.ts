/**
 * `dd` as toybox has it (Android 6+, toys/pending/dd.c): `if= of= bs= ibs= obs= skip= count=`
 * operands, a block count with an optional k/m suffix, the data on stdout and the transfer report
 * on stderr (`N+P records in`, `N+P records out`, then the bytes copied) — the report droidbus's
 * range reads rely on going to stderr, apart from the data.
 */
import { errnoText } from '../device/fs.js';
import type { CommandFn } from './command.js';
import { absPath } from './command.js';
import { readAll } from './streams.js';
import { writeChunked } from './builtins-text.js';

const SUFFIX: Readonly<Record<string, number>> = {
  '': 1,
  c: 1,
  w: 2,
  b: 512,
  k: 1024,
  m: 1024 ** 2,
  g: 1024 ** 3,
};

function size(v: string): number | null {
  const m = /^(\d+)([cwbkmg]?)$/i.exec(v);
  return m ? Number(m[1]) * SUFFIX[m[2]!.toLowerCase()]! : null;
}

export const dd: CommandFn = async (ctx) => {
  const ops = new Map<string, string>();
  for (const a of ctx.argv.slice(1)) {
    const eq = a.indexOf('=');
    if (eq <= 0) {
      await ctx.stderr.write(`dd: unknown argument '${a}'\n`);
      return 1;
    }
    ops.set(a.slice(0, eq), a.slice(eq + 1));
  }
  const numbers = new Map<string, number>();
  for (const key of ['bs', 'ibs', 'skip', 'count']) {
    const v = ops.get(key);
    if (v !== undefined) {
      const n = size(v);
      if (n === null) {
        await ctx.stderr.write(`dd: invalid number '${v}'\n`);
        return 1;
      }
      numbers.set(key, n);
    }
  }
  const block = numbers.get('bs') ?? numbers.get('ibs') ?? 512;
  if (block === 0) {
    await ctx.stderr.write("dd: invalid number '0'\n");
    return 1;
  }
  let data: Uint8Array;
  const file = ops.get('if');
  try {
    data = file === undefined ? await readAll(ctx.stdin) : ctx.fs.read(absPath(ctx, file));
  } catch (err) {
    await ctx.stderr.write(`dd: ${file}: ${errnoText(err)}\n`);
    return 1;
  }
  const start = Math.min(data.length, (numbers.get('skip') ?? 0) * block);
  const count = numbers.get('count');
  const end = count === undefined ? data.length : Math.min(data.length, start + count * block);
  const out = data.subarray(start, end);
  await writeChunked(ctx, out);
  const full = Math.floor(out.length / block);
  const partial = out.length % block === 0 ? 0 : 1;
  await ctx.stderr.write(
    `${full}+${partial} records in\n${full}+${partial} records out\n${out.length} bytes (${out.length} B) copied, 0.001 s, 0 B/s\n`,
  );
  return 0;
};
