/**
 * Evidence: POSIX Shell Command Language 2.10 (the shell grammar), the subset Android's sh
 * (external/mksh) accepts that clients send.
 */
import type { AndOr, Command, List, Pipeline, Redir, RedirOp, SimpleCommand, Word } from './ast.js';
import { META, NAME_CHAR, NAME_START, ShellSyntaxError, WordReader } from './parse-words.js';

export { ShellSyntaxError } from './parse-words.js';

const BLANK = new Set([' ', '\t']);
const RESERVED = new Set([
  'if',
  'then',
  'elif',
  'else',
  'fi',
  'while',
  'until',
  'for',
  'do',
  'done',
  '{',
  '}',
  '!',
  'in',
]);

/** Parses a whole command line into a list. Throws ShellSyntaxError. */
export function parseCommandLine(src: string): List {
  const p = new Parser(src);
  const list = p.parseList(new Set());
  p.skipSpace(true);
  if (!p.eof()) {
    throw p.unexpected();
  }
  return list;
}

class Parser extends WordReader {
  protected parseNested(src: string): List {
    return parseCommandLine(src);
  }

  protected subReader(src: string): WordReader {
    return new Parser(src);
  }

  unexpected(): ShellSyntaxError {
    if (this.eof()) {
      return new ShellSyntaxError('syntax error: unexpected EOF');
    }
    let tok = this.peek();
    const two = this.src.slice(this.pos, this.pos + 2);
    if (two === '&&' || two === '||' || two === ';;' || two === '>>' || two === '<<') {
      tok = two;
    } else if (tok === '\n') {
      tok = 'newline';
    }
    return new ShellSyntaxError(`syntax error: '${tok}' unexpected`);
  }

  /** Skips blanks, comments and (when asked) newlines. */
  skipSpace(newlines: boolean): void {
    for (;;) {
      const c = this.peek();
      if (BLANK.has(c) || (newlines && c === '\n')) {
        this.pos++;
      } else if (c === '\\' && this.peek(1) === '\n') {
        this.pos += 2;
      } else if (c === '#') {
        while (!this.eof() && this.peek() !== '\n') {
          this.pos++;
        }
      } else {
        return;
      }
    }
  }

  /** The reserved word at the cursor, if the next word is one (unquoted and standalone). */
  private peekReserved(): string | null {
    const save = this.pos;
    let w = '';
    while (!this.eof() && !META.has(this.peek()) && /[a-z{}!]/.test(this.peek())) {
      w += this.peek();
      this.pos++;
    }
    const end = this.eof() || META.has(this.peek());
    this.pos = save;
    return end && RESERVED.has(w) ? w : null;
  }

  private takeReserved(word: string): void {
    this.skipSpace(true);
    if (this.peekReserved() !== word) {
      throw this.unexpected();
    }
    this.pos += word.length;
  }

  parseList(terms: Set<string>): List {
    const list: List = [];
    for (;;) {
      this.skipSpace(true);
      while (this.peek() === ';' && this.peek(1) !== ';') {
        if (list.length === 0) {
          throw this.unexpected();
        }
        this.pos++;
        this.skipSpace(true);
      }
      if (this.eof() || (this.peek() === ')' && terms.has(')'))) {
        return list;
      }
      const reserved = this.peekReserved();
      if (reserved !== null && terms.has(reserved)) {
        return list;
      }
      const andOr = this.parseAndOr();
      let background = false;
      this.skipSpace(false);
      const c = this.peek();
      if (c === '&' && this.peek(1) !== '&') {
        background = true;
        this.pos++;
      } else if (c === ';' && this.peek(1) !== ';') {
        this.pos++;
      } else if (c === '\n') {
        this.pos++;
      } else if (!this.eof() && !(c === ')' && terms.has(')'))) {
        const r = this.peekReserved();
        if (r === null || !terms.has(r)) {
          throw this.unexpected();
        }
      }
      list.push({ andOr, background });
    }
  }

  private parseAndOr(): AndOr {
    const first = this.parsePipeline();
    const rest: AndOr['rest'] = [];
    for (;;) {
      this.skipSpace(false);
      const two = this.src.slice(this.pos, this.pos + 2);
      if (two !== '&&' && two !== '||') {
        return { first, rest };
      }
      this.pos += 2;
      this.skipSpace(true);
      rest.push({ op: two, pipeline: this.parsePipeline() });
    }
  }

  private parsePipeline(): Pipeline {
    this.skipSpace(false);
    let bang = false;
    if (this.peekReserved() === '!') {
      bang = true;
      this.pos++;
    }
    const cmds: Command[] = [this.parseCommand()];
    for (;;) {
      this.skipSpace(false);
      if (this.peek() !== '|' || this.peek(1) === '|') {
        return { bang, cmds };
      }
      this.pos++;
      this.skipSpace(true);
      cmds.push(this.parseCommand());
    }
  }

  private parseCommand(): Command {
    this.skipSpace(false);
    if (this.peek() === '(') {
      this.pos++;
      const body = this.parseList(new Set([')']));
      this.skipSpace(true);
      if (this.peek() !== ')') {
        throw this.unexpected();
      }
      this.pos++;
      return { k: 'group', subshell: true, body, redirs: this.parseTrailingRedirs() };
    }
    const reserved = this.peekReserved();
    switch (reserved) {
      case '{': {
        this.pos++;
        const body = this.parseList(new Set(['}']));
        this.takeReserved('}');
        return { k: 'group', subshell: false, body, redirs: this.parseTrailingRedirs() };
      }
      case 'if':
        return this.parseIf();
      case 'while':
      case 'until': {
        this.pos += reserved.length;
        const cond = this.parseList(new Set(['do']));
        this.takeReserved('do');
        const body = this.parseList(new Set(['done']));
        this.takeReserved('done');
        return { k: 'loop', until: reserved === 'until', cond, body, redirs: this.parseTrailingRedirs() };
      }
      case 'for':
        return this.parseFor();
      case null:
        break;
      default:
        throw this.unexpected();
    }
    return this.parseSimple();
  }

