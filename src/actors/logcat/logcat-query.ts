/**
 * Android Studio's Logcat query language, compiled to a predicate over entries.
 *
 * Terms: `key:value` (contains, case-insensitive), `key~:regex` (RE2, linear time: user-regex.ts),
 * `key=:exact`, each negatable with
 * `-`, for the keys `tag`, `package` (`app`), `message`, `line`, `process`; `level:` (that level or
 * higher), `age:5m` (s, m, h, d), `is:crash`, `is:stacktrace`, `pid:`, `tid:`, `name:` (ignored, as
 * Studio uses it to name a filter). `package:mine` is the caller's own packages (and, as in Studio,
 * error lines naming one of them). Values may be quoted with `'` or `"`; `\` escapes. Bare words are
 * free text: consecutive ones form one phrase matched against the message. Terms are joined by
 * implicit AND, `&` and `|` (AND binds tighter), and parentheses; at the top level, positive terms of
 * the same key joined implicitly are ORed (`tag:A tag:B` is either tag), as Studio does. An invalid
 * query throws `LogcatQueryError` with a message saying what is wrong.
 */
import type { LogEntry, LogLevel } from './logcat-types.js';
import { LEVEL_RANK } from './logcat-types.js';
import { LogcatQueryError } from './logcat-query-error.js';
import { FIELD_KEYS, tokenize, type Field, type Token } from './logcat-query-lexer.js';
import { userRegex, type UserRegex } from './user-regex.js';
import { escapeRegExp } from '../../util/escape-regexp.js';

export { LogcatQueryError } from './logcat-query-error.js';

/** Context a query is evaluated in. */
export interface QueryContext {
  /** Packages `package:mine` stands for. */
  mine?: readonly string[];
  /** Host time for `age:` (default Date.now()). */
  now?: number;
  /** Process names for `process:` (default: the entry's package). */
  processOf?: (pid: number) => string | null;
  /** Counts the regex work done (worst-case ns per byte × bytes handed to RE2), when set. */
  meter?: { work: number };
}

export type EntryPredicate = (e: LogEntry) => boolean;

const LEVEL_NAMES: Record<string, LogLevel> = {
  v: 'V',
  verbose: 'V',
  d: 'D',
  debug: 'D',
  i: 'I',
  info: 'I',
  w: 'W',
  warn: 'W',
  warning: 'W',
  e: 'E',
  error: 'E',
  f: 'F',
  fatal: 'F',
  a: 'F',
  assert: 'F',
};

/** `error`, `E`, `warn` … → a level; null when not a level name. */
export function parseLevelName(text: string): LogLevel | null {
  return LEVEL_NAMES[text.trim().toLowerCase()] ?? null;
}

type Node =
  | { n: 'and'; kids: Node[]; implicit: boolean }
  | { n: 'or'; kids: Node[] }
  | { n: 'leaf'; key: string; neg: boolean; pred: EntryPredicate; regex?: RegexTerm };

/** A `key~:regex` term: its compiled pattern and the field it reads, for the query's cost bound. */
export interface RegexTerm {
  rx: UserRegex;
  get: (e: LogEntry) => string;
}

class Parser {
  private i = 0;
  constructor(
    private readonly toks: Token[],
    private readonly q: string,
    private readonly leaf: (t: Extract<Token, { t: 'term' }>) => Node,
  ) {}

  parse(): Node | null {
    if (this.toks.length === 0) {
      return null;
    }
    const node = this.or();
    const t = this.toks[this.i];
    if (t !== undefined) {
      throw new LogcatQueryError(
        t.t === 'rp'
          ? `unbalanced parentheses: unexpected ')' at column ${t.at + 1}`
          : `unexpected input at column ${t.at + 1}`,
      );
    }
    return node;
  }

  private or(): Node {
    const kids = [this.and()];
    while (this.toks[this.i]?.t === 'or') {
      const at = this.toks[this.i]?.at ?? 0;
      this.i++;
      if (!this.startsOperand()) {
        throw new LogcatQueryError(`'|' at column ${at + 1} needs an expression on both sides`);
      }
      kids.push(this.and());
    }
    return kids.length === 1 ? (kids[0] as Node) : { n: 'or', kids };
  }

  private startsOperand(): boolean {
    const t = this.toks[this.i];
    return t !== undefined && (t.t === 'lp' || t.t === 'term' || t.t === 'word');
  }

  private and(): Node {
    if (!this.startsOperand()) {
      const t = this.toks[this.i];
      throw new LogcatQueryError(
        t === undefined
          ? 'the query ends where an expression was expected'
          : `expected an expression at column ${t.at + 1}${t.t === 'rp' ? " (unbalanced ')')" : ''}`,
      );
    }
    const kids: Node[] = [];
    let implicit = true;
    for (;;) {
      kids.push(this.unary());
      const t = this.toks[this.i];
      if (t?.t === 'and') {
        implicit = false;
        this.i++;
        if (!this.startsOperand()) {
          throw new LogcatQueryError(`'&' at column ${t.at + 1} needs an expression on both sides`);
        }
        continue;
      }
      if (this.startsOperand()) {
        continue;
      }
      break;
    }
    return kids.length === 1 ? (kids[0] as Node) : { n: 'and', kids, implicit };
  }

