/**
 * Evidence: toybox's echo, printf, cat, head, tail, wc, base64, cut, tr, sort and uniq
 * (toybox/toys/posix/*.c, toys/other/base64.c); mksh's echo (external/mksh/src/funcs.c).
 */
import { errnoText } from '../device/fs.js';
import type { CommandContext, CommandFn } from './command.js';
import { absPath } from './command.js';
import { echoEscapes, formatPrintf } from './format-escapes.js';
import { BytesInput, readAll, readLines, toText, type InputStream } from './streams.js';

const CHUNK = 64 * 1024;

/** Writes bytes in bounded chunks so one huge file does not become one huge transport write. */
export async function writeChunked(ctx: CommandContext, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length; at += CHUNK) {
    await ctx.stdout.write(bytes.subarray(at, Math.min(bytes.length, at + CHUNK)));
  }
}

/** The inputs named by file operands (`-` or none: stdin); missing files are reported and skipped. */
async function* inputs(
  ctx: CommandContext,
  files: string[],
  name: string,
  status: { code: number },
): AsyncGenerator<{ name: string; input: InputStream }> {
  if (files.length === 0) {
    yield { name: '-', input: ctx.stdin };
    return;
  }
  for (const f of files) {
    if (f === '-') {
      yield { name: '-', input: ctx.stdin };
      continue;
    }
    try {
      yield { name: f, input: new BytesInput(ctx.fs.read(absPath(ctx, f))) };
    } catch (err) {
      await ctx.stderr.write(`${name}: ${f}: ${errnoText(err)}\n`);
      status.code = 1;
    }
  }
}

/** Splits argv into short flags (with values for the letters in `withValue`) and operands. */
export function parseFlags(args: string[], withValue = ''): { flags: Map<string, string>; rest: string[] } {
  const flags = new Map<string, string>();
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      rest.push(...args.slice(i + 1));
      break;
    }
    if (a.length < 2 || !a.startsWith('-') || /^-\d/.test(a)) {
      rest.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const f = a.charAt(j);
      if (withValue.includes(f)) {
        const v = j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? '');
        flags.set(f, v);
        break;
      }
      flags.set(f, '');
    }
  }
  return { flags, rest };
}

const echo: CommandFn = async (ctx) => {
  const args = ctx.argv.slice(1);
  let newline = true;
  let escapes = true;
  while (args.length > 0 && /^-[neE]+$/.test(args[0] as string)) {
    const opt = args.shift() as string;
    for (const f of opt.slice(1)) {
      if (f === 'n') {
        newline = false;
      } else if (f === 'e') {
        escapes = true;
      } else {
        escapes = false;
      }
    }
  }
  let text = args.join(' ');
  if (escapes) {
    const r = echoEscapes(text);
    text = r.text;
    if (r.stop) {
      newline = false;
    }
  }
  await ctx.stdout.write(newline ? text + '\n' : text);
  return 0;
};

const printf: CommandFn = async (ctx) => {
  const [format, ...args] = ctx.argv.slice(1);
  if (format === undefined) {
    await ctx.stderr.write('printf: Need 1 argument\n');
    return 1;
  }
  const r = formatPrintf(format, args);
  await ctx.stdout.write(r.text);
  for (const e of r.errors) {
    await ctx.stderr.write(e + '\n');
  }
  return r.errors.length > 0 ? 1 : 0;
};

const cat: CommandFn = async (ctx) => {
  const { rest } = parseFlags(ctx.argv.slice(1));
  const status = { code: 0 };
  for await (const { input } of inputs(ctx, rest, 'cat', status)) {
    if (input instanceof BytesInput) {
      await writeChunked(ctx, await readAll(input));
      continue;
    }
    for (let c = await input.read(); c !== null; c = await input.read()) {
      await ctx.stdout.write(c);
    }
  }
  return status.code;
};

function lineCount(flags: Map<string, string>, rest: string[]): { n: number; rest: string[] } {
  let n = 10;
  const v = flags.get('n');
  const operands = [...rest];
  if (v !== undefined) {
    n = Number.parseInt(v, 10);
  } else if (operands[0] !== undefined && /^-\d+$/.test(operands[0])) {
    n = Number.parseInt((operands.shift() as string).slice(1), 10);
  }
  return { n: Number.isNaN(n) ? 10 : n, rest: operands };
}

