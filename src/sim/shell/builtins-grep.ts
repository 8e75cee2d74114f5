/**
 * Evidence: toybox/toys/posix/grep.c (the options clients send; exit status 1 when nothing matched, 2
 * on an error).
 */
import type { CommandFn } from './command.js';
import { operandInputs } from './operand-inputs.js';
import { breToJs, escapeRegex, posixClasses } from './regex.js';
import { readLines } from './streams.js';

interface GrepArgs {
  patterns: string[];
  flags: Set<string>;
  files: string[];
  maxCount: number;
  after: number;
  before: number;
}

const LONG_FLAGS: Record<string, string> = {
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

/** The arguments, or the message of an unknown option. */
function parseGrepArgs(args: string[]): GrepArgs | string {
  const g: GrepArgs = { patterns: [], flags: new Set(), files: [], maxCount: Infinity, after: 0, before: 0 };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      g.files.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const [name, value] = a.slice(2).split('=', 2) as [string, string | undefined];
      if (name === 'regexp') {
        g.patterns.push(value ?? args[++i] ?? '');
      } else if (name === 'max-count') {
        g.maxCount = Number(value ?? args[++i]);
      } else if (name === 'line-buffered' || name === 'color' || name === 'colour') {
        // Output is written line by line anyway.
      } else if (Object.hasOwn(LONG_FLAGS, name)) {
        g.flags.add(LONG_FLAGS[name]!);
      } else {
        return `grep: Unknown option '${name}'\n`;
      }
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const f = a.charAt(j);
        if ('emABC'.includes(f)) {
          const v = j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? '');
          if (f === 'e') {
            g.patterns.push(v);
          } else if (f === 'm') {
            g.maxCount = Number(v);
          } else if (f === 'A') {
            g.after = Number(v);
          } else if (f === 'B') {
            g.before = Number(v);
          } else {
            g.after = g.before = Number(v);
          }
          break;
        }
        g.flags.add(f);
      }
      continue;
    }
    if (g.patterns.length === 0 && !args.slice(0, i).some((x) => x === '-e' || x.startsWith('--regexp'))) {
      g.patterns.push(a);
    } else {
      g.files.push(a);
    }
  }
  return g;
}

/** The patterns as one JavaScript regular expression (BRE, ERE or fixed; -w, -x, -i), or null when bad. */
function grepRegex(g: GrepArgs): RegExp | null {
  const { flags } = g;
  const source = g.patterns
    .map((p) => {
      const s = flags.has('F') ? escapeRegex(p) : flags.has('E') ? posixClasses(p) : posixClasses(breToJs(p));
      return flags.has('w') ? `(?<![A-Za-z0-9_])(?:${s})(?![A-Za-z0-9_])` : flags.has('x') ? `^(?:${s})$` : s;
    })
    .join('|');
  try {
    return new RegExp(source === '' ? '(?:)' : source, flags.has('i') ? 'gi' : 'g');
  } catch {
    return null;
  }
}

type Write = (text: string) => Promise<void>;

/** Greps one input; `quiet` when -q matched (grep exits at once). */
async function grepInput(
  g: GrepArgs,
  re: RegExp,
  input: { name: string; input: Parameters<typeof readLines>[0] },
  multi: boolean,
  write: Write,
): Promise<{ matched: boolean; quiet: boolean }> {
  const { flags } = g;
  const { name } = input;
  let count = 0;
  let lineNo = 0;
  let afterLeft = 0;
  const beforeBuf: string[] = [];
  const out = (n: number, sep: string, text: string): Promise<void> =>
    write(prefix(name, multi, flags, n, sep) + text + '\n');
  for await (const line of readLines(input.input)) {
    lineNo++;
    re.lastIndex = 0;
    if (re.test(line) === flags.has('v')) {
      if (afterLeft > 0) {
        afterLeft--;
        await out(lineNo, '-', line);
      } else if (g.before > 0) {
        beforeBuf.push(line);
        if (beforeBuf.length > g.before) {
          beforeBuf.shift();
        }
      }
      continue;
    }
    count++;
    if (flags.has('q')) {
      return { matched: true, quiet: true };
    }
    if (flags.has('l')) {
      await write(name + '\n');
      break;
    }
    if (!flags.has('c')) {
      for (let b = 0; b < beforeBuf.length; b++) {
        await out(lineNo - beforeBuf.length + b, '-', beforeBuf[b]!);
      }
      beforeBuf.length = 0;
      if (flags.has('o') && !flags.has('v')) {
        re.lastIndex = 0;
        for (const m of line.matchAll(re)) {
          if (m[0] !== '') {
            await out(lineNo, ':', m[0]);
          }
        }
      } else {
        await out(lineNo, ':', line);
      }
      afterLeft = g.after;
    }
    if (count >= g.maxCount) {
      break;
    }
  }
  if (flags.has('c')) {
    await write((multi ? `${name}:` : '') + `${count}\n`);
  }
  return { matched: count > 0, quiet: false };
}

/** `grep` with the options clients pipe device output through (-i -v -c -n -E -F -e -o -q -w -x -l -m -A -B -C). */
export const grep: CommandFn = async (ctx) => {
  const g = parseGrepArgs(ctx.argv.slice(1));
  if (typeof g === 'string') {
    await ctx.stderr.write(g);
    return 2;
  }
  if (g.patterns.length === 0) {
    await ctx.stderr.write('usage: grep [-EFHIab...] PATTERN [FILE...]\n');
    return 2;
  }
  const re = grepRegex(g);
  if (re === null) {
    await ctx.stderr.write(`grep: bad regex '${g.patterns[0] ?? ''}'\n`);
    return 2;
  }
  const status = { code: 0 };
  const multi = g.files.length > 1;
  let matchedAny = false;
  for await (const input of operandInputs(ctx, g.files, 'grep', status, g.flags.has('s'))) {
    const r = await grepInput(g, re, input, multi, (text) => ctx.stdout.write(text));
    if (r.quiet) {
      return 0;
    }
    matchedAny ||= r.matched;
  }
  return status.code === 2 && !matchedAny ? 2 : matchedAny ? 0 : 1;
};

function prefix(name: string, multi: boolean, flags: Set<string>, lineNo: number, sep: string): string {
  return (multi && !flags.has('h') ? name + sep : '') + (flags.has('n') ? `${lineNo}${sep}` : '');
}
