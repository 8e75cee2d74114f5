import { errnoText } from '../device/fs.js';
import type { CommandContext, CommandFn } from './command.js';
import { absPath } from './command.js';
import { BytesInput, readLines, type InputStream } from './streams.js';

/** Translates a POSIX basic regular expression into a JavaScript one. */
export function breToJs(re: string): string {
  let out = '';
  for (let i = 0; i < re.length; i++) {
    const c = re.charAt(i);
    if (c === '\\') {
      const n = re.charAt(i + 1);
      i++;
      if ('(){}|+?'.includes(n)) {
        out += n;
      } else if (n === '') {
        out += '\\\\';
      } else {
        out += '\\' + n;
      }
    } else if ('(){}|+?'.includes(c)) {
      out += '\\' + c;
    } else if (c === '[') {
      const end = findBracketEnd(re, i);
      out += re.slice(i, end + 1).replace(/\\/g, '\\\\');
      i = end;
    } else {
      out += c;
    }
  }
  return out;
}

function findBracketEnd(re: string, start: number): number {
  let i = start + 1;
  if (re.charAt(i) === '^') {
    i++;
  }
  if (re.charAt(i) === ']') {
    i++;
  }
  while (i < re.length && re.charAt(i) !== ']') {
    if (re.startsWith('[:', i)) {
      const close = re.indexOf(':]', i + 2);
      i = close < 0 ? i + 1 : close + 2;
      continue;
    }
    i++;
  }
  return i < re.length ? i : re.length - 1;
}

