/**
 * What `package:mine` stands for: every package a project's scope admits, spelled out (each base
 * id with each ordering of distinct suffixes, plus the exact ids), bounded.
 */

/** A package scope as `project.scope` answers it. */
export interface ScopeLike {
  bases: readonly { id: string; suffixes: readonly string[] }[];
  exact: readonly string[];
}

/** The packages of a scope, at most `max`. */
export function minePackages(scope: ScopeLike, max = 256): string[] {
  const out = new Set<string>();
  for (const id of scope.exact) {
    if (out.size < max) {
      out.add(id);
    }
  }
  const walk = (id: string, suffixes: readonly string[], used: readonly number[]): void => {
    if (out.size >= max) {
      return;
    }
    out.add(id);
    suffixes.forEach((s, i) => {
      if (!used.includes(i)) {
        walk(id + s, suffixes, [...used, i]);
      }
    });
  };
  for (const b of scope.bases) {
    walk(b.id, b.suffixes, []);
  }
  return [...out];
}
