import type { CommandFn } from './command.js';
import { operandInputs } from './operand-inputs.js';
import { breToJs, escapeRegex, posixClasses } from './regex.js';
import { readLines } from './streams.js';

/** `grep` with the options clients pipe device output through (-i -v -c -n -E -F -e -o -q -w -x -l -m -A -B -C). */
export const grep: CommandFn = async (ctx) => {
  const args = ctx.argv.slice(1);
  const patterns: string[] = [];
  const flags = new Set<string>();
  const files: string[] = [];
  let maxCount = Infinity;
  let after = 0;
  let before = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const [name, value] = a.slice(2).split('=', 2) as [string, string | undefined];
      const long: Record<string, string> = {
        'ignore-case': 'i',
        'invert-match': 'v',
        count: 'c',
        'line-number': 'n',
        quiet: 'q',
        silent: 'q',
        'extended-regexp': 'E',
        'fixed-strings': 'F',
        'only-matching': 'o',
        'word-regexp': 'w',
        'line-regexp': 'x',
        'files-with-matches': 'l',
        'no-messages': 's',
      };
      if (name === 'regexp') {
        patterns.push(value ?? args[++i] ?? '');
      } else if (name === 'max-count') {
        maxCount = Number(value ?? args[++i]);
      } else if (name === 'line-buffered' || name === 'color' || name === 'colour') {
        // Output is written line by line anyway.
      } else if (long[name] !== undefined) {
        flags.add(long[name]);
      } else {
        await ctx.stderr.write(`grep: Unknown option '${name}'\n`);
        return 2;
      }
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const f = a.charAt(j);
        if ('emABC'.includes(f)) {
          const v = j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? '');
          if (f === 'e') {
            patterns.push(v);
          } else if (f === 'm') {
            maxCount = Number(v);
          } else if (f === 'A') {
            after = Number(v);
          } else if (f === 'B') {
            before = Number(v);
          } else {
            after = before = Number(v);
          }
          break;
        }
        flags.add(f);
      }
      continue;
    }
    if (patterns.length === 0 && !args.slice(0, i).some((x) => x === '-e' || x.startsWith('--regexp'))) {
      patterns.push(a);
    } else {
      files.push(a);
    }
  }
  if (patterns.length === 0) {
    await ctx.stderr.write('usage: grep [-EFHIab...] PATTERN [FILE...]\n');
    return 2;
  }
  let source = patterns
    .map((p) => {
      const s = flags.has('F') ? escapeRegex(p) : flags.has('E') ? posixClasses(p) : posixClasses(breToJs(p));
      return flags.has('w') ? `(?<![A-Za-z0-9_])(?:${s})(?![A-Za-z0-9_])` : flags.has('x') ? `^(?:${s})$` : s;
    })
    .join('|');
  if (source === '') {
    source = '(?:)';
  }
  let re: RegExp;
  try {
    re = new RegExp(source, flags.has('i') ? 'gi' : 'g');
  } catch {
    await ctx.stderr.write(`grep: bad regex '${patterns[0] ?? ''}'\n`);
    return 2;
  }
  const status = { code: 0 };
  const multi = files.length > 1;
  let matchedAny = false;
  for await (const { name, input } of operandInputs(ctx, files, 'grep', status, flags.has('s'))) {
    let count = 0;
    let lineNo = 0;
    let afterLeft = 0;
    const beforeBuf: string[] = [];
    for await (const line of readLines(input)) {
      lineNo++;
      re.lastIndex = 0;
      const hit = re.test(line) !== flags.has('v');
      if (!hit) {
        if (afterLeft > 0) {
          afterLeft--;
          await ctx.stdout.write(prefix(name, multi, flags, lineNo, '-') + line + '\n');
        } else if (before > 0) {
          beforeBuf.push(line);
          if (beforeBuf.length > before) {
            beforeBuf.shift();
          }
        }
        continue;
      }
      matchedAny = true;
      count++;
      if (flags.has('q')) {
        return 0;
      }
      if (flags.has('l')) {
        await ctx.stdout.write(name + '\n');
        break;
      }
      if (!flags.has('c')) {
        for (let b = 0; b < beforeBuf.length; b++) {
          await ctx.stdout.write(
            prefix(name, multi, flags, lineNo - beforeBuf.length + b, '-') + beforeBuf[b] + '\n',
          );
        }
        beforeBuf.length = 0;
        if (flags.has('o') && !flags.has('v')) {
          re.lastIndex = 0;
          for (const m of line.matchAll(re)) {
            if (m[0] !== '') {
              await ctx.stdout.write(prefix(name, multi, flags, lineNo, ':') + m[0] + '\n');
            }
          }
        } else {
          await ctx.stdout.write(prefix(name, multi, flags, lineNo, ':') + line + '\n');
        }
        afterLeft = after;
      }
      if (count >= maxCount) {
        break;
      }
    }
    if (flags.has('c')) {
      await ctx.stdout.write((multi ? `${name}:` : '') + `${count}\n`);
    }
  }
  return status.code === 2 && !matchedAny ? 2 : matchedAny ? 0 : 1;
};

function prefix(name: string, multi: boolean, flags: Set<string>, lineNo: number, sep: string): string {
  return (multi && !flags.has('h') ? name + sep : '') + (flags.has('n') ? `${lineNo}${sep}` : '');
}
