/**
 * No import cycles in src and web (issue 57): files that import each other in a loop cannot be read,
 * tested or moved one at a time. Every relative import and re-export counts, type-only ones too.
 * The simulator's device model reads its helper, log generator and recording through interfaces
 * (src/sim/device/device-parts.ts), which createSimDevice attaches: none of them imports it back.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      out.push(...sources(full));
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) {
      out.push(full);
    }
  }
  return out;
}

/** The file a relative specifier names: `./x.js` is x.ts or x.tsx, `./x` too, or its index. */
function resolve(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ]) {
    if (existsSync(candidate)) {
      return candidate;
    }
  }
  return null;
}

function graph(files: string[]): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)]
      .map((m) => resolve(file, m[1]!))
      .filter((t): t is string => t !== null);
    edges.set(file, [...new Set(targets)]);
  }
  return edges;
}

/** Tarjan's strongly connected components of more than one file, each sorted, relative to ROOT. */
function cycles(edges: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
      }
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(ROOT, w));
      } while (w !== v);
      if (component.length > 1) {
        found.push(component.sort());
      }
    }
  };
  for (const v of edges.keys()) {
    if (!indexOf.has(v)) {
      visit(v);
    }
  }
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe('imports', () => {
  it('form no cycle in src or web', () => {
    const files = [...sources(path.join(ROOT, 'src')), ...sources(path.join(ROOT, 'web', 'src'))];
    expect(cycles(graph(files))).toEqual([]);
  });
});
