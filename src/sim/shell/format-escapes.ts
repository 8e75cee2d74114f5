/**
 * Backslash escapes as mksh's `echo`/`print` and toybox `printf` understand them.
 *
 * Evidence: external/mksh/src/funcs.c (c_print: echo's escapes) and toybox/toys/posix/printf.c.
 */

const SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};

/**
 * Expands the escapes of mksh's `echo` (on by default there): \a \b \e \f \n \r \t \v \\ \0nnn,
 * and \c, which ends all output. Returns the text and whether \c was seen.
 */
export function echoEscapes(s: string): { text: string; stop: boolean } {
  if (!s.includes('\\')) {
    return { text: s, stop: false };
  }
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    if (c !== '\\' || i === s.length - 1) {
      out += c;
      continue;
    }
    const n = s.charAt(i + 1);
    const simple = SIMPLE[n];
    if (simple !== undefined) {
      out += simple;
      i++;
    } else if (n === 'c') {
      return { text: out, stop: true };
    } else if (n === '0') {
      const m = /^[0-7]{0,3}/.exec(s.slice(i + 2));
      const digits = m?.[0] ?? '';
      out += String.fromCharCode(digits === '' ? 0 : Number.parseInt(digits, 8) & 0xff);
      i += 1 + digits.length;
    } else {
      out += c;
    }
  }
  return { text: out, stop: false };
}

/** Expands the escapes of a `printf` format string: the echo set plus \" \ooo \xHH. */
export function printfEscapes(s: string): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    if (c !== '\\' || i === s.length - 1) {
      out += c;
      continue;
    }
    const n = s.charAt(i + 1);
    const simple = SIMPLE[n];
    if (simple !== undefined) {
      out += simple;
      i++;
    } else if (n === '"') {
      out += '"';
      i++;
    } else if (n === 'c') {
      return { text: out, stop: true };
    } else if (/[0-7]/.test(n)) {
      const digits = (/^[0-7]{1,3}/.exec(s.slice(i + 1)) ?? [''])[0];
      out += String.fromCharCode(Number.parseInt(digits, 8) & 0xff);
      i += digits.length;
    } else if (n === 'x' && /[0-9a-fA-F]/.test(s.charAt(i + 2))) {
      const digits = (/^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 2)) ?? [''])[0];
      out += String.fromCharCode(Number.parseInt(digits, 16));
      i += 1 + digits.length;
    } else {
      out += c;
    }
  }
  return { text: out, stop: false };
}

/** A conversion's flags, width and precision as the format gave them. */
interface Spec {
  flags: string;
  width: number | undefined;
  prec: number | undefined;
}

/** %d %i %u %x %X %o: the integer with its sign, precision, `#` prefix and zero padding. */
function integer(conv: string, arg: string | undefined, spec: Spec, errors: string[]): string {
  const { flags, width, prec } = spec;
  const n = parseNumber(arg, errors);
  const radix = conv === 'x' || conv === 'X' ? 16 : conv === 'o' ? 8 : 10;
  let digits = Math.abs(Math.trunc(n)).toString(radix);
  if (conv === 'X') {
    digits = digits.toUpperCase();
  }
  if (prec !== undefined) {
    digits = digits.padStart(prec, '0');
  }
  if (flags.includes('#') && n !== 0 && radix !== 10) {
    digits = (radix === 16 ? (conv === 'X' ? '0X' : '0x') : '0') + digits;
  }
  const sign = n < 0 ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
  if (flags.includes('0') && !flags.includes('-') && width !== undefined && prec === undefined) {
    return sign + digits.padStart(width - sign.length, '0');
  }
  return sign + digits;
}

/** %f %e %g (and upper case): the number at its precision (6 by default). */
function floating(conv: string, arg: string | undefined, spec: Spec): string {
  const n = Number.parseFloat(arg ?? '0');
  const value = Number.isNaN(n) ? 0 : n;
  const p = spec.prec ?? 6;
  let body =
    conv === 'f' || conv === 'F'
      ? value.toFixed(p)
      : conv === 'e' || conv === 'E'
        ? value.toExponential(p)
        : String(Number(value.toPrecision(p === 0 ? 1 : p)));
  if (conv === 'E' || conv === 'G') {
    body = body.toUpperCase();
  }
  return spec.flags.includes('+') && value >= 0 ? '+' + body : body;
}

