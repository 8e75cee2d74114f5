/**
 * When a structured answer does not fit its tool's output schema, the cause is nearly always one odd
 * item of device data (a view with no class, a window with no title) that a shaping step did not
 * expect (issue 51). Rather than fail the whole answer with an internal error, the items the
 * schema's issues point at are left out and the answer says so; an answer whose fault is not inside
 * an array cannot be repaired this way, and the caller reports it as a tool error instead.
 */
import type { z } from 'zod';

/** How many times items are left out and the answer checked again. */
const PASSES = 4;

export interface Repaired {
  value: Record<string, unknown>;
  /** What was left out, as `rows[3] (class: expected string)`. */
  dropped: string[];
}

type Path = readonly PropertyKey[];

function pathText(path: Path): string {
  return path
    .map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`))
    .join('');
}

/** The array item an issue lies in: the path to the array and the item's index (the deepest one). */
function itemOf(path: Path): { array: Path; index: number } | null {
  for (let i = path.length - 1; i >= 0; i--) {
    const k = path[i];
    if (typeof k === 'number') {
      return { array: path.slice(0, i), index: k };
    }
  }
  return null;
}

function at(value: unknown, path: Path): unknown {
  let v = value;
  for (const k of path) {
    v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  }
  return v;
}

/** `value` without the array items its schema refuses, or null when a fault lies outside any item. */
export function leaveOutRefusedItems(schema: z.ZodType, value: Record<string, unknown>): Repaired | null {
  let current = structuredClone(value);
  const dropped: string[] = [];
  for (let pass = 0; pass < PASSES; pass++) {
    const checked = schema.safeParse(current);
    if (checked.success) {
      return { value: current, dropped };
    }
    const items = new Map<string, { array: Path; indexes: Set<number> }>();
    for (const issue of checked.error.issues) {
      const item = itemOf(issue.path);
      if (item === null || !Array.isArray(at(current, item.array))) {
        return null;
      }
      const key = JSON.stringify(item.array.map(String));
      const entry = items.get(key) ?? { array: item.array, indexes: new Set<number>() };
      if (!entry.indexes.has(item.index)) {
        const field = issue.path.slice(item.array.length + 1);
        dropped.push(
          `${pathText([...item.array, item.index])} (${field.length > 0 ? `${pathText(field)}: ` : ''}${issue.message})`,
        );
      }
      entry.indexes.add(item.index);
      items.set(key, entry);
    }
    for (const { array, indexes } of items.values()) {
      const list = at(current, array) as unknown[];
      const kept = list.filter((_, i) => !indexes.has(i));
      list.length = 0;
      list.push(...kept);
    }
    current = structuredClone(current);
  }
  return null;
}
