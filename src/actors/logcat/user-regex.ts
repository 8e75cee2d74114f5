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

/** Compiles a caller's pattern to a linear-time test, or throws UserRegexError saying why it cannot. */
export function userRegex(source: string): (text: string) => boolean {
  for (const [pattern, what] of UNSUPPORTED) {
    if (pattern.test(source)) {
      throw new UserRegexError(
        `${what} are not supported: droidbus runs regular expressions on RE2, in time linear in the line`,
      );
    }
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (err) {
    throw new UserRegexError((err as Error).message.replace(/^error parsing regexp: /, ''));
  }
  const literal = requiredLiteral(source);
  if (literal === null) {
    return (text) => re.matcher(text).find();
  }
  return (text) => text.includes(literal) && re.matcher(text).find();
}
