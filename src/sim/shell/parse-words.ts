/**
 * Evidence: POSIX Shell Command Language 2.2–2.3 (quoting, token recognition); syntax errors in mksh's
 * words (external/mksh/src/syn.c).
 */
import type { List, ParamOp, Word, WordPart } from './ast.js';

/** A command line the shell cannot parse; the message is mksh's wording without the `sh:` prefix. */
export class ShellSyntaxError extends Error {}

/** Characters that end an unquoted word. */
export const META = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
export const NAME_START = /[A-Za-z_]/;
export const NAME_CHAR = /[A-Za-z0-9_]/;

/**
 * The lexical half of the parser: words with their quoting, `$…` expansions, `$(…)`, backquotes
 * and arithmetic. The grammar half (lists, pipelines, commands) extends it.
 */
export abstract class WordReader {
  pos = 0;
  constructor(protected readonly src: string) {}

  /** Parses a list up to an unmatched `)` (the inside of `$(…)`). */
  abstract parseList(terms: Set<string>): List;
  /** Parses a whole nested command line (the inside of backquotes). */
  protected abstract parseNested(src: string): List;
  /** A reader over another string (the inside of `$((…))`). */
  protected abstract subReader(src: string): WordReader;
  /** The syntax error for the token at the cursor. */
  abstract unexpected(): ShellSyntaxError;
  /** Skips blanks, comments and (when asked) newlines. */
  abstract skipSpace(newlines: boolean): void;

  eof(): boolean {
    return this.pos >= this.src.length;
  }

  protected peek(offset = 0): string {
    return this.src.charAt(this.pos + offset);
  }

  /** Reads one word up to an unquoted metacharacter; null when none starts here. */
  readWord(): Word | null {
    const parts: WordPart[] = [];
    let lit = '';
    const flush = (): void => {
      if (lit !== '') {
        parts.push({ k: 'lit', s: lit, q: false });
        lit = '';
      }
    };
    const start = this.pos;
    while (!this.eof()) {
      const c = this.peek();
      if (META.has(c)) {
        break;
      }
      if (c === '\\') {
        const n = this.peek(1);
        if (n === '\n') {
          this.pos += 2;
          continue;
        }
        flush();
        if (n === '') {
          // A trailing backslash stands for itself, as mksh treats it.
          parts.push({ k: 'lit', s: '\\', q: true });
          this.pos += 1;
        } else {
          parts.push({ k: 'lit', s: n, q: true });
          this.pos += 2;
        }
        continue;
      }
      if (c === "'") {
        flush();
        const end = this.src.indexOf("'", this.pos + 1);
        if (end < 0) {
          throw new ShellSyntaxError('no closing quote');
        }
        parts.push({ k: 'lit', s: this.src.slice(this.pos + 1, end), q: true });
        this.pos = end + 1;
        continue;
      }
      if (c === '"') {
        flush();
        this.pos++;
        this.readDouble(parts);
        continue;
      }
      if (c === '$') {
        flush();
        parts.push(this.readDollar(false));
        continue;
      }
      if (c === '`') {
        flush();
        parts.push(this.readBackquote(false));
        continue;
      }
      lit += c;
      this.pos++;
    }
    flush();
    return this.pos === start ? null : parts;
  }

  protected readDouble(parts: WordPart[]): void {
    let lit = '';
    let any = false;
    const flush = (): void => {
      if (lit !== '') {
        parts.push({ k: 'lit', s: lit, q: true });
        lit = '';
        any = true;
      }
    };
    for (;;) {
      if (this.eof()) {
        throw new ShellSyntaxError('no closing quote');
      }
      const c = this.peek();
      if (c === '"') {
        this.pos++;
        break;
      }
      if (c === '\\') {
        const n = this.peek(1);
        if (n === '$' || n === '`' || n === '"' || n === '\\') {
          lit += n;
          this.pos += 2;
        } else if (n === '\n') {
          this.pos += 2;
        } else {
          lit += '\\';
          this.pos += 1;
        }
        continue;
      }
      if (c === '$') {
        flush();
        parts.push(this.readDollar(true));
        any = true;
        continue;
      }
      if (c === '`') {
        flush();
        parts.push(this.readBackquote(true));
        any = true;
        continue;
      }
      lit += c;
      this.pos++;
    }
    flush();
    if (!any) {
      // `""` is still a word: an empty, quoted one.
      parts.push({ k: 'lit', s: '', q: true });
    }
  }

