import type { CommandContext, CommandFn } from '../../shell/command.js';
import { absPath } from '../../shell/command.js';
import type { Device } from '../device.js';
import { LogFormatter, LOG_FORMATS, type FormatModifiers, type LogFormat } from '../log/log-format.js';
import {
  BUFFER_ID,
  LOG_BUFFERS,
  priorityValue,
  type LogBufferName,
  type LogEntry,
} from '../log/log-store.js';
import { since } from '../android-versions.js';

const USAGE = `Usage: logcat [options] [filterspecs]

General options:
  -b, --buffer=<buffer>       Request alternate ring buffer(s):
                                main system radio events crash default all
                              Additionally, 'kernel' for userdebug and eng builds, and
                              'security' for Device Owner installations.
                              Multiple -b parameters or comma separated list of buffers are
                              allowed. Buffers are interleaved.
                              Default -b main,system,crash,kernel.
  -L, --last                  Dump logs from prior to last reboot from pstore.
  -c, --clear                 Clear (flush) the entire log and exit
  -d                          Dump the log and then exit (don't block)
  -e <expr>, --regex=<expr>
                              Only print lines where the log message matches <expr>
                              where <expr> is an ECMAScript regular expression
  -m <count>, --max-count=<count>
                              Quit after printing <count> lines.
  --pid=<pid>                 Only print logs from the given pid
  -t <count>                  Print only the most recent <count> lines (implies -d)
  -t '<time>'                 Print the lines since specified time (implies -d)
  -T <count>                  Print only the most recent <count> lines (does not imply -d)
  -T '<time>'                 Print the lines since specified time (not imply -d)
                              count is pure numerical, time is 'MM-DD hh:mm:ss.mmm...'
                              'YYYY-MM-DD hh:mm:ss.mmm...' or 'sssss.mmm...' format
  -g, --buffer-size           Get the size of the ring buffers within logd.
  -G, --buffer-size=<size>    Set size of a ring buffer in logd. May suffix with K or M.
  -D, --dividers              Print dividers between each log buffer.
  -f <file>, --file=<file>    Log to file instead of stdout.

Formatting:
  -v, --format=<format>       Sets log print format verb and adverbs, where <format> is one of:
                                brief help long process raw tag thread threadtime time
                              Modifying adverbs can be added:
                                color descriptive epoch monotonic printable uid usec UTC year zone
  -s                          Set default filter to silent. Equivalent to filterspec '*:S'

filterspecs are a series of
  <tag>[:priority]

where <tag> is a log component tag (or * for all) and priority is:
  V    Verbose (default for <tag>)
  D    Debug (default for '*')
  I    Info
  W    Warn
  E    Error
  F    Fatal
  S    Silent (suppress all output)
`;

interface LogcatArgs {
  format: LogFormat;
  mods: FormatModifiers;
  buffers: number[];
  dump: boolean;
  clear: boolean;
  tail: { count: number } | { since: number } | null;
  follow: boolean;
  maxCount: number;
  regex: RegExp | null;
  pid: number | null;
  file: string | null;
  getSize: boolean;
  /** `-G`: the size to set, in bytes. */
  setSize: number | null;
  dividers: boolean;
  defaultLevel: number;
  specs: Map<string, number>;
}

class UsageError extends Error {}

/** Parses a `-t`/`-T` time: MM-DD hh:mm:ss.mmm, YYYY-MM-DD hh:mm:ss.mmm or sssss.mmm. */
export function parseLogTime(s: string, now = new Date()): number | null {
  const epoch = /^(\d+)(?:\.(\d{1,9}))?$/.exec(s);
  if (epoch !== null && s.includes('.')) {
    return Number(epoch[1]) * 1000 + Number(((epoch[2] ?? '0') + '000').slice(0, 3));
  }
  const m = /^(?:(\d{4})-)?(\d{1,2})-(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/.exec(s.trim());
  if (m === null) {
    return null;
  }
  const year = m[1] === undefined ? now.getFullYear() : Number(m[1]);
  const ms = Number(((m[7] ?? '0') + '000').slice(0, 3));
  return new Date(
    year,
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6]),
    ms,
  ).getTime();
}

