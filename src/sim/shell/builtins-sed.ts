/**
 * Evidence: toybox/toys/posix/sed.c and POSIX sed (addresses, p, d, q, =, s///).
 */
import type { CommandFn } from './command.js';
import { operandInputs } from './operand-inputs.js';
import { breToJs, posixClasses } from './regex.js';
import { readLines } from './streams.js';

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

/** `sed` with addresses (N, $, /re/, ranges) and the p, d, q, = and s/// commands; -n, -e, -E. */
export const sed: CommandFn = async (ctx) => {
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
  for await (const { input } of operandInputs(ctx, files, 'sed', status, false)) {
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