const head: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1), 'nc');
  const status = { code: 0 };
  const bytesLimit = flags.get('c');
  const { n, rest: files } = lineCount(flags, rest);
  for await (const { input } of inputs(ctx, files, 'head', status)) {
    if (bytesLimit !== undefined) {
      const data = await readAll(input);
      await ctx.stdout.write(data.subarray(0, Number.parseInt(bytesLimit, 10)));
      continue;
    }
    let left = n;
    if (left <= 0) {
      continue;
    }
    for await (const line of readLines(input)) {
      await ctx.stdout.write(line + '\n');
      if (--left <= 0) {
        break;
      }
    }
  }
  return status.code;
};

const tail: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1), 'nc');
  const status = { code: 0 };
  const bytes = flags.get('c');
  flags.delete('c');
  let from: number | null = null;
  const nv = flags.get('n');
  if (nv !== undefined && nv.startsWith('+')) {
    from = Number.parseInt(nv.slice(1), 10);
    flags.delete('n');
  }
  const { n, rest: files } = lineCount(flags, rest);
  for await (const { input } of inputs(ctx, files, 'tail', status)) {
    const data = await readAll(input);
    if (bytes !== undefined) {
      // toybox: `-c N` the last N bytes, `-c +N` from byte N (1-based).
      const count = Number.parseInt(bytes.replace(/^[+-]/, ''), 10) || 0;
      await writeChunked(
        ctx,
        bytes.startsWith('+')
          ? data.subarray(Math.max(0, count - 1))
          : data.subarray(Math.max(0, data.length - count)),
      );
      continue;
    }
    const text = toText(data);
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') {
      lines.pop();
    }
    const picked = from !== null ? lines.slice(Math.max(0, from - 1)) : n === 0 ? [] : lines.slice(-n);
    if (picked.length > 0) {
      await ctx.stdout.write(
        picked.join('\n') + (text.endsWith('\n') || picked.length < lines.length ? '\n' : ''),
      );
    }
  }
  return status.code;
};

const wc: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1));
  const status = { code: 0 };
  const all = !flags.has('l') && !flags.has('w') && !flags.has('c') && !flags.has('m');
  const rows: string[] = [];
  for await (const { name, input } of inputs(ctx, rest, 'wc', status)) {
    const bytes = await readAll(input);
    const text = toText(bytes);
    const cols: number[] = [];
    if (all || flags.has('l')) {
      cols.push((text.match(/\n/g) ?? []).length);
    }
    if (all || flags.has('w')) {
      cols.push(text.split(/\s+/).filter((w) => w !== '').length);
    }
    if (all || flags.has('c') || flags.has('m')) {
      cols.push(flags.has('m') ? [...text].length : bytes.length);
    }
    // toybox pads every column but the first of a lone count to width 7.
    const body =
      cols.length === 1 && name === '-'
        ? String(cols[0])
        : cols.map((c, i) => (i === 0 && cols.length === 1 ? String(c) : String(c).padStart(7))).join(' ');
    rows.push(name === '-' ? body : `${body} ${name}`);
  }
  await ctx.stdout.write(rows.map((r) => r + '\n').join(''));
  return status.code;
};

const base64: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1), 'w');
  const status = { code: 0 };
  const wrap = flags.has('w') ? Number.parseInt(flags.get('w') ?? '76', 10) : 76;
  for await (const { input } of inputs(ctx, rest, 'base64', status)) {
    const data = await readAll(input);
    if (flags.has('d')) {
      await ctx.stdout.write(Buffer.from(toText(data).replace(/\s+/g, ''), 'base64'));
      continue;
    }
    const encoded = Buffer.from(data).toString('base64');
    if (wrap <= 0) {
      await ctx.stdout.write(encoded + '\n');
    } else {
      const lines: string[] = [];
      for (let i = 0; i < encoded.length; i += wrap) {
        lines.push(encoded.slice(i, i + wrap));
      }
      await ctx.stdout.write(lines.map((l) => l + '\n').join(''));
    }
  }
  return status.code;
};

/** Parses `1,3-5,7-` into a predicate over 1-based positions. */
function ranges(spec: string): (i: number) => boolean {
  const parts = spec.split(',').map((p) => {
    const m = /^(\d*)(-?)(\d*)$/.exec(p);
    if (m === null) {
      return [0, -1] as const;
    }
    const a = m[1] === '' ? 1 : Number(m[1]);
    const b = m[2] === '' ? a : m[3] === '' ? Infinity : Number(m[3]);
    return [a, b] as const;
  });
  return (i) => parts.some(([a, b]) => i >= a && i <= b);
}