/** A `-G` size: a number with an optional K, M or G multiplier (logcat.cpp). */
function parseSize(v: string): number {
  const m = /^(\d+)([kKmMgG]?)$/.exec(v);
  if (m === null || Number(m[1]) === 0) {
    throw new UsageError(`-G needs a size, not '${v}'`);
  }
  const unit = (m[2] ?? '').toUpperCase();
  return Number(m[1]) * (unit === 'G' ? 1024 ** 3 : unit === 'M' ? 1024 ** 2 : unit === 'K' ? 1024 : 1);
}

/** logcat's size figures: divided by 1024 while ≥ 1024, with Ki / Mi / Gi (logcat.cpp). */
function sizeText(bytes: number): string {
  const units = ['', 'Ki', 'Mi', 'Gi'];
  let i = 0;
  let v = bytes;
  while (i < units.length - 1 && v >= 1024) {
    v = Math.floor(v / 1024);
    i++;
  }
  return `${v} ${units[i] ?? ''}B`;
}

function defaultArgs(): LogcatArgs {
  return {
    format: 'threadtime',
    mods: { year: false, epoch: false, usec: false, utc: false, uid: false },
    buffers: [],
    dump: false,
    clear: false,
    tail: null,
    follow: true,
    maxCount: Infinity,
    regex: null,
    pid: null,
    file: null,
    getSize: false,
    setSize: null,
    dividers: false,
    defaultLevel: 2,
    specs: new Map(),
  };
}

function addBuffers(a: LogcatArgs, v: string): void {
  for (const b of v.split(',')) {
    if (b === 'all') {
      a.buffers.push(...LOG_BUFFERS.map((n) => BUFFER_ID[n]));
    } else if (b === 'default') {
      a.buffers.push(BUFFER_ID.main, BUFFER_ID.system, BUFFER_ID.crash);
    } else if ((LOG_BUFFERS as readonly string[]).includes(b)) {
      a.buffers.push(BUFFER_ID[b as LogBufferName]);
    } else if (b === 'kernel' || b === 'security' || b === 'stats') {
      // Not readable by the shell user on a user build; nothing to show.
    } else {
      throw new UsageError(`unknown buffer '${b}'`);
    }
  }
}

const FORMAT_MODIFIERS = { year: 'year', epoch: 'epoch', usec: 'usec', UTC: 'utc', uid: 'uid' } as const;

function setFormat(a: LogcatArgs, v: string): void {
  for (const word of v.split(/[\s,]+/).filter((w) => w !== '')) {
    if (LOG_FORMATS.has(word)) {
      a.format = word as LogFormat;
    } else if (word in FORMAT_MODIFIERS) {
      a.mods[FORMAT_MODIFIERS[word as keyof typeof FORMAT_MODIFIERS]] = true;
    } else if (!['color', 'descriptive', 'monotonic', 'printable', 'zone', 'nsec'].includes(word)) {
      throw new UsageError(`Invalid parameter "${word}" to -v`);
    }
  }
}

/** `-t`/`-T`'s value: a line count, or a time to start from. */
function tailOf(v: string): { count: number } | { since: number } {
  if (/^\d+$/.test(v)) {
    return { count: Number(v) };
  }
  const t = parseLogTime(v);
  if (t === null) {
    throw new UsageError(`-t "${v}" not in time format`);
  }
  return { since: t };
}

/** The long options that are a short one spelled out (`--buffer=main` is `-b main`). */
const LONG_AS_SHORT: Record<string, string> = {
  buffer: 'b',
  format: 'v',
  regex: 'e',
  'max-count': 'm',
  file: 'f',
  dump: 'd',
  clear: 'c',
  dividers: 'D',
};
/** Options whose value is taken and ignored (rotation, uid filters). */
const IGNORED_LONG = new Set(['uid', 'rotate-kbytes', 'rotate-count']);

