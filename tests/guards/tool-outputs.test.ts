/**
 * A tool's output schema is built from the bus response it answers with (`.pick`, `.extend` of
 * REQUESTS[type].response, or one of its object fields flattened), never restated field by field: a
 * field the tool's bus response defines is that very schema in the tool's output, so a change to the
 * contract reaches the tool's listing by itself. Every tool names that request in `answers` (typed
 * by the registry); a tool that reshapes a field on purpose (rows without their empty fields) names
 * it in `reshaped`.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { REQUESTS } from '../../src/bus/registry.js';
import { ALL_TOOLS } from '../../src/mcp/registry.js';

/** The fields an output may take from a response: its own, and those of its object fields. */
function sourceFields(response: z.ZodType): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const shapeOf = (s: unknown): Record<string, unknown> | null => {
    let t = s;
    while (t instanceof z.ZodNullable || t instanceof z.ZodOptional) {
      t = t.unwrap();
    }
    return t instanceof z.ZodObject ? (t.shape as Record<string, unknown>) : null;
  };
  const top = shapeOf(response) ?? {};
  for (const field of Object.values(top)) {
    for (const [inner, schema] of Object.entries(shapeOf(field) ?? {})) {
      out.set(inner, schema);
    }
  }
  for (const [key, field] of Object.entries(top)) {
    out.set(key, field);
  }
  return out;
}

describe('tool output schemas', () => {
  it('say which bus response each tool answers with', () => {
    const undeclared = ALL_TOOLS.filter((t) => t.output && t.answers === undefined).map((t) => t.name);
    expect(undeclared).toEqual([]);
  });

  it('take the fields their bus response defines from it, never restate them', () => {
    const restated: string[] = [];
    for (const tool of ALL_TOOLS) {
      if (!tool.output || !tool.answers) {
        continue;
      }
      const fields = tool.output.shape as Record<string, unknown>;
      const source = sourceFields(REQUESTS[tool.answers].response);
      const shared = Object.keys(fields).filter((k) => source.has(k));
      if (shared.length === 0 && source.size > 0) {
        restated.push(`${tool.name} shares no field with ${tool.answers}'s response`);
      }
      for (const key of shared) {
        if (fields[key] !== source.get(key) && !(tool.reshaped ?? []).includes(key)) {
          restated.push(`${tool.name}.${key} restates ${tool.answers}'s ${key}`);
        }
      }
    }
    expect(restated).toEqual([]);
  });
});