const cut: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1), 'dfcb');
  const status = { code: 0 };
  const delim = flags.get('d') ?? '\t';
  const fieldSpec = flags.get('f');
  const charSpec = flags.get('c') ?? flags.get('b');
  if (fieldSpec === undefined && charSpec === undefined) {
    await ctx.stderr.write('cut: Needs -fcb\n');
    return 1;
  }
  const pick = ranges(fieldSpec ?? charSpec ?? '');
  for await (const { input } of inputs(ctx, rest, 'cut', status)) {
    for await (const line of readLines(input)) {
      let outLine: string;
      if (fieldSpec !== undefined) {
        if (!line.includes(delim)) {
          outLine = flags.has('s') ? '' : line;
          if (flags.has('s')) {
            continue;
          }
        } else {
          outLine = line
            .split(delim)
            .filter((_, i) => pick(i + 1))
            .join(delim);
        }
      } else {
        outLine = [...line].filter((_, i) => pick(i + 1)).join('');
      }
      await ctx.stdout.write(outLine + '\n');
    }
  }
  return status.code;
};

const tr: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1));
  const expand = (set: string): string[] => {
    const chars: string[] = [];
    const s = set.replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\r/g, '\r').replace(/\\\\/g, '\\');
    const named: Record<string, string> = {
      '[:upper:]': 'A-Z',
      '[:lower:]': 'a-z',
      '[:digit:]': '0-9',
      '[:space:]': ' \t\n\r\v\f',
      '[:alpha:]': 'a-zA-Z',
      '[:alnum:]': 'a-zA-Z0-9',
    };
    const src = s.replace(/\[:[a-z]+:\]/g, (m) => named[m] ?? m);
    for (let i = 0; i < src.length; i++) {
      const c = src.charAt(i);
      if (src.charAt(i + 1) === '-' && i + 2 < src.length) {
        const end = src.charCodeAt(i + 2);
        for (let code = c.charCodeAt(0); code <= end; code++) {
          chars.push(String.fromCharCode(code));
        }
        i += 2;
      } else {
        chars.push(c);
      }
    }
    return chars;
  };
  const from = expand(rest[0] ?? '');
  const to = expand(rest[1] ?? '');
  const text = toText(await readAll(ctx.stdin));
  let result = '';
  const fromSet = new Set(from);
  let last = '';
  for (const c of text) {
    if (flags.has('d')) {
      if (!fromSet.has(c)) {
        result += c;
      }
      continue;
    }
    const idx = from.indexOf(c);
    const mapped = idx < 0 || to.length === 0 ? c : (to[Math.min(idx, to.length - 1)] as string);
    if (flags.has('s') && mapped === last && (to.length === 0 ? fromSet.has(c) : to.includes(mapped))) {
      continue;
    }
    result += mapped;
    last = mapped;
  }
  await ctx.stdout.write(result);
  return 0;
};

const sort: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1), 'kt');
  const status = { code: 0 };
  const lines: string[] = [];
  for await (const { input } of inputs(ctx, rest, 'sort', status)) {
    for await (const line of readLines(input)) {
      lines.push(line);
    }
  }
  const numeric = flags.has('n');
  lines.sort((a, b) =>
    numeric
      ? Number.parseFloat(a) - Number.parseFloat(b) || (a < b ? -1 : a > b ? 1 : 0)
      : a < b
        ? -1
        : a > b
          ? 1
          : 0,
  );
  if (flags.has('r')) {
    lines.reverse();
  }
  const result = flags.has('u') ? lines.filter((l, i) => i === 0 || l !== lines[i - 1]) : lines;
  await ctx.stdout.write(result.map((l) => l + '\n').join(''));
  return status.code;
};

const uniq: CommandFn = async (ctx) => {
  const { flags, rest } = parseFlags(ctx.argv.slice(1));
  const status = { code: 0 };
  let prev: string | null = null;
  let count = 0;
  const emit = async (): Promise<void> => {
    if (prev !== null) {
      await ctx.stdout.write(flags.has('c') ? `${String(count).padStart(7)} ${prev}\n` : `${prev}\n`);
    }
  };
  for await (const { input } of inputs(ctx, rest.slice(0, 1), 'uniq', status)) {
    for await (const line of readLines(input)) {
      if (line === prev) {
        count++;
        continue;
      }
      await emit();
      prev = line;
      count = 1;
    }
  }
  await emit();
  return status.code;
};

/** The text utilities. */
export const TEXT_COMMANDS: ReadonlyMap<string, CommandFn> = new Map([
  ['echo', echo],
  ['printf', printf],
  ['cat', cat],
  ['head', head],
  ['tail', tail],
  ['wc', wc],
  ['base64', base64],
  ['cut', cut],
  ['tr', tr],
  ['sort', sort],
  ['uniq', uniq],
]);