/** One short option; `value` takes its argument (inline or the next word). */
function applyShort(a: LogcatArgs, f: string, value: () => string): void {
  switch (f) {
    case 'v':
      return setFormat(a, value());
    case 'b':
      return addBuffers(a, value());
    case 'd':
      a.dump = true;
      return;
    case 'c':
      a.clear = true;
      return;
    case 't':
      a.tail = tailOf(value());
      a.dump = true;
      return;
    case 'T':
      a.tail = tailOf(value());
      return;
    case 's':
      a.defaultLevel = 8;
      return;
    case 'm':
      a.maxCount = Number(value());
      return;
    case 'e':
      a.regex = new RegExp(value());
      return;
    case 'f':
      a.file = value();
      return;
    case 'g':
      a.getSize = true;
      return;
    case 'G':
      a.setSize = parseSize(value());
      return;
    case 'r':
    case 'n':
      value();
      return;
    case 'D':
      a.dividers = true;
      return;
    case 'B':
    case 'L':
    case 'S':
    case 'P':
    case 'p':
      throw new UsageError(`option -${f} is not supported by this device`);
    default:
      throw new UsageError(`invalid option -- '${f}'`);
  }
}

/** One long option (`--name` or `--name=value`). */
function applyLong(a: LogcatArgs, long: string, inline: string | null, value: () => string): void {
  const short = Object.hasOwn(LONG_AS_SHORT, long) ? LONG_AS_SHORT[long] : undefined;
  if (short !== undefined) {
    applyShort(a, short, value);
  } else if (long === 'pid') {
    a.pid = Number(value());
  } else if (long === 'buffer-size') {
    if (inline === null) {
      a.getSize = true;
    } else {
      a.setSize = parseSize(inline);
    }
  } else if (IGNORED_LONG.has(long)) {
    value();
  } else {
    throw new UsageError(`unrecognized option '--${long}'`);
  }
}

/**
 * A filterspec, `TAG:LEVEL` (`*:S` sets the default). A level of `*` is liblog's
 * ANDROID_LOG_DEFAULT (logprint.cpp filterCharToPri), below verbose: every line of the tag.
 */
function addFilterspec(a: LogcatArgs, arg: string): void {
  const colon = arg.lastIndexOf(':');
  const tag = colon < 0 ? arg : arg.slice(0, colon);
  const spec = arg.slice(colon + 1);
  const level = colon < 0 || spec === '*' ? 2 : priorityValue(spec || 'V');
  if (level < 0) {
    throw new UsageError(`Invalid filter expression '${arg}'`);
  }
  if (tag === '*') {
    a.defaultLevel = level;
  } else {
    a.specs.set(tag, level);
  }
}

function parseArgs(argv: string[], envTags: string | undefined): LogcatArgs {
  const a = defaultArgs();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const next = (): string => {
      const v = argv[++i];
      if (v === undefined) {
        throw new UsageError(`option requires an argument -- '${arg.replace(/^-+/, '')}'`);
      }
      return v;
    };
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const inline = eq > 0 ? arg.slice(eq + 1) : null;
      applyLong(a, eq > 0 ? arg.slice(2, eq) : arg.slice(2), inline, () => inline ?? next());
    } else if (arg.startsWith('-') && arg.length > 1) {
      const inline = arg.length > 2 ? arg.slice(2) : null;
      applyShort(a, arg.charAt(1), () => inline ?? next());
    } else {
      addFilterspec(a, arg);
    }
  }
  if (a.specs.size === 0 && a.defaultLevel === 2 && envTags !== undefined && envTags.trim() !== '') {
    // ANDROID_LOG_TAGS holds default filterspecs when the command line has none.
    return parseArgs([...argv, ...envTags.trim().split(/\s+/)], undefined);
  }
  if (a.buffers.length === 0) {
    a.buffers = [BUFFER_ID.main, BUFFER_ID.system, BUFFER_ID.crash];
  }
  a.buffers = [...new Set(a.buffers)].sort();
  return a;
}

function accepts(a: LogcatArgs, e: LogEntry): boolean {
  const min = a.specs.get(e.tag) ?? a.defaultLevel;
  if (e.priority < min) {
    return false;
  }
  if (a.pid !== null && e.pid !== a.pid) {
    return false;
  }
  return a.regex === null || a.regex.test(e.message);
}