  protected readDollar(q: boolean): WordPart {
    this.pos++; // $
    const c = this.peek();
    if (c === '(') {
      if (this.peek(1) === '(') {
        return this.readArith(q);
      }
      this.pos++;
      const list = this.parseList(new Set([')']));
      this.skipSpace(true);
      if (this.peek() !== ')') {
        throw this.eof()
          ? new ShellSyntaxError("syntax error: unexpected EOF while looking for ')'")
          : this.unexpected();
      }
      this.pos++;
      return { k: 'cmd', list, q };
    }
    if (c === '{') {
      return this.readBraceParam(q);
    }
    if (NAME_START.test(c)) {
      const start = this.pos;
      while (NAME_CHAR.test(this.peek())) {
        this.pos++;
      }
      return { k: 'param', name: this.src.slice(start, this.pos), q };
    }
    if (/[0-9?$#!@*-]/.test(c) && c !== '') {
      this.pos++;
      return { k: 'param', name: c, q };
    }
    return { k: 'lit', s: '$', q };
  }

  protected readArith(q: boolean): WordPart {
    this.pos += 2;
    let depth = 0;
    const start = this.pos;
    for (;;) {
      if (this.eof()) {
        throw new ShellSyntaxError("syntax error: unexpected EOF while looking for '))'");
      }
      const c = this.peek();
      if (c === '(') {
        depth++;
      } else if (c === ')') {
        if (depth === 0 && this.peek(1) === ')') {
          break;
        }
        depth--;
      }
      this.pos++;
    }
    const inner = this.src.slice(start, this.pos);
    this.pos += 2;
    const sub = this.subReader(inner);
    const expr: Word = [];
    while (!sub.eof()) {
      const c = sub.peek();
      if (c === '$') {
        expr.push(sub.readDollar(true));
      } else {
        expr.push({ k: 'lit', s: c, q: true });
        sub.pos++;
      }
    }
    return { k: 'arith', expr, q };
  }

  protected readBraceParam(q: boolean): WordPart {
    this.pos++; // {
    let lengthOf = false;
    if (this.peek() === '#' && this.peek(1) !== '}') {
      lengthOf = true;
      this.pos++;
    }
    const start = this.pos;
    if (NAME_START.test(this.peek())) {
      while (NAME_CHAR.test(this.peek())) {
        this.pos++;
      }
    } else if (/[0-9?$#!@*-]/.test(this.peek())) {
      this.pos++;
    }
    const name = this.src.slice(start, this.pos);
    if (name === '') {
      throw new ShellSyntaxError('bad substitution');
    }
    if (lengthOf) {
      if (this.peek() !== '}') {
        throw new ShellSyntaxError('bad substitution');
      }
      this.pos++;
      return { k: 'param', name, q, op: '#len' };
    }
    if (this.peek() === '}') {
      this.pos++;
      return { k: 'param', name, q };
    }
    let op: ParamOp | null = null;
    for (const candidate of [':-', ':=', ':+', '##', '%%', '-', '=', '+', '#', '%'] as const) {
      if (this.src.startsWith(candidate, this.pos)) {
        op = candidate;
        this.pos += candidate.length;
        break;
      }
    }
    if (op === null) {
      throw new ShellSyntaxError('bad substitution');
    }
    const arg = this.readBraceArg(q);
    return { k: 'param', name, q, op, arg };
  }

  /** The word inside `${name OP word}`, up to the closing brace. */
  protected readBraceArg(q: boolean): Word {
    const parts: WordPart[] = [];
    let lit = '';
    const flush = (): void => {
      if (lit !== '') {
        parts.push({ k: 'lit', s: lit, q });
        lit = '';
      }
    };
    for (;;) {
      if (this.eof()) {
        throw new ShellSyntaxError('bad substitution');
      }
      const c = this.peek();
      if (c === '}') {
        this.pos++;
        break;
      }
      if (c === '\\' && this.peek(1) !== '') {
        flush();
        parts.push({ k: 'lit', s: this.peek(1), q: true });
        this.pos += 2;
      } else if (c === "'" && !q) {
        flush();
        const end = this.src.indexOf("'", this.pos + 1);
        if (end < 0) {
          throw new ShellSyntaxError('no closing quote');
        }
        parts.push({ k: 'lit', s: this.src.slice(this.pos + 1, end), q: true });
        this.pos = end + 1;
      } else if (c === '"') {
        flush();
        this.pos++;
        this.readDouble(parts);
      } else if (c === '$') {
        flush();
        parts.push(this.readDollar(q));
      } else {
        lit += c;
        this.pos++;
      }
    }
    flush();
    return parts;
  }

  protected readBackquote(q: boolean): WordPart {
    this.pos++;
    let inner = '';
    for (;;) {
      if (this.eof()) {
        throw new ShellSyntaxError('no closing quote');
      }
      const c = this.peek();
      if (c === '`') {
        this.pos++;
        break;
      }
      if (c === '\\' && /[`\\$]/.test(this.peek(1))) {
        inner += this.peek(1);
        this.pos += 2;
        continue;
      }
      inner += c;
      this.pos++;
    }
    return { k: 'cmd', list: this.parseNested(inner), q };
  }
}