  private unary(): Node {
    const t = this.toks[this.i];
    if (t === undefined) {
      throw new LogcatQueryError('the query ends where an expression was expected');
    }
    if (t.t === 'lp') {
      this.i++;
      const inner = this.or();
      if (this.toks[this.i]?.t !== 'rp') {
        throw new LogcatQueryError(`unbalanced parentheses: '(' at column ${t.at + 1} is never closed`);
      }
      this.i++;
      return inner;
    }
    if (t.t === 'term') {
      this.i++;
      return this.leaf(t);
    }
    if (t.t === 'word') {
      // Consecutive bare words are one phrase, spaced as typed.
      let end = t.end;
      let phrase = t.value;
      let quoted = t.quoted;
      this.i++;
      for (
        let next = this.toks[this.i];
        next?.t === 'word' && !quoted && !next.quoted;
        next = this.toks[this.i]
      ) {
        phrase = this.q.slice(t.at, next.end);
        end = next.end;
        quoted = next.quoted;
        this.i++;
      }
      void end;
      return { n: 'leaf', key: '', neg: false, pred: containsPred('message', phrase) };
    }
    throw new LogcatQueryError(
      `unexpected '${t.t === 'rp' ? ')' : t.t === 'and' ? '&' : '|'}' at column ${t.at + 1}`,
    );
  }
}

type Getter = (e: LogEntry) => string;

function getter(field: Field, ctx: QueryContext): Getter {
  switch (field) {
    case 'tag':
      return (e) => e.tag;
    case 'package':
      return (e) => e.package ?? '';
    case 'message':
      return (e) => e.message;
    case 'process': {
      const processOf = ctx.processOf;
      return processOf !== undefined ? (e) => processOf(e.pid) ?? e.package ?? '' : (e) => e.package ?? '';
    }
    case 'line':
      return (e) => `${e.level}/${e.tag}(${e.pid}): ${e.message} ${e.package ?? ''}`;
    default: {
      const never: never = field;
      throw new Error(`unknown field ${String(never)}`);
    }
  }
}

function containsPred(field: Field, value: string, ctx: QueryContext = {}): EntryPredicate {
  const get = getter(field, ctx);
  const re = new RegExp(escapeRegExp(value), 'i');
  return (e) => re.test(get(e));
}

