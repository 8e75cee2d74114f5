import type { CommandContext, CommandFn } from './command.js';
import { absPath } from './command.js';
import { readAll, toText } from './streams.js';

/** Waits `ms` or until the signal aborts; resolves true when the full time passed. */
export function sleepFor(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const sleep: CommandFn = async (ctx) => {
  const arg = ctx.argv[1];
  const m = arg === undefined ? null : /^(\d*\.?\d+)([smhd]?)$/.exec(arg);
  if (m === null) {
    await ctx.stderr.write(`sleep: invalid number '${arg ?? ''}'\n`);
    return 1;
  }
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
  const completed = await sleepFor(Number(m[1]) * unit * 1000, ctx.signal);
  return completed ? 0 : 130;
};

const which: CommandFn = async (ctx) => {
  let status = 0;
  let out = '';
  for (const name of ctx.argv.slice(1)) {
    if (name.startsWith('-')) {
      continue;
    }
    if (
      ctx.hasCommand(name) &&
      !['cd', 'exit', 'export', 'set', 'unset', 'shift', 'eval', 'exec', 'read', 'wait', 'trap'].includes(
        name,
      )
    ) {
      out += `/system/bin/${name}\n`;
    } else {
      status = 1;
    }
  }
  await ctx.stdout.write(out);
  return status;
};

const sh: CommandFn = async (ctx) => {
  const args = ctx.argv.slice(1);
  while (args[0] !== undefined && /^-[eux]+$/.test(args[0])) {
    args.shift();
  }
  if (args[0] === '-c') {
    const script = args[1];
    if (script === undefined) {
      await ctx.stderr.write(`${ctx.argv[0] ?? 'sh'}: -c: option requires an argument\n`);
      return 1;
    }
    return ctx.runScript(script, args[2] ?? ctx.argv[0] ?? 'sh', args.slice(3));
  }
  if (args[0] !== undefined) {
    let script: string;
    try {
      script = toText(ctx.fs.read(absPath(ctx, args[0])));
    } catch {
      await ctx.stderr.write(`${ctx.argv[0] ?? 'sh'}: ${args[0]}: No such file or directory\n`);
      return 127;
    }
    return ctx.runScript(script, args[0], args.slice(1));
  }
  // A script on stdin, as `adb shell` without a command would run interactively.
  return ctx.runScript(toText(await readAll(ctx.stdin)));
};

function testExpr(ctx: CommandContext, args: string[]): boolean {
  const exists = (p: string): ReturnType<CommandContext['fs']['tryResolve']> => {
    try {
      return ctx.fs.tryResolve(absPath(ctx, p), true);
    } catch {
      return null;
    }
  };
  const orParts = splitOn(args, '-o');
  if (orParts.length > 1) {
    return orParts.some((p) => testExpr(ctx, p));
  }
  const andParts = splitOn(args, '-a');
  if (andParts.length > 1) {
    return andParts.every((p) => testExpr(ctx, p));
  }
  if (args[0] === '!') {
    return !testExpr(ctx, args.slice(1));
  }
  if (args[0] === '(' && args[args.length - 1] === ')') {
    return testExpr(ctx, args.slice(1, -1));
  }
  if (args.length === 0) {
    return false;
  }
  if (args.length === 1) {
    return (args[0] as string) !== '';
  }
  if (args.length === 2) {
    const [op, v] = args as [string, string];
    switch (op) {
      case '-z':
        return v === '';
      case '-n':
        return v !== '';
      case '-e':
        return exists(v) !== null;
      case '-f':
        return exists(v)?.node.type === 'file';
      case '-d':
        return exists(v)?.node.type === 'dir';
      case '-s': {
        const r = exists(v);
        return r !== null && r.node.type === 'file' && (r.node.data?.length ?? 0) > 0;
      }
      case '-L':
      case '-h':
        try {
          return ctx.fs.tryResolve(absPath(ctx, v), false)?.node.type === 'link';
        } catch {
          return false;
        }
      case '-r': {
        const r = exists(v);
        return r !== null && ctx.fs.canRead(r.node);
      }
      case '-w': {
        const r = exists(v);
        return r !== null && ctx.fs.canWrite(r.node);
      }
      case '-x': {
        const r = exists(v);
        return r !== null && (r.node.perm & 0o111) !== 0;
      }
      case '-c':
        return exists(v)?.node.type === 'chr';
      default:
        return false;
    }
  }
  const [a, op, b] = args as [string, string, string];
  const na = Number.parseInt(a, 10);
  const nb = Number.parseInt(b, 10);
  switch (op) {
    case '=':
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '-eq':
      return na === nb;
    case '-ne':
      return na !== nb;
    case '-lt':
      return na < nb;
    case '-le':
      return na <= nb;
    case '-gt':
      return na > nb;
    case '-ge':
      return na >= nb;
    case '<':
      return a < b;
    case '>':
      return a > b;
    default:
      return false;
  }
}

function splitOn(args: string[], sep: string): string[][] {
  const parts: string[][] = [[]];
  for (const a of args) {
    if (a === sep) {
      parts.push([]);
    } else {
      (parts[parts.length - 1] as string[]).push(a);
    }
  }
  return parts;
}

const test: CommandFn = (ctx) => Promise.resolve(testExpr(ctx, ctx.argv.slice(1)) ? 0 : 1);

const bracket: CommandFn = async (ctx) => {
  const args = ctx.argv.slice(1);
  if (args[args.length - 1] !== ']') {
    await ctx.stderr.write('[: missing ]\n');
    return 2;
  }
  return testExpr(ctx, args.slice(0, -1)) ? 0 : 1;
};

const env: CommandFn = async (ctx) => {
  const args = ctx.argv.slice(1);
  const assigns: [string, string][] = [];
  while (args[0] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[0])) {
    const a = args.shift() as string;
    const eq = a.indexOf('=');
    assigns.push([a.slice(0, eq), a.slice(eq + 1)]);
  }
  if (args.length > 0) {
    const prefix = assigns.map(([k, v]) => `${k}=${quoteForReplay(v)} `).join('');
    return ctx.runScript(prefix + args.map(quoteForReplay).join(' '));
  }
  const lines = [...ctx.env.entries(), ...assigns].map(([k, v]) => `${k}=${v}\n`);
  await ctx.stdout.write(lines.join(''));
  return 0;
};

