/**
 * Evidence: POSIX Shell Command Language 2.6 (word expansions: parameters, command substitution,
 * arithmetic, field splitting, pathname expansion).
 */
import type { MemFs } from '../device/fs.js';
import { evalArith } from './arith.js';
import type { List, Word } from './ast.js';
import { expandGlob, hasGlob, matchPattern, type Segment } from './glob.js';
import type { State, Streams } from './shell-state.js';

/** An expansion that cannot be done (bad arithmetic); the shell reports it and the command fails. */
export class ExpansionError extends Error {}

/** What word expansion needs from the shell. */
export interface ExpandHost {
  fs: MemFs;
  pid: number;
  /** Runs `$(…)` in a subshell; its output and exit status. */
  substitute(list: List, state: State, streams: Streams): Promise<{ text: string; code: number }>;
}

/** Word expansion as sh does it: parameters, command substitution, arithmetic, field splitting, globbing. */
export class Expander {
  constructor(private readonly host: ExpandHost) {}

  async words(words: Word[], state: State, streams: Streams, subst?: { value: number }): Promise<string[]> {
    const out: string[] = [];
    for (const w of words) {
      for (const field of await this.fields(w, state, streams, subst)) {
        if (hasGlob(field)) {
          const matches = expandGlob(this.host.fs, state.cwd, field);
          if (matches !== null) {
            out.push(...matches);
            continue;
          }
        }
        out.push(field.map((s) => s.s).join(''));
      }
    }
    return out;
  }

  /** One word to one string: no field splitting, no globbing (assignments, redirection targets). */
  async string(word: Word, state: State, streams: Streams, subst?: { value: number }): Promise<string> {
    let s = '';
    for (const part of word) {
      s += part.k === 'lit' ? part.s : await this.part(part, state, streams, subst);
    }
    return s;
  }

  async fields(word: Word, state: State, streams: Streams, subst?: { value: number }): Promise<Segment[][]> {
    const fields: Segment[][] = [];
    let cur: Segment[] | null = null;
    for (const part of word) {
      if (part.k === 'lit') {
        cur ??= [];
        cur.push({ s: part.s, q: part.q });
        continue;
      }
      const value = await this.part(part, state, streams, subst);
      if (part.q) {
        cur ??= [];
        cur.push({ s: value, q: true });
        continue;
      }
      // Unquoted expansion: split on IFS whitespace.
      let piece = '';
      for (const c of value) {
        if (c === ' ' || c === '\t' || c === '\n') {
          if (piece !== '') {
            cur ??= [];
            cur.push({ s: piece, q: false });
            piece = '';
          }
          if (cur !== null) {
            fields.push(cur);
            cur = null;
          }
        } else {
          piece += c;
        }
      }
      if (piece !== '') {
        cur ??= [];
        cur.push({ s: piece, q: false });
      }
    }
    if (cur !== null) {
      fields.push(cur);
    }
    return fields;
  }

  async part(
    part: Exclude<Word[number], { k: 'lit' }>,
    state: State,
    streams: Streams,
    subst?: { value: number },
  ): Promise<string> {
    switch (part.k) {
      case 'cmd': {
        const status = await this.host.substitute(part.list, state, streams);
        state.last = status.code;
        if (subst !== undefined) {
          subst.value = status.code;
        }
        return status.text.replace(/\n+$/, '');
      }
      case 'arith': {
        const expr = await this.string(part.expr, state, streams, subst);
        try {
          return String(evalArith(expr, (n) => state.vars.get(n)));
        } catch (err) {
          throw new ExpansionError(err instanceof Error ? err.message : String(err));
        }
      }
      case 'param':
        return this.param(part, state, streams, subst);
    }
  }

  async param(
    part: Extract<Word[number], { k: 'param' }>,
    state: State,
    streams: Streams,
    subst?: { value: number },
  ): Promise<string> {
    const value = this.paramValue(part.name, state);
    const arg = async (): Promise<string> =>
      part.arg === undefined ? '' : this.string(part.arg, state, streams, subst);
    switch (part.op) {
      case undefined:
        return value ?? '';
      case '#len':
        return String([...(value ?? '')].length);
      case ':-':
        return value === undefined || value === '' ? arg() : value;
      case '-':
        return value === undefined ? arg() : value;
      case ':=':
      case '=': {
        if (value === undefined || (part.op === ':=' && value === '')) {
          const v = await arg();
          state.vars.set(part.name, v);
          return v;
        }
        return value;
      }
      case ':+':
        return value === undefined || value === '' ? '' : arg();
      case '+':
        return value === undefined ? '' : arg();
      case '#':
      case '##':
      case '%':
      case '%%': {
        const v = value ?? '';
        const pattern: Segment[] = [{ s: await arg(), q: false }];
        const longest = part.op === '##' || part.op === '%%';
        const prefix = part.op.startsWith('#');
        const candidates: number[] = [];
        for (let i = 0; i <= v.length; i++) {
          candidates.push(i);
        }
        if (longest === prefix) {
          candidates.reverse();
        }
        for (const i of candidates) {
          if (prefix && matchPattern(pattern, v.slice(0, i))) {
            return v.slice(i);
          }
          if (!prefix && matchPattern(pattern, v.slice(v.length - i))) {
            return v.slice(0, v.length - i);
          }
        }
        return v;
      }
    }
  }

  private paramValue(name: string, state: State): string | undefined {
    switch (name) {
      case '?':
        return String(state.last);
      case '$':
        return String(this.host.pid);
      case '#':
        return String(state.positional.length);
      case '0':
        return state.argv0;
      case '@':
      case '*':
        return state.positional.join(' ');
      case '!':
        return '';
      case '-':
        return 'h';
    }
    if (/^[1-9]$/.test(name)) {
      return state.positional[Number(name) - 1];
    }
    return state.vars.get(name);
  }
}
