/**
 * A tolerant reader for Gradle build scripts (Groovy and Kotlin DSL). It does not evaluate
 * anything: it turns the text into statements and `{ … }` blocks, knowing enough about strings,
 * comments and brackets that a brace inside `"{x}"` or `// }` never opens or closes a block.
 * Whatever it cannot make sense of it skips; it never throws on bad input.
 */

export type TokenKind = 'ident' | 'string' | 'number' | 'punct';

export interface Token {
  kind: TokenKind;
  /** The source text of an identifier, number or punctuation; the decoded value of a string. */
  text: string;
  /** A string with `$name` or `${…}` in it: its value is only known when Gradle runs. */
  interpolated?: boolean;
  line: number;
}

/** One statement, and its `{ … }` body when the statement ends in a block. */
export interface ScriptNode {
  tokens: Token[];
  body: ScriptNode[] | null;
  line: number;
}

export type ScriptDialect = 'groovy' | 'kotlin';

const IDENT_START = /[A-Za-z_$]/;
const IDENT_PART = /[A-Za-z0-9_$]/;
const TWO_CHAR_PUNCT = new Set(['+=', '-=', '==', '!=', '->', '?.', '::', '&&', '||', '?:']);

interface LexState {
  src: string;
  i: number;
  line: number;
}

/** Splits a build script into tokens; a newline is kept as a `punct` token `\n` (consecutive ones merged). */
export function tokenize(src: string, dialect: ScriptDialect): Token[] {
  const st: LexState = { src, i: 0, line: 1 };
  const out: Token[] = [];
  const pushNewline = (): void => {
    const last = out[out.length - 1];
    if (last && !(last.kind === 'punct' && last.text === '\n')) {
      out.push({ kind: 'punct', text: '\n', line: st.line });
    }
  };
  while (st.i < src.length) {
    const c = src[st.i] as string;
    if (c === '\n') {
      pushNewline();
      st.line++;
      st.i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\ufeff') {
      st.i++;
      continue;
    }
    if (c === '/' && src[st.i + 1] === '/') {
      while (st.i < src.length && src[st.i] !== '\n') {
        st.i++;
      }
      continue;
    }
    if (c === '/' && src[st.i + 1] === '*') {
      skipBlockComment(st, dialect === 'kotlin');
      continue;
    }
    if (c === '"' || c === "'") {
      out.push(readString(st, dialect));
      continue;
    }
    if (c === '`' && dialect === 'kotlin') {
      const end = src.indexOf('`', st.i + 1);
      const stop = end < 0 || src.slice(st.i + 1, end).includes('\n') ? st.i + 1 : end;
      out.push({ kind: 'ident', text: src.slice(st.i + 1, stop), line: st.line });
      st.i = stop + 1;
      continue;
    }
    if (IDENT_START.test(c)) {
      const start = st.i;
      while (st.i < src.length && IDENT_PART.test(src[st.i] as string)) {
        st.i++;
      }
      out.push({ kind: 'ident', text: src.slice(start, st.i), line: st.line });
      continue;
    }
    if (c >= '0' && c <= '9') {
      const m = /^(?:0[xX][0-9a-fA-F_]+|[0-9][0-9_]*(?:\.[0-9][0-9_]*)?(?:[eE][+-]?[0-9]+)?)[lLfFdD]?/.exec(
        src.slice(st.i, st.i + 64),
      );
      const text = m ? m[0] : c;
      out.push({ kind: 'number', text, line: st.line });
      st.i += text.length;
      continue;
    }
    const two = src.slice(st.i, st.i + 2);
    if (TWO_CHAR_PUNCT.has(two)) {
      out.push({ kind: 'punct', text: two, line: st.line });
      st.i += 2;
      continue;
    }
    out.push({ kind: 'punct', text: c, line: st.line });
    st.i++;
  }
  return out;
}