function quoteForReplay(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function pad(n: number, w = 2, c = '0'): string {
  return String(n).padStart(w, c);
}

/** strftime for the conversions `date +FORMAT` users reach for. */
export function strftime(format: string, d: Date): string {
  const off = -d.getTimezoneOffset();
  return format.replace(/%([a-zA-Z%])/g, (m, c: string) => {
    switch (c) {
      case 'Y':
        return String(d.getFullYear());
      case 'y':
        return pad(d.getFullYear() % 100);
      case 'm':
        return pad(d.getMonth() + 1);
      case 'd':
        return pad(d.getDate());
      case 'e':
        return pad(d.getDate(), 2, ' ');
      case 'H':
        return pad(d.getHours());
      case 'M':
        return pad(d.getMinutes());
      case 'S':
        return pad(d.getSeconds());
      case 's':
        return String(Math.floor(d.getTime() / 1000));
      case 'N':
        return pad(d.getMilliseconds(), 3) + '000000';
      case 'a':
        return DAYS[d.getDay()] as string;
      case 'b':
      case 'h':
        return MONTHS[d.getMonth()] as string;
      case 'z':
        return (off >= 0 ? '+' : '-') + pad(Math.floor(Math.abs(off) / 60)) + pad(Math.abs(off) % 60);
      case 'Z':
        return off === 0
          ? 'GMT'
          : 'GMT' +
              (off >= 0 ? '+' : '-') +
              pad(Math.floor(Math.abs(off) / 60)) +
              ':' +
              pad(Math.abs(off) % 60);
      case 'T':
        return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
      case 'F':
        return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
      case '%':
        return '%';
      default:
        return m;
    }
  });
}

const date: CommandFn = async (ctx) => {
  const fmt = ctx.argv.slice(1).find((a) => a.startsWith('+'));
  await ctx.stdout.write(
    strftime(fmt === undefined ? '%a %b %e %H:%M:%S %Z %Y' : fmt.slice(1), new Date()) + '\n',
  );
  return 0;
};

const pwd: CommandFn = async (ctx) => {
  await ctx.stdout.write(ctx.cwd + '\n');
  return 0;
};

const basename: CommandFn = async (ctx) => {
  const [p = '', suffix] = ctx.argv.slice(1);
  let b = p.replace(/\/+$/, '');
  b = b.slice(b.lastIndexOf('/') + 1) || (p.startsWith('/') ? '/' : '');
  if (suffix !== undefined && b.endsWith(suffix) && b !== suffix) {
    b = b.slice(0, -suffix.length);
  }
  await ctx.stdout.write(b + '\n');
  return 0;
};

const dirname: CommandFn = async (ctx) => {
  const p = (ctx.argv[1] ?? '').replace(/\/+$/, '');
  const idx = p.lastIndexOf('/');
  await ctx.stdout.write((idx < 0 ? '.' : idx === 0 ? '/' : p.slice(0, idx)) + '\n');
  return 0;
};

const seq: CommandFn = async (ctx) => {
  const nums = ctx.argv.slice(1).map(Number);
  const [first, step, last] =
    nums.length === 1
      ? [1, 1, nums[0] ?? 1]
      : nums.length === 2
        ? [nums[0] ?? 1, 1, nums[1] ?? 1]
        : [nums[0] ?? 1, nums[1] ?? 1, nums[2] ?? 1];
  let out = '';
  for (let i = first, n = 0; step > 0 ? i <= last : i >= last; i += step, n++) {
    if (n > 100_000) {
      break;
    }
    out += `${i}\n`;
  }
  await ctx.stdout.write(out);
  return 0;
};

const xargs: CommandFn = async (ctx) => {
  const cmd = ctx.argv.slice(1);
  const words = toText(await readAll(ctx.stdin))
    .split(/\s+/)
    .filter((w) => w !== '');
  const line = [...(cmd.length === 0 ? ['echo'] : cmd), ...words].map(quoteForReplay).join(' ');
  return ctx.runScript(line);
};

/**
 * `nohup COMMAND [ARG…]` (toybox toys/posix/nohup.c: SIGHUP ignored): the command runs on when the shell that started it hangs up —
 * adb's shell closing does not end it, as it ends everything else the shell started. With its
 * output redirected (not a terminal) toybox writes no nohup.out. Public scripts rely on it to keep
 * an instrumentation running after `adb shell` returns (`nohup am instrument -w … > log 2>&1 &`).
 */
const nohup: CommandFn = async (ctx) => {
  const args = ctx.argv.slice(1);
  if (args.length === 0) {
    // toybox: NEWTOY(nohup, "<1^", … TOYFLAG_ARGFAIL(125)): a missing command fails with 125.
    await ctx.stderr.write('nohup: Needs 1 argument\n');
    return 125;
  }
  return ctx.runScript(
    args.map(quoteForReplay).join(' '),
    undefined,
    undefined,
    new AbortController().signal,
  );
};

/** Shell utilities that need no device. */
export const MISC_COMMANDS: ReadonlyMap<string, CommandFn> = new Map<string, CommandFn>([
  ['true', () => Promise.resolve(0)],
  [':', () => Promise.resolve(0)],
  ['false', () => Promise.resolve(1)],
  ['sleep', sleep],
  ['which', which],
  ['sh', sh],
  ['mksh', sh],
  ['test', test],
  ['[', bracket],
  ['env', env],
  ['printenv', env],
  ['date', date],
  ['pwd', pwd],
  ['basename', basename],
  ['dirname', dirname],
  ['seq', seq],
  ['xargs', xargs],
  ['nohup', nohup],
  ['whoami', async (ctx) => (await ctx.stdout.write('shell\n'), 0)],
  ['getenforce', async (ctx) => (await ctx.stdout.write('Enforcing\n'), 0)],
  ['nproc', async (ctx) => (await ctx.stdout.write('8\n'), 0)],
]);