  private parseIf(): Command {
    this.pos += 2;
    const clauses: { cond: List; body: List }[] = [];
    let otherwise: List | null = null;
    for (;;) {
      const cond = this.parseList(new Set(['then']));
      this.takeReserved('then');
      const body = this.parseList(new Set(['elif', 'else', 'fi']));
      clauses.push({ cond, body });
      this.skipSpace(true);
      const r = this.peekReserved();
      if (r === 'elif') {
        this.pos += 4;
        continue;
      }
      if (r === 'else') {
        this.pos += 4;
        otherwise = this.parseList(new Set(['fi']));
      }
      this.takeReserved('fi');
      return { k: 'if', clauses, otherwise, redirs: this.parseTrailingRedirs() };
    }
  }

  private parseFor(): Command {
    this.pos += 3;
    this.skipSpace(false);
    const start = this.pos;
    while (NAME_CHAR.test(this.peek())) {
      this.pos++;
    }
    const name = this.src.slice(start, this.pos);
    if (!NAME_START.test(name.charAt(0))) {
      throw this.unexpected();
    }
    this.skipSpace(true);
    let items: Word[] | null = null;
    if (this.peekReserved() === 'in') {
      this.pos += 2;
      items = [];
      for (;;) {
        this.skipSpace(false);
        const c = this.peek();
        if (c === ';' || c === '\n' || this.eof()) {
          break;
        }
        const w = this.readWord();
        if (w === null) {
          throw this.unexpected();
        }
        items.push(w);
      }
    }
    this.skipSpace(false);
    if (this.peek() === ';' || this.peek() === '\n') {
      this.pos++;
    }
    this.takeReserved('do');
    const body = this.parseList(new Set(['done']));
    this.takeReserved('done');
    return { k: 'for', name, items, body, redirs: this.parseTrailingRedirs() };
  }

  private parseTrailingRedirs(): Redir[] {
    const redirs: Redir[] = [];
    for (;;) {
      this.skipSpace(false);
      const r = this.tryRedir();
      if (r === null) {
        return redirs;
      }
      redirs.push(r);
    }
  }

  private parseSimple(): SimpleCommand {
    const cmd: SimpleCommand = { k: 'simple', assigns: [], words: [], redirs: [] };
    for (;;) {
      this.skipSpace(false);
      const redir = this.tryRedir();
      if (redir !== null) {
        cmd.redirs.push(redir);
        continue;
      }
      if (this.eof() || META.has(this.peek())) {
        break;
      }
      if (cmd.words.length === 0) {
        const assign = this.tryAssignment();
        if (assign !== null) {
          cmd.assigns.push(assign);
          continue;
        }
      }
      const word = this.readWord();
      if (word === null) {
        break;
      }
      cmd.words.push(word);
    }
    if (cmd.words.length === 0 && cmd.assigns.length === 0 && cmd.redirs.length === 0) {
      throw this.unexpected();
    }
    return cmd;
  }

  private tryAssignment(): { name: string; value: Word } | null {
    const save = this.pos;
    if (!NAME_START.test(this.peek())) {
      return null;
    }
    while (NAME_CHAR.test(this.peek())) {
      this.pos++;
    }
    if (this.peek() !== '=') {
      this.pos = save;
      return null;
    }
    const name = this.src.slice(save, this.pos);
    this.pos++;
    const value = this.readWord() ?? [];
    return { name, value };
  }

  private tryRedir(): Redir | null {
    const save = this.pos;
    let fd = -1;
    let digits = '';
    while (/[0-9]/.test(this.peek())) {
      digits += this.peek();
      this.pos++;
    }
    const c = this.peek();
    let op: RedirOp | null = null;
    if (c === '&' && this.peek(1) === '>' && digits === '') {
      op = '&>';
      this.pos += 2;
    } else if (c === '>') {
      const n = this.peek(1);
      if (n === '>') {
        op = '>>';
        this.pos += 2;
      } else if (n === '&') {
        op = '>&';
        this.pos += 2;
      } else if (n === '|') {
        op = '>';
        this.pos += 2;
      } else {
        op = '>';
        this.pos += 1;
      }
    } else if (c === '<') {
      const n = this.peek(1);
      if (n === '&') {
        op = '<&';
        this.pos += 2;
      } else if (n === '>') {
        op = '<>';
        this.pos += 2;
      } else if (n === '<') {
        this.pos = save;
        throw new ShellSyntaxError('here documents are not supported by this shell');
      } else {
        op = '<';
        this.pos += 1;
      }
    }
    if (op === null) {
      this.pos = save;
      return null;
    }
    if (digits !== '') {
      fd = Number(digits);
    } else {
      fd = op === '<' || op === '<&' || op === '<>' ? 0 : 1;
    }
    this.skipSpace(false);
    const target = this.readWord();
    if (target === null) {
      throw this.unexpected();
    }
    return { fd, op, target };
  }
}
