/**
 * The regular expressions a caller writes (`message~:…`, `tag~:…`) run on RE2 (re2js, a pure
 * JavaScript port of RE2/J), whose matching time is linear in the text: no pattern can pin the
 * logcat worker the way `^(a|a)*$` pins a backtracking engine. RE2 has no lookaround, backreferences
 * or possessive quantifiers; a pattern that uses them is refused saying so. Before RE2 runs, a
 * literal every match must contain (`timeout` in `time(out|d out)`, `status=5` in `status=5\d\d`)
 * is looked for with `includes`, so selective patterns cost little more than a substring search.
 * bench/logcat.ts measures the engines side by side.
 */
import { RE2JS } from 're2js';
import { regexCostPerByte } from './regex-cost.js';

export class UserRegexError extends Error {}

/** What RE2 cannot run, named so the caller can rewrite the pattern. */
const UNSUPPORTED: [RegExp, string][] = [
  [/\(\?<?[=!]/, 'lookahead and lookbehind'],
  [/\\[1-9]|\\k</, 'backreferences'],
  [/[*+?}]\+/, 'possessive quantifiers'],
];

/** Characters that end a literal run when met unescaped. */
const META = new Set(['.', '^', '$', '|', '(', ')', '[', ']', '{', '}', '*', '+', '?', '\\']);
/** Escapes that stand for one literal character. */
const LITERAL_ESCAPES = new Set([...'.^$|()[]{}*+?\\/-:=!<>#&~@%"\'`,;_ ']);

/**
 * The longest literal that every match contains, or null: read only from the pattern's top level
 * (no `|` there, no inline flags), skipping groups, classes and escapes that are not one character;
 * a quantifier makes the character before it optional.
 */
export function requiredLiteral(source: string): string | null {
  if (source.includes('(?')) {
    return null; // inline flags (case folding) or special groups: no safe literal
  }
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      i++;
    } else if (inClass) {
      inClass = c !== ']';
    } else if (c === '[') {
      inClass = true;
    } else if (c === '(') {
      depth++;
    } else if (c === ')') {
      depth--;
    } else if (c === '|' && depth === 0) {
      return null;
    }
  }
  const runs: string[] = [];
  let run = '';
  const end = (): void => {
    if (run !== '') {
      runs.push(run);
    }
    run = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const quantified = (at: number): boolean => at < source.length && '*+?{'.includes(source[at]!);
    if (c === '\\') {
      const e = source[i + 1] ?? '';
      i++;
      if (LITERAL_ESCAPES.has(e) && !quantified(i + 1)) {
        run += e;
      } else {
        end();
        i = escapeEnd(source, i);
      }
    } else if (c === '(' || c === '[') {
      end();
      i = skipGroup(source, i);
    } else if (c === '{') {
      end();
      const close = source.indexOf('}', i);
      i = close < 0 ? source.length : close; // a counted repetition's bounds are no literal
    } else if (META.has(c)) {
      end();
    } else if (quantified(i + 1)) {
      end();
    } else {
      run += c;
    }
  }
  end();
  const longest = runs.reduce((a, b) => (b.length > a.length ? b : a), '');
  return longest.length >= 2 ? longest : null;
}

/**
 * The last index of an escape's operand, `at` being its letter: `\x41`, `\x{263a}`, `\pL`,
 * `\p{Greek}`, octal `\012`, `\Q…\E` — characters that stand for others, never a literal run.
 */
function escapeEnd(source: string, at: number): number {
  const e = source[at];
  const braced = source[at + 1] === '{' ? source.indexOf('}', at + 1) : -1;
  if (e === 'x' || e === 'p' || e === 'P') {
    if (braced >= 0) {
      return braced;
    }
    return at + (e === 'x' ? 2 : 1);
  }
  if (e !== undefined && e >= '0' && e <= '7') {
    let end = at;
    while (end < at + 2 && /[0-7]/.test(source[end + 1] ?? '')) {
      end++;
    }
    return end;
  }
  if (e === 'Q') {
    const close = source.indexOf('\\E', at);
    return close < 0 ? source.length : close + 1;
  }
  return at;
}

/** The index of the `)` or `]` closing the group or class that opens at `at` (escapes respected). */
function skipGroup(source: string, at: number): number {
  const open = source[at];
  let depth = 0;
  let inClass = open === '[';
  for (let i = at + (inClass ? 1 : 0); i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      i++;
    } else if (inClass) {
      if (c === ']') {
        if (open === '[') {
          return i;
        }
        inClass = false;
      }
    } else if (c === '[') {
      inClass = true;
    } else if (c === '(') {
      depth++;
    } else if (c === ')' && --depth === 0) {
      return i;
    }
  }
  return source.length;
}

