/**
 * Reads the meaning of single statements out of a script tree: `key = value`, `key value`
 * (a Groovy command call), `key(value)`, `key += value`, `key.add(value)`, and the names of
 * container items (`demo { … }`, `create("demo") { … }`, `getByName("release")`).
 */
import type { ScriptNode, Token } from './gradle-script-reader.js';

/** What a statement does to a property. */
export type StatementOp = 'set' | 'call' | 'append' | 'add';

export interface Statement {
  /** The property or method name, dotted when the statement names a path (`vectorDrawables.useSupportLibrary`). */
  key: string;
  op: StatementOp;
  /** The argument expressions, split at top-level commas. */
  args: Token[][];
}

/** A value read from a build file that Gradle would have to evaluate. */
export const UNKNOWN: unique symbol = Symbol('unknown');
export type Literal = string | number | boolean;
export type Evaluated = Literal | Literal[] | typeof UNKNOWN;

function isPunct(t: Token | undefined, text: string): boolean {
  return t !== undefined && t.kind === 'punct' && t.text === text;
}

/** Splits tokens at commas that are not inside brackets. */
export function splitArgs(tokens: Token[]): Token[][] {
  const out: Token[][] = [];
  let cur: Token[] = [];
  let depth = 0;
  for (const t of tokens) {
    if (t.kind === 'punct') {
      if (t.text === '(' || t.text === '[') {
        depth++;
      } else if (t.text === ')' || t.text === ']') {
        depth--;
      } else if (t.text === ',' && depth === 0) {
        out.push(cur);
        cur = [];
        continue;
      }
    }
    cur.push(t);
  }
  if (cur.length > 0) {
    out.push(cur);
  }
  return out;
}

/** The index just after the bracket that closes the one at `open`, or -1. */
export function matchingClose(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind !== 'punct') {
      continue;
    }
    if (t.text === '(' || t.text === '[') {
      depth++;
    } else if (t.text === ')' || t.text === ']') {
      depth--;
      if (depth === 0) {
        return i + 1;
      }
    }
  }
  return -1;
}

/** Reads a leading dotted name (`a.b.c`) and returns it with the index after it. */
export function dottedName(tokens: Token[], from = 0): { name: string; next: number } | null {
  const first = tokens[from];
  if (!first || first.kind !== 'ident') {
    return null;
  }
  let name = first.text;
  let i = from + 1;
  while (isPunct(tokens[i], '.') && tokens[i + 1]?.kind === 'ident') {
    name += '.' + (tokens[i + 1] as Token).text;
    i += 2;
  }
  return { name, next: i };
}

/** Interprets one statement without a body; null when it is not a property or call we can read. */
export function readStatement(tokens: Token[]): Statement | null {
  const head = dottedName(tokens);
  if (!head) {
    return null;
  }
  let { name } = head;
  const i = head.next;
  const t = tokens[i];
  if (t === undefined) {
    return { key: name, op: 'call', args: [] };
  }
  if (isPunct(t, '=')) {
    return { key: name, op: 'set', args: [tokens.slice(i + 1)] };
  }
  if (isPunct(t, '+=')) {
    return { key: name, op: 'append', args: [tokens.slice(i + 1)] };
  }
  if (isPunct(t, '(')) {
    const close = matchingClose(tokens, i);
    if (close < 0) {
      return null;
    }
    const args = splitArgs(tokens.slice(i + 1, close - 1));
    const lastDot = name.lastIndexOf('.');
    const method = lastDot >= 0 ? name.slice(lastDot + 1) : name;
    if (lastDot >= 0 && (method === 'add' || method === 'addAll')) {
      return { key: name.slice(0, lastDot), op: 'add', args };
    }
    if (lastDot >= 0 && method === 'set') {
      // Kotlin's lazy property API: `namespace.set("x")`.
      return { key: name.slice(0, lastDot), op: 'set', args };
    }
    if (close === tokens.length) {
      return { key: name, op: 'call', args };
    }
    // `id("x") version "1" apply false` and friends: keep the call, the rest is qualifiers.
    return { key: name, op: 'call', args };
  }
  if (t.kind === 'punct' && t.text !== '[' && t.text !== '-' && t.text !== '!') {
    return null;
  }
  if (t.kind === 'ident' && name.includes('.') === false && isPunct(tokens[i + 1], ':')) {
    // Groovy named arguments: `apply plugin: 'x'`.
    name = name + ' ' + t.text;
    return { key: name, op: 'call', args: splitArgs(tokens.slice(i + 2)) };
  }
  return { key: name, op: 'call', args: splitArgs(tokens.slice(i)) };
}