const AGE = /^(\d{1,9})([smhd])$/;
const AGE_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const STACK_FRAME = /^\s*(?:at \S.*\(.*\)|#\d+ pc [0-9a-fA-F]+)/;

function leafFor(t: Extract<Token, { t: 'term' }>, ctx: QueryContext): Node {
  const { key, op, neg, value } = t;
  const field = FIELD_KEYS[key];
  let pred: EntryPredicate;
  let regex: RegexTerm | undefined;
  if (field !== undefined) {
    if (field === 'package' && op === ':' && value === 'mine') {
      pred = minePred(ctx.mine ?? []);
    } else if (op === '~:') {
      let rx: UserRegex;
      try {
        rx = userRegex(value);
      } catch (err) {
        throw new LogcatQueryError(
          `invalid regular expression '${value}' in ${key}~: (${(err as Error).message})`,
        );
      }
      const get = getter(field, ctx);
      const meter = ctx.meter;
      const cost = rx.costPerByte;
      pred = (e) => {
        const text = get(e);
        if (!rx.mayMatch(text)) {
          return false;
        }
        if (meter !== undefined) {
          meter.work += cost * text.length;
        }
        return rx.run(text);
      };
      regex = { rx, get };
    } else if (op === '=:') {
      const get = getter(field, ctx);
      pred = (e) => get(e) === value;
    } else {
      pred = containsPred(field, value, ctx);
    }
  } else {
    if (op !== ':') {
      throw new LogcatQueryError(`${key}${op} is not supported; use ${key}:`);
    }
    switch (key) {
      case 'level': {
        const lv = parseLevelName(value);
        if (lv === null) {
          throw new LogcatQueryError(
            `invalid level '${value}' (use verbose, debug, info, warn, error or assert)`,
          );
        }
        const min = LEVEL_RANK[lv];
        pred = (e) => LEVEL_RANK[e.level] >= min;
        break;
      }
      case 'age': {
        const m = AGE.exec(value);
        if (m === null) {
          throw new LogcatQueryError(
            `invalid age '${value}' (a number followed by s, m, h or d, like age:5m)`,
          );
        }
        const since = (ctx.now ?? Date.now()) - Number(m[1]) * (AGE_MS[m[2] ?? 's'] ?? 1000);
        pred = (e) => e.ts > 0 && e.ts >= since;
        break;
      }
      case 'is':
        if (value === 'crash') {
          pred = (e) => e.crash !== null;
        } else if (value === 'stacktrace') {
          pred = (e) => STACK_FRAME.test(e.message);
        } else {
          throw new LogcatQueryError(`invalid is:${value} (use is:crash or is:stacktrace)`);
        }
        break;
      case 'pid':
      case 'tid': {
        if (!/^\d{1,10}$/.test(value)) {
          throw new LogcatQueryError(`invalid ${key} '${value}' (a number)`);
        }
        const id = Number(value);
        pred = key === 'pid' ? (e) => e.pid === id : (e) => e.tid === id;
        break;
      }
      case 'name':
        pred = () => true;
        break;
      default:
        throw new LogcatQueryError(`unknown key ${key}:`);
    }
  }
  return {
    n: 'leaf',
    key: neg ? '' : key === 'app' ? 'package' : key,
    neg,
    pred: neg ? negate(pred) : pred,
    ...(regex !== undefined ? { regex } : {}),
  };
}

function negate(p: EntryPredicate): EntryPredicate {
  return (e) => !p(e);
}

/** `package:mine`: lines of the given packages, and error lines that name one of them. */
function minePred(mine: readonly string[]): EntryPredicate {
  if (mine.length === 0) {
    return () => false;
  }
  const set = new Set(mine);
  const re = new RegExp(mine.map(escapeRegExp).join('|'));
  const errorRank = LEVEL_RANK.E;
  return (e) =>
    (e.package !== null && set.has(e.package)) || (LEVEL_RANK[e.level] >= errorRank && re.test(e.message));
}

/** Studio ORs positive same-key terms joined implicitly at the top level. */
function groupSameKeys(node: Node): Node {
  if (node.n !== 'and' || !node.implicit) {
    return node;
  }
  const byKey = new Map<string, Node[]>();
  const rest: Node[] = [];
  for (const k of node.kids) {
    if (k.n === 'leaf' && !k.neg && FIELD_KEYS[k.key] !== undefined) {
      const list = byKey.get(k.key) ?? [];
      list.push(k);
      byKey.set(k.key, list);
    } else {
      rest.push(k);
    }
  }
  const kids: Node[] = [];
  for (const list of byKey.values()) {
    kids.push(list.length === 1 ? (list[0] as Node) : { n: 'or', kids: list });
  }
  kids.push(...rest);
  return kids.length === 1 ? (kids[0] as Node) : { n: 'and', kids, implicit: true };
}

function compileNode(node: Node): EntryPredicate {
  switch (node.n) {
    case 'leaf':
      return node.pred;
    case 'and': {
      const ps = node.kids.map(compileNode);
      if (ps.length === 2) {
        const [a, b] = ps as [EntryPredicate, EntryPredicate];
        return (e) => a(e) && b(e);
      }
      return (e) => {
        for (const p of ps) {
          if (!p(e)) {
            return false;
          }
        }
        return true;
      };
    }
    case 'or': {
      const ps = node.kids.map(compileNode);
      return (e) => {
        for (const p of ps) {
          if (p(e)) {
            return true;
          }
        }
        return false;
      };
    }
    default: {
      const never: never = node;
      throw new Error(`unknown node ${String(never)}`);
    }
  }
}

function regexTerms(node: Node): RegexTerm[] {
  return node.n === 'leaf' ? (node.regex ? [node.regex] : []) : node.kids.flatMap(regexTerms);
}

/** ANDs run their regex-free terms first, so RE2 only reads what the cheap terms let through. */
function cheapFirst(node: Node): Node {
  if (node.n === 'leaf') {
    return node;
  }
  const kids = node.kids.map(cheapFirst);
  if (node.n === 'or') {
    return { n: 'or', kids };
  }
  const cheap = kids.filter((k) => regexTerms(k).length === 0);
  return { ...node, kids: [...cheap, ...kids.filter((k) => regexTerms(k).length > 0)] };
}

/**
 * A compiled query and what bounds its regex work: the conjunction of its top-level terms that run
 * no regex (`cheap`: evaluated first, so no RE2 reads a line it rejects) and the regex terms.
 */
export interface QueryPlan {
  pred: EntryPredicate;
  cheap: EntryPredicate | null;
  regexes: RegexTerm[];
}

/** Compiles a Studio-syntax query into its plan; null for an empty query. Throws LogcatQueryError. */
export function compileLogcatQueryPlan(query: string, ctx: QueryContext = {}): QueryPlan | null {
  if (query.length > 4096) {
    throw new LogcatQueryError('the query is longer than 4,096 characters');
  }
  const tokens = tokenize(query);
  const ast = new Parser(tokens, query, (t) => leafFor(t, ctx)).parse();
  if (ast === null) {
    return null;
  }
  const root = cheapFirst(groupSameKeys(ast));
  const regexes = regexTerms(root);
  let cheap: EntryPredicate | null = null;
  if (regexes.length === 0) {
    cheap = compileNode(root);
  } else if (root.n === 'and') {
    const kids = root.kids.filter((k) => regexTerms(k).length === 0);
    cheap = kids.length === 0 ? null : compileNode({ n: 'and', kids, implicit: false });
  }
  return { pred: compileNode(root), cheap, regexes };
}

/** Compiles a Studio-syntax query; null for an empty query (matches everything). Throws LogcatQueryError. */
export function compileLogcatQuery(query: string, ctx: QueryContext = {}): EntryPredicate | null {
  return compileLogcatQueryPlan(query, ctx)?.pred ?? null;
}