function skipBlockComment(st: LexState, nests: boolean): void {
  let depth = 0;
  while (st.i < st.src.length) {
    if (st.src[st.i] === '/' && st.src[st.i + 1] === '*') {
      depth++;
      st.i += 2;
      if (!nests && depth > 1) {
        depth = 1;
      }
      continue;
    }
    if (st.src[st.i] === '*' && st.src[st.i + 1] === '/') {
      depth--;
      st.i += 2;
      if (depth <= 0) {
        return;
      }
      continue;
    }
    if (st.src[st.i] === '\n') {
      st.line++;
    }
    st.i++;
  }
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' };

function readString(st: LexState, dialect: ScriptDialect): Token {
  const { src } = st;
  const quote = src[st.i] as string;
  const line = st.line;
  const triple = src.startsWith(quote.repeat(3), st.i);
  // Only double-quoted strings interpolate (Groovy GStrings, Kotlin templates); Groovy's '…' never does.
  const interpolates = quote === '"';
  const rawTriple = triple && dialect === 'kotlin';
  st.i += triple ? 3 : 1;
  let value = '';
  let interpolated = false;
  while (st.i < src.length) {
    const c = src[st.i] as string;
    if (triple ? src.startsWith(quote.repeat(3), st.i) : c === quote) {
      st.i += triple ? 3 : 1;
      return { kind: 'string', text: value, interpolated, line };
    }
    if (!triple && c === '\n') {
      // An unterminated string: stop at the end of the line rather than swallow the file.
      return { kind: 'string', text: value, interpolated: true, line };
    }
    if (c === '\\' && !rawTriple) {
      const n = src[st.i + 1] ?? '';
      value += ESCAPES[n] ?? n;
      st.i += 2;
      continue;
    }
    if (c === '$' && interpolates) {
      const n = src[st.i + 1] ?? '';
      if (n === '{') {
        interpolated = true;
        skipInterpolation(st);
        continue;
      }
      if (IDENT_START.test(n) && n !== '$') {
        interpolated = true;
        st.i++;
        while (st.i < src.length && /[A-Za-z0-9_.]/.test(src[st.i] as string)) {
          st.i++;
        }
        continue;
      }
    }
    if (c === '\n') {
      st.line++;
    }
    value += c;
    st.i++;
  }
  return { kind: 'string', text: value, interpolated: true, line };
}

/** Skips `${ … }` inside a string, including nested braces and strings. */
function skipInterpolation(st: LexState): void {
  const { src } = st;
  st.i += 2;
  let depth = 1;
  while (st.i < src.length && depth > 0) {
    const c = src[st.i] as string;
    if (c === '"' || c === "'") {
      const q = c;
      st.i++;
      while (st.i < src.length && src[st.i] !== q && src[st.i] !== '\n') {
        st.i += src[st.i] === '\\' ? 2 : 1;
      }
      st.i++;
      continue;
    }
    if (c === '{') {
      depth++;
    } else if (c === '}') {
      depth--;
    } else if (c === '\n') {
      st.line++;
    }
    st.i++;
  }
}

const CONTINUES_AFTER = new Set([
  ',',
  '=',
  '+=',
  '-=',
  '+',
  '-',
  '*',
  '.',
  '?.',
  '->',
  '&&',
  '||',
  '?:',
  '(',
  '[',
]);

/** Groups tokens into statements and nested blocks. Stray closing braces are ignored. */
export function parseScript(tokens: Token[]): ScriptNode[] {
  const pos = { i: 0 };
  return parseStatements(tokens, pos, false);
}

function parseStatements(tokens: Token[], pos: { i: number }, nested: boolean): ScriptNode[] {
  const nodes: ScriptNode[] = [];
  let cur: Token[] = [];
  let depth = 0;
  const flush = (): void => {
    if (cur.length > 0) {
      nodes.push({ tokens: cur, body: null, line: (cur[0] as Token).line });
      cur = [];
    }
  };
  while (pos.i < tokens.length) {
    const t = tokens[pos.i] as Token;
    if (t.kind === 'punct') {
      if (t.text === '}') {
        pos.i++;
        if (depth > 0) {
          // A lambda closing inside parentheses: `foo({ … })` was opened below and is balanced there.
          continue;
        }
        if (nested) {
          flush();
          return nodes;
        }
        continue;
      }
      if (t.text === '\n' || t.text === ';') {
        pos.i++;
        if (depth > 0) {
          continue;
        }
        const last = cur[cur.length - 1];
        const next = tokens[pos.i];
        const continues =
          (last !== undefined &&
            last.kind === 'punct' &&
            CONTINUES_AFTER.has(last.text) &&
            t.text === '\n') ||
          (next !== undefined && next.kind === 'punct' && (next.text === '.' || next.text === '?.'));
        if (!continues) {
          flush();
        }
        continue;
      }
      if (t.text === '(' || t.text === '[') {
        depth++;
      } else if (t.text === ')' || t.text === ']') {
        depth = Math.max(0, depth - 1);
      } else if (t.text === '{') {
        pos.i++;
        const body = parseStatements(tokens, pos, true);
        if (depth === 0) {
          nodes.push({ tokens: cur, body, line: cur[0]?.line ?? t.line });
          cur = [];
        } else {
          cur.push({ kind: 'punct', text: '{}', line: t.line });
        }
        continue;
      }
    }
    cur.push(t);
    pos.i++;
  }
  flush();
  return nodes;
}

/** Reads a whole script into its statement tree. */
export function readScript(src: string, dialect: ScriptDialect): ScriptNode[] {
  return parseScript(tokenize(src, dialect));
}