const LIST_FUNCTIONS = new Set([
  'listOf',
  'mutableListOf',
  'arrayOf',
  'setOf',
  'mutableSetOf',
  'arrayListOf',
]);

/** Evaluates an expression that is a literal (or a list of literals); anything else is UNKNOWN. */
export function evaluate(tokens: Token[]): Evaluated {
  if (tokens.length === 0) {
    return UNKNOWN;
  }
  const [a] = tokens as [Token, ...Token[]];
  if (tokens.length === 1) {
    return literalOf(a);
  }
  if (tokens.length === 2 && a.kind === 'punct' && a.text === '-' && tokens[1]?.kind === 'number') {
    const n = literalOf(tokens[1]);
    return typeof n === 'number' ? -n : UNKNOWN;
  }
  const isList =
    (a.kind === 'ident' && LIST_FUNCTIONS.has(a.text) && isPunct(tokens[1], '(')) || isPunct(a, '[');
  if (isList) {
    const open = a.kind === 'ident' ? 1 : 0;
    const close = matchingClose(tokens, open);
    if (close !== tokens.length) {
      return UNKNOWN;
    }
    const items = splitArgs(tokens.slice(open + 1, close - 1));
    const values: Literal[] = [];
    for (const item of items) {
      const v = evaluate(item);
      if (v === UNKNOWN || Array.isArray(v)) {
        return UNKNOWN;
      }
      values.push(v);
    }
    return values;
  }
  return UNKNOWN;
}

function literalOf(t: Token): Evaluated {
  if (t.kind === 'string') {
    return t.interpolated ? UNKNOWN : t.text;
  }
  if (t.kind === 'number') {
    const clean = t.text.replace(/_/g, '').replace(/[lLfFdD]$/, '');
    const n = clean.startsWith('0x') || clean.startsWith('0X') ? parseInt(clean, 16) : Number(clean);
    return Number.isFinite(n) ? n : UNKNOWN;
  }
  if (t.kind === 'ident' && (t.text === 'true' || t.text === 'false')) {
    return t.text === 'true';
  }
  return UNKNOWN;
}

/** The single argument of a statement evaluated, or UNKNOWN when it has none or several. */
export function singleValue(st: Statement): Evaluated {
  const first = st.args[0];
  if (st.args.length !== 1 || first === undefined) {
    return UNKNOWN;
  }
  return evaluate(first);
}

const ITEM_FACTORIES = new Set(['create', 'register', 'getByName', 'maybeCreate', 'named', 'getAt']);
const NOT_ITEMS = new Set([
  'all',
  'configureEach',
  'each',
  'forEach',
  'whenObjectAdded',
  'matching',
  'withType',
  'configure',
  'if',
  'else',
  'for',
  'while',
  'try',
  'catch',
  'finally',
]);

/**
 * The name of a container item a block or statement declares: `demo {`, `'demo' {`,
 * `create("demo") {`, `getByName("release").apply {`, `maybeCreate<T>("x").apply {`.
 */