/** `logcat`: dumps and follows the device's log until the stream closes. */
export const logcat: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  let a: LogcatArgs;
  try {
    a = parseArgs(ctx.argv.slice(1), ctx.env.get('ANDROID_LOG_TAGS'));
  } catch (err) {
    if (ctx.argv.includes('-h') || ctx.argv.includes('--help')) {
      await ctx.stdout.write(USAGE);
      return 0;
    }
    await ctx.stderr.write(`logcat: ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 1;
  }
  if (a.clear) {
    dev.log.clear(a.buffers);
    return 0;
  }
  if (a.setSize !== null) {
    const size = a.setSize;
    const failed = a.buffers.filter((b) => !dev.log.setSize(b, size)).map((b) => LOG_BUFFERS[b] as string);
    if (failed.length > 0) {
      // logd refuses sizes outside LOG_BUFFER_MIN_SIZE … LOG_BUFFER_MAX_SIZE (64 KiB … 256 MiB).
      await ctx.stderr.write(
        `logcat: failed to set the '${failed.join(',')}' log size${failed.length > 1 ? 's' : ''}.\n`,
      );
      return 1;
    }
    if (!a.getSize) {
      return 0;
    }
  }
  if (a.getSize) {
    const out = a.buffers
      .map((b) => {
        const name = LOG_BUFFERS[b] as string;
        const u = dev.log.usage(b);
        // Real answers: "256 KiB (3 MiB consumed)" (readable bytes past the size: chunks are kept
        // compressed) and, on newer builds, "256 KiB (123 KiB consumed, 206 KiB readable)" (a
        // OnePlus 12 on ColorOS 16, quoted in public code). Which release split the two is not
        // known from captures; API 34 is taken here.
        const figures = since(dev.sdk, 'logcatReadable')
          ? `${sizeText(u.consumed)} consumed, ${sizeText(u.bytes)} readable`
          : `${sizeText(u.bytes)} consumed`;
        return `${name}: ring buffer is ${sizeText(u.size)} (${figures}), max entry is 5120 B, max payload is 4068 B\n`;
      })
      .join('');
    await ctx.stdout.write(out);
    return 0;
  }
  return follow(ctx, a);
};

async function follow(ctx: CommandContext<Device>, a: LogcatArgs): Promise<number> {
  const dev = ctx.host;
  const formatter = new LogFormatter(a.format, a.mods);
  const printed = new Set<number>();
  let lastBuffer = -1;
  let written = 0;
  const fileChunks: string[] = [];
  const emit = async (text: string): Promise<void> => {
    if (text === '') {
      return;
    }
    if (a.file !== null) {
      fileChunks.push(text);
      return;
    }
    for (let at = 0; at < text.length; at += 32 * 1024) {
      await ctx.stdout.write(text.slice(at, at + 32 * 1024));
    }
  };
  const render = (entries: readonly LogEntry[]): string => {
    let out = '';
    for (const e of entries) {
      if (written >= a.maxCount) {
        break;
      }
      if (!accepts(a, e)) {
        continue;
      }
      if (e.buffer !== lastBuffer && (!printed.has(e.buffer) || a.dividers)) {
        out += `--------- ${printed.has(e.buffer) ? 'switch to' : 'beginning of'} ${LOG_BUFFERS[e.buffer] ?? 'main'}\n`;
        printed.add(e.buffer);
      }
      lastBuffer = e.buffer;
      out += formatter.line(e);
      written++;
    }
    return out;
  };
  let cursor = 0;
  let first = dev.log.read(a.buffers, 0);
  if (a.tail !== null) {
    if ('since' in a.tail) {
      const since = a.tail.since;
      first = first.filter((e) => e.time >= since);
    } else {
      first = first.filter((e) => accepts(a, e)).slice(-a.tail.count);
    }
  }
  cursor = dev.log.lastSeq;
  try {
    await emit(render(first));
    while (!a.dump && written < a.maxCount && !ctx.signal.aborted) {
      if (dev.log.lastSeq === cursor) {
        await dev.log.waitForNew(ctx.signal);
      }
      if (ctx.signal.aborted) {
        break;
      }
      const batch = dev.log.read(a.buffers, cursor);
      cursor = dev.log.lastSeq;
      await emit(render(batch));
    }
  } finally {
    if (a.file !== null) {
      try {
        ctx.fs.writeFile(absPath(ctx, a.file), new TextEncoder().encode(fileChunks.join('')));
      } catch {
        // The file could not be written; logcat on a device fails the same way silently here.
      }
    }
  }
  return 0;
}