/**
 * The limits a pattern must keep before it is compiled or run. RE2's time is linear in the text but
 * multiplied by the compiled program's size (its NFA keeps up to one thread per instruction), so a
 * pattern's cost per byte is bounded by its program size, and these limits bound that: `.{999}`
 * alone compiles to ~1,000 instructions.
 */
export const MAX_PATTERN_LENGTH = 512;
/** Largest `{n}`, `{n,}`, `{n,m}` count. */
export const MAX_REPEAT = 100;
/** Most RE2 instructions a compiled pattern may have. */
export const MAX_PROGRAM_SIZE = 512;

/** A caller's pattern, compiled: a test, and what its runs cost. */
export interface UserRegex {
  (text: string): boolean;
  /** RE2's instruction count. */
  readonly programSize: number;
  /** What RE2 may spend per byte it reads, at worst, in nanoseconds (regex-cost.ts). */
  readonly costPerByte: number;
  /** The literal prefilter alone: false means RE2 need not run on this text (it cannot match). */
  mayMatch(text: string): boolean;
  /** RE2 alone, after mayMatch said yes. */
  run(text: string): boolean;
}

function limitError(what: string): UserRegexError {
  return new UserRegexError(
    `${what}; narrow the pattern, or select lines with cheaper terms first (age:5m, tag:, pid:, level:, package:)`,
  );
}

/** The `{n,m}` counts of a pattern (outside escapes), for the repetition limit. */
function largestRepeat(source: string): number {
  let max = 0;
  for (const m of source.matchAll(/(\\*)\{(\d+)(?:,(\d*))?\}/g)) {
    if (m[1]!.length % 2 === 1) {
      continue; // `\{` is a literal brace
    }
    max = Math.max(max, Number(m[2]), m[3] ? Number(m[3]) : 0);
  }
  return max;
}

/**
 * A literal every case-insensitive match contains: `(?i)` at the start and a required literal in
 * the rest. Texts are lower-cased to test it; `ſ` (U+017F) is the one non-ASCII letter whose simple
 * case folding (RE2's) gives an ASCII letter that `toLowerCase` does not (`K`, U+212A, lowers to k).
 */
function foldedLiteral(source: string): string | null {
  if (!source.startsWith('(?i)')) {
    return null;
  }
  const literal = requiredLiteral(source.slice(4));
  return literal !== null && /^[\x20-\x7e]+$/.test(literal) ? literal.toLowerCase() : null;
}

/**
 * Compiles a caller's pattern to a linear-time test, or throws UserRegexError saying why it cannot:
 * what RE2 lacks, or which limit it passes (length, repetition count, program size).
 */
export function userRegex(source: string): UserRegex {
  for (const [pattern, what] of UNSUPPORTED) {
    if (pattern.test(source)) {
      throw new UserRegexError(
        `${what} are not supported: droidbus runs regular expressions on RE2, in time linear in the line`,
      );
    }
  }
  if (source.length > MAX_PATTERN_LENGTH) {
    throw limitError(
      `the pattern is ${source.length} characters, more than the ${MAX_PATTERN_LENGTH} allowed`,
    );
  }
  const repeat = largestRepeat(source);
  if (repeat > MAX_REPEAT) {
    throw limitError(`a repetition count of ${repeat} is more than the ${MAX_REPEAT} allowed`);
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (err) {
    throw new UserRegexError((err as Error).message.replace(/^error parsing regexp: /, ''));
  }
  const programSize = re.programSize();
  if (programSize > MAX_PROGRAM_SIZE) {
    throw limitError(
      `the pattern compiles to ${programSize} RE2 instructions, more than the ${MAX_PROGRAM_SIZE} allowed (each is work on every byte it reads)`,
    );
  }
  const literal = requiredLiteral(source);
  const folded = literal === null ? foldedLiteral(source) : null;
  const mayMatch =
    literal !== null
      ? (text: string) => text.includes(literal)
      : folded !== null
        ? (text: string) =>
            text
              .toLowerCase()
              .replace(/\u017f/g, 's')
              .includes(folded)
        : () => true;
  const run = (text: string): boolean => re.matcher(text).find();
  return Object.assign((text: string) => mayMatch(text) && run(text), {
    programSize,
    costPerByte: regexCostPerByte(re),
    mayMatch,
    run,
  });
}