/** POSIX character classes inside brackets become their JavaScript equivalents. */
function posixClasses(src: string): string {
  const map: Record<string, string> = {
    alpha: 'A-Za-z',
    digit: '0-9',
    alnum: 'A-Za-z0-9',
    upper: 'A-Z',
    lower: 'a-z',
    space: ' \\t\\n\\r\\f\\v',
    blank: ' \\t',
    punct: '!-\\/:-@\\[-`{-~',
    xdigit: '0-9A-Fa-f',
  };
  return src.replace(/\[:([a-z]+):\]/g, (m, name: string) => map[name] ?? m);
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

async function* sources(
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

const grep: CommandFn = async (ctx) => {
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
  for await (const { name, input } of sources(ctx, files, 'grep', status, flags.has('s'))) {
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

type SedAddress = { line: number } | { last: true } | { re: RegExp };

interface SedCommand {
  from: SedAddress | null;
  to: SedAddress | null;
  negate: boolean;
  cmd: 'p' | 'd' | 'q' | 's' | '=';
  re?: RegExp;
  replacement?: string;
  global?: boolean;
  print?: boolean;
}

/** Parses a sed script of the commands real clients send: addresses, p, d, q, =, s///[gpi]. */
export function parseSed(script: string, extended: boolean): SedCommand[] {
  const cmds: SedCommand[] = [];
  let i = 0;
  const toRe = (src: string, flagsStr = ''): RegExp =>
    new RegExp(extended ? posixClasses(src) : posixClasses(breToJs(src)), flagsStr);
  const readAddress = (): SedAddress | null => {
    if (/\d/.test(script.charAt(i))) {
      const m = /^\d+/.exec(script.slice(i)) as RegExpExecArray;
      i += m[0].length;
      return { line: Number(m[0]) };
    }
    if (script.charAt(i) === '$') {
      i++;
      return { last: true };
    }
    if (script.charAt(i) === '/' || script.charAt(i) === '\\') {
      const delim = script.charAt(i) === '\\' ? script.charAt(++i) : '/';
      i++;
      const body = readDelimited(delim);
      return { re: toRe(body) };
    }
    return null;
  };
  const readDelimited = (delim: string): string => {
    let body = '';
    while (i < script.length && script.charAt(i) !== delim) {
      if (script.charAt(i) === '\\' && script.charAt(i + 1) === delim) {
        body += delim;
        i += 2;
        continue;
      }
      body += script.charAt(i);
      i++;
    }
    i++;
    return body;
  };
  while (i < script.length) {
    while (/[\s;]/.test(script.charAt(i))) {
      i++;
    }
    if (i >= script.length) {
      break;
    }
    const from = readAddress();
    let to: SedAddress | null = null;
    if (from !== null && script.charAt(i) === ',') {
      i++;
      to = readAddress();
    }
    let negate = false;
    while (script.charAt(i) === ' ') {
      i++;
    }
    if (script.charAt(i) === '!') {
      negate = true;
      i++;
    }
    const c = script.charAt(i++);
    if (c === 'p' || c === 'd' || c === 'q' || c === '=') {
      cmds.push({ from, to, negate, cmd: c });
    } else if (c === 's') {
      const delim = script.charAt(i++);
      const pattern = readDelimited(delim);
      const replacement = readDelimited(delim);
      let flagStr = '';
      while (/[gpiI0-9]/.test(script.charAt(i))) {
        flagStr += script.charAt(i++);
      }
      cmds.push({
        from,
        to,
        negate,
        cmd: 's',
        re: toRe(pattern, (flagStr.includes('g') ? 'g' : '') + (/[iI]/.test(flagStr) ? 'i' : '')),
        replacement,
        global: flagStr.includes('g'),
        print: flagStr.includes('p'),
      });
    } else {
      throw new Error(`bad command '${c}'`);
    }
  }
  return cmds;
}

function sedReplacement(replacement: string): string {
  // sed's & and \1..\9 become JavaScript's $& and $1..$9; a literal $ must be doubled.
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement.charAt(i);
    if (c === '\\' && i + 1 < replacement.length) {
      const n = replacement.charAt(++i);
      out += /\d/.test(n) ? `$${n}` : n === 'n' ? '\n' : n === 't' ? '\t' : n === '&' ? '&' : n;
    } else if (c === '&') {
      out += '$&';
    } else if (c === '$') {
      out += '$$';
    } else {
      out += c;
    }
  }
  return out;
}

const sed: CommandFn = async (ctx) => {
  const args = ctx.argv.slice(1);
  let quiet = false;
  let extended = false;
  const scripts: string[] = [];
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-n' || a === '--quiet') {
      quiet = true;
    } else if (a === '-E' || a === '-r') {
      extended = true;
    } else if (a === '-e') {
      scripts.push(args[++i] ?? '');
    } else if (/^-[nEr]+$/.test(a)) {
      quiet ||= a.includes('n');
      extended ||= /[Er]/.test(a);
    } else if (scripts.length === 0) {
      scripts.push(a);
    } else {
      files.push(a);
    }
  }
  let cmds: SedCommand[];
  try {
    cmds = parseSed(scripts.join('\n'), extended);
  } catch (err) {
    await ctx.stderr.write(`sed: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  const status = { code: 0 };
  const lines: string[] = [];
  for await (const { input } of sources(ctx, files, 'sed', status, false)) {
    for await (const line of readLines(input)) {
      lines.push(line);
    }
  }
  const inRange = new Map<number, boolean>();
  const matches = (a: SedAddress, line: string, n: number): boolean =>
    'line' in a ? a.line === n : 'last' in a ? n === lines.length : a.re.test(line);
  let out = '';
  for (let n = 1; n <= lines.length; n++) {
    let line = lines[n - 1] as string;
    let deleted = false;
    let quit = false;
    for (let ci = 0; ci < cmds.length; ci++) {
      const c = cmds[ci] as SedCommand;
      let selected: boolean;
      if (c.from === null) {
        selected = true;
      } else if (c.to === null) {
        selected = matches(c.from, line, n);
      } else if (inRange.get(ci) === true) {
        selected = true;
        if (('line' in c.to && n >= c.to.line) || matches(c.to, line, n)) {
          inRange.set(ci, false);
        }
      } else if (matches(c.from, line, n)) {
        selected = true;
        inRange.set(ci, !('line' in c.to && n >= c.to.line));
      } else {
        selected = false;
      }
      if (selected === c.negate) {
        continue;
      }
      if (c.cmd === 'p') {
        out += line + '\n';
      } else if (c.cmd === '=') {
        out += `${n}\n`;
      } else if (c.cmd === 'd') {
        deleted = true;
        break;
      } else if (c.cmd === 'q') {
        quit = true;
        break;
      } else if (c.re !== undefined) {
        c.re.lastIndex = 0;
        if (c.re.test(line)) {
          c.re.lastIndex = 0;
          line = line.replace(c.re, sedReplacement(c.replacement ?? ''));
          if (c.print === true) {
            out += line + '\n';
          }
        }
      }
    }
    if (!deleted && !quiet) {
      out += line + '\n';
    }
    if (quit) {
      break;
    }
  }
  await ctx.stdout.write(out);
  return status.code;
};

/** grep and sed: the filters clients pipe device output into. */
export const FILTER_COMMANDS: ReadonlyMap<string, CommandFn> = new Map([
  ['grep', grep],
  ['egrep', (ctx) => grep({ ...ctx, argv: ['grep', '-E', ...ctx.argv.slice(1)] })],
  ['fgrep', (ctx) => grep({ ...ctx, argv: ['grep', '-F', ...ctx.argv.slice(1)] })],
  ['sed', sed],
]);
