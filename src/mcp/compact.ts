/**
 * Structured answers without empty fields. A client that reads structuredContent (Codex does, in
 * place of the text) pays for every key of every row, so rows leave out what they do not have:
 * null, '' and [] fields are absent, and their output schemas mark those fields optional.
 */

/** `o` without its null and undefined fields. */
export function withoutNulls<T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], null> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(o)) {
    if (value !== null && value !== undefined) {
      out[key] = value;
    }
  }
  return out as { [K in keyof T]?: Exclude<T[K], null> };
}

/** `o` without its null, undefined, empty-string and empty-array fields. */
export function withoutEmpty<T extends object>(o: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(o)) {
    if (
      value !== null &&
      value !== undefined &&
      value !== '' &&
      !(Array.isArray(value) && value.length === 0)
    ) {
      out[key] = value;
    }
  }
  return out as Partial<T>;
}

/**
 * The fields of `source` that `schema` names, taken as they are: a tool's output built from a record's
 * own schema (`.pick` of it) copies exactly those fields, and a field added to the pick reaches the answer.
 */
export function fieldsOf<K extends string, T extends Record<K, unknown>>(
  schema: { shape: Record<K, unknown> },
  source: T,
): Pick<T, K> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of Object.keys(schema.shape) as K[]) {
    out[key] = source[key];
  }
  return out as Pick<T, K>;
}
