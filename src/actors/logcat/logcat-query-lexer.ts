/**
 * Tokens of the Logcat query language: `(`, `)`, `&`, `|`, key terms (`key:`, `key~:`, `key=:`,
 * optionally negated with `-`) with their values, and bare words. Values may be quoted with `'` or
 * `"`; a backslash quotes the next character (a regex value keeps its escapes).
 */
import { LogcatQueryError } from './logcat-query-error.js';

export type Field = 'tag' | 'package' | 'message' | 'line' | 'process';

export const FIELD_KEYS: Record<string, Field> = {
  tag: 'tag',
  package: 'package',
  app: 'package',
  message: 'message',
  msg: 'message',
  line: 'line',
  process: 'process',
};
export const OTHER_KEYS = new Set(['level', 'age', 'is', 'pid', 'tid', 'name']);

export type Token =
  | { t: 'lp' | 'rp' | 'and' | 'or'; at: number }
  | { t: 'term'; key: string; op: ':' | '~:' | '=:'; neg: boolean; value: string; at: number }
  | { t: 'word'; value: string; at: number; end: number; quoted: boolean };

function isWs(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

/** Reads a value at `i`: quoted, or up to whitespace / `)` (and `|`, `&` unless a regex). */
function readValue(q: string, i: number, regex: boolean): { value: string; end: number } {
  const quote = q[i];
  if (quote === '"' || quote === "'") {
    let out = '';
    let j = i + 1;
    for (; j < q.length; j++) {
      const c = q[j];
      if (c === '\\' && j + 1 < q.length) {
        out += q[++j];
      } else if (c === quote) {
        return { value: out, end: j + 1 };
      } else {
        out += c;
      }
    }
    throw new LogcatQueryError(`unterminated quoted value starting at column ${i + 1}`);
  }
  let out = '';
  let depth = 0;
  let j = i;
  for (; j < q.length; j++) {
    const c = q[j];
    if (isWs(c)) {
      break;
    }
    if (c === '\\' && j + 1 < q.length) {
      // A regex keeps its escapes; elsewhere a backslash just quotes the next character.
      out += regex ? c + q[++j] : q[++j];
      continue;
    }
    if (c === '(' && regex) {
      depth++;
    } else if (c === ')') {
      if (depth === 0) {
        break;
      }
      depth--;
    } else if ((c === '|' || c === '&') && !regex) {
      break;
    }
    out += c;
  }
  return { value: out, end: j };
}

/** Splits a query into tokens; throws LogcatQueryError for an unterminated quote or an empty value. */
export function tokenize(q: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const c = q[i];
    if (isWs(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')') {
      out.push({ t: c === '(' ? 'lp' : 'rp', at: i });
      i++;
      continue;
    }
    if (c === '&' || c === '|') {
      out.push({ t: c === '&' ? 'and' : 'or', at: i });
      i += q[i + 1] === c ? 2 : 1;
      continue;
    }
    const m = /^(-?)([a-z]+)(~:|=:|:)/i.exec(q.slice(i, i + 24));
    if (m !== null) {
      const key = (m[2] ?? '').toLowerCase();
      if (FIELD_KEYS[key] !== undefined || OTHER_KEYS.has(key)) {
        let j = i + m[0].length;
        while (j < q.length && (q[j] === ' ' || q[j] === '\t')) {
          j++; // Studio accepts `tag: Foo`
        }
        const op = m[3] as ':' | '~:' | '=:';
        const { value, end } = readValue(q, j, op === '~:');
        if (value.length === 0) {
          throw new LogcatQueryError(`${key}${op} needs a value (column ${i + 1})`);
        }
        out.push({ t: 'term', key, op, neg: m[1] === '-', value, at: i });
        i = end;
        continue;
      }
    }
    const quoted = c === '"' || c === "'";
    const { value, end } = quoted ? readValue(q, i, false) : readWord(q, i);
    out.push({ t: 'word', value, at: i, end, quoted });
    i = end;
  }
  return out;
}

function readWord(q: string, i: number): { value: string; end: number } {
  let out = '';
  let j = i;
  for (; j < q.length; j++) {
    const c = q[j];
    if (isWs(c) || c === ')' || c === '(' || c === '|' || c === '&') {
      break;
    }
    if (c === '\\' && j + 1 < q.length) {
      out += q[++j];
      continue;
    }
    out += c;
  }
  return { value: out, end: j };
}
