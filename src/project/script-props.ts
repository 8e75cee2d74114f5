/** Property reading over a block's statements: the last assignment wins, typed conversions. */
import type { ScriptNode } from './gradle-script-reader.js';
import { readStatement, singleValue, UNKNOWN, type Evaluated, type Statement } from './script-statements.js';

/** The statements of a block by property name. */
export type Props = Map<string, Statement[]>;

/** Collects a block's statements (not its nested blocks) by property name. */
export function collectProps(body: ScriptNode[]): Props {
  const props: Props = new Map();
  for (const node of body) {
    if (node.body !== null) {
      continue;
    }
    const st = readStatement(node.tokens);
    if (!st) {
      continue;
    }
    const list = props.get(st.key) ?? [];
    list.push(st);
    props.set(st.key, list);
  }
  return props;
}

/** The last assignment to any of `keys`: its value, UNKNOWN, or undefined when never set. */
export function lastValue(props: Props, keys: readonly string[]): Evaluated | undefined {
  let found: Evaluated | undefined;
  let line = -1;
  for (const key of keys) {
    for (const st of props.get(key) ?? []) {
      if (st.op === 'append' || st.op === 'add') {
        continue;
      }
      const firstLine = st.args[0]?.[0]?.line ?? 0;
      if (firstLine >= line) {
        line = firstLine;
        found = singleValue(st);
      }
    }
  }
  return found;
}

/** A string value; null when set to something else (unknown); undefined when not set. */
export function asOptionalString(v: Evaluated | undefined): string | null | undefined {
  if (v === undefined) {
    return undefined;
  }
  return typeof v === 'string' ? v : null;
}

/** An integer value (also `'android-34'`); null otherwise. */
export function asNumber(v: Evaluated | undefined): number | null {
  if (typeof v === 'number' && Number.isInteger(v)) {
    return v;
  }
  if (typeof v === 'string') {
    // `compileSdkVersion 'android-34'` is the old string form of the same thing.
    const m = /^(?:android-)?(\d+)$/.exec(v);
    return m ? Number(m[1]) : null;
  }
  return null;
}

/** A boolean value; null otherwise. */
export function asBoolean(v: Evaluated | undefined): boolean | null {
  return typeof v === 'boolean' ? v : null;
}

/** Records `where` as unknown when its value could not be evaluated. */
export function noteUnknown(unknown: string[], where: string, v: Evaluated | undefined): void {
  if (v === UNKNOWN) {
    unknown.push(where);
  }
}