export function itemName(tokens: Token[]): string | null {
  let i = 0;
  // `buildTypes.getByName("x")` written at the android level: skip the container name.
  if (tokens[0]?.kind === 'ident' && isPunct(tokens[1], '.') && tokens[2]?.kind === 'ident') {
    if (tokens[0].text === 'buildTypes' || tokens[0].text === 'productFlavors') {
      i = 2;
    }
  }
  const t = tokens[i];
  if (!t) {
    return null;
  }
  if (t.kind === 'string' && tokens.length === i + 1) {
    return t.interpolated ? null : t.text;
  }
  if (t.kind !== 'ident') {
    return null;
  }
  if (ITEM_FACTORIES.has(t.text)) {
    let j = i + 1;
    if (isPunct(tokens[j], '<')) {
      while (j < tokens.length && !isPunct(tokens[j], '>')) {
        j++;
      }
      j++;
    }
    if (isPunct(tokens[j], '(') && tokens[j + 1]?.kind === 'string' && !tokens[j + 1]?.interpolated) {
      return (tokens[j + 1] as Token).text;
    }
    return null;
  }
  if (tokens.length === i + 1 && !NOT_ITEMS.has(t.text)) {
    return t.text;
  }
  return null;
}

/** Finds the first child block whose header is exactly `name` (or `name.apply`, `name()`), in order. */
export function blocksNamed(nodes: ScriptNode[], name: string): ScriptNode[] {
  return nodes.filter((n) => n.body !== null && headerIs(n.tokens, name));
}

function headerIs(tokens: Token[], name: string): boolean {
  const head = dottedName(tokens);
  if (!head || head.name !== name) {
    return false;
  }
  if (head.next === tokens.length) {
    return true;
  }
  // `android()` or `configure<…>` are not worth more precision than an empty call.
  return (
    isPunct(tokens[head.next], '(') && isPunct(tokens[head.next + 1], ')') && head.next + 2 === tokens.length
  );
}

const DECLARATION_MODIFIERS = new Set(['private', 'internal', 'public', 'const', 'final', 'static']);
const DECLARATION_KEYWORDS = new Set(['val', 'def', 'String']);

/**
 * Replaces the uses of a build file's own top-level constants with their values, so `applicationId =
 * APP_ID` reads as the literal it is. A constant is a top-level `val NAME = "…"` (Kotlin, `const`/`private`
 * allowed) or `def NAME = '…'` / `String NAME = '…'` (Groovy) whose value is a literal, declared once.
 * A use is the bare name anywhere else (not after a `.`, not the declaration itself).
 */
export function inlineFileConstants(nodes: ScriptNode[]): ScriptNode[] {
  const values = new Map<string, Token>();
  const declaredTwice = new Set<string>();
  for (const node of nodes) {
    const declared = node.body === null ? constantDeclaration(node.tokens) : null;
    if (declared !== null) {
      if (values.has(declared.name)) {
        declaredTwice.add(declared.name);
      }
      values.set(declared.name, declared.value);
    }
  }
  for (const name of declaredTwice) {
    values.delete(name);
  }
  if (values.size === 0) {
    return nodes;
  }
  const substitute = (list: ScriptNode[]): ScriptNode[] =>
    list.map((node) => ({
      ...node,
      tokens: constantDeclaration(node.tokens) !== null ? node.tokens : node.tokens.map(replace),
      body: node.body === null ? null : substitute(node.body),
    }));
  function replace(t: Token, i: number, tokens: Token[]): Token {
    const value = t.kind === 'ident' ? values.get(t.text) : undefined;
    if (value === undefined || isPunct(tokens[i - 1], '.') || isPunct(tokens[i + 1], '=')) {
      return t;
    }
    return { ...value, line: t.line };
  }
  return substitute(nodes);
}

function constantDeclaration(tokens: Token[]): { name: string; value: Token } | null {
  let i = 0;
  while (tokens[i]?.kind === 'ident' && DECLARATION_MODIFIERS.has((tokens[i] as Token).text)) {
    i++;
  }
  const keyword = tokens[i];
  const name = tokens[i + 1];
  const value = tokens[i + 3];
  if (
    keyword?.kind !== 'ident' ||
    !DECLARATION_KEYWORDS.has(keyword.text) ||
    name?.kind !== 'ident' ||
    !isPunct(tokens[i + 2], '=') ||
    value === undefined ||
    tokens.length !== i + 4 ||
    !((value.kind === 'string' && !value.interpolated) || value.kind === 'number')
  ) {
    return null;
  }
  return { name: name.text, value };
}