/** One conversion's text before padding; `stop` when a %b argument held `\c`. */
function convert(
  conv: string,
  arg: string | undefined,
  spec: Spec,
  errors: string[],
): { body: string; stop: boolean } {
  switch (conv) {
    case 's': {
      const body = arg ?? '';
      return { body: spec.prec !== undefined ? body.slice(0, spec.prec) : body, stop: false };
    }
    case 'b': {
      const piece = echoEscapes(arg ?? '');
      return { body: piece.text, stop: piece.stop };
    }
    case 'c':
      return { body: (arg ?? '').charAt(0), stop: false };
    case 'd':
    case 'i':
    case 'u':
    case 'x':
    case 'X':
    case 'o':
      return { body: integer(conv, arg, spec, errors), stop: false };
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
      return { body: floating(conv, arg, spec), stop: false };
    default:
      errors.push(`printf: %${conv}: invalid conversion`);
      return { body: '', stop: false };
  }
}

/** `printf FORMAT ARGS…`: the format is reused until every argument is consumed. */
export function formatPrintf(format: string, args: string[]): { text: string; errors: string[] } {
  const errors: string[] = [];
  let text = '';
  let argi = 0;
  const next = (): string | undefined => args[argi++];
  do {
    const startArgs = argi;
    let i = 0;
    let stop = false;
    while (i < format.length && !stop) {
      const c = format.charAt(i);
      if (c === '\\') {
        const end = escapeEnd(format, i);
        const piece = printfEscapes(format.slice(i, end));
        text += piece.text;
        stop = piece.stop;
        i = end;
        continue;
      }
      const m = c === '%' ? /^%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?([a-zA-Z%])/.exec(format.slice(i)) : null;
      if (m === null) {
        text += c;
        i++;
        continue;
      }
      i += m[0].length;
      const flags = m[1] ?? '';
      const width =
        m[2] === '*' ? Number.parseInt(next() ?? '0', 10) : m[2] === undefined ? undefined : Number(m[2]);
      const precRaw = m[3] === '*' ? (next() ?? '0') : m[3];
      const prec = precRaw === undefined ? undefined : precRaw === '' ? 0 : Number(precRaw);
      const conv = m[4] as string;
      if (conv === '%') {
        text += '%';
        continue;
      }
      const converted = convert(conv, next(), { flags, width, prec }, errors);
      stop = converted.stop;
      let body = converted.body;
      if (width !== undefined && body.length < width) {
        body = flags.includes('-')
          ? body.padEnd(width)
          : body.padStart(width, flags.includes('0') && /[fFeEgG]/.test(conv) ? '0' : ' ');
      }
      text += body;
    }
    if (stop || argi === startArgs) {
      break;
    }
  } while (argi < args.length);
  return { text, errors };
}

function escapeEnd(format: string, i: number): number {
  const n = format.charAt(i + 1);
  if (/[0-7]/.test(n)) {
    return i + 1 + ((/^[0-7]{1,3}/.exec(format.slice(i + 1)) ?? [''])[0].length || 1);
  }
  if (n === 'x') {
    return i + 2 + (/^[0-9a-fA-F]{0,2}/.exec(format.slice(i + 2)) ?? [''])[0].length;
  }
  return Math.min(format.length, i + 2);
}

function parseNumber(arg: string | undefined, errors: string[]): number {
  if (arg === undefined || arg === '') {
    return 0;
  }
  if (/^['"]/.test(arg)) {
    return arg.codePointAt(1) ?? 0;
  }
  const n = /^[-+]?0x/i.test(arg)
    ? Number.parseInt(arg, 16)
    : /^[-+]?0[0-7]+$/.test(arg)
      ? Number.parseInt(arg, 8)
      : Number(arg);
  if (Number.isNaN(n)) {
    errors.push(`printf: invalid number '${arg}'`);
    return 0;
  }
  return n;
}
