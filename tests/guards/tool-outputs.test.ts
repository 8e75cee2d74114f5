/**
 * A tool's output schema is built from the bus response it answers with (`.pick`, `.extend` of
 * REQUESTS[type].response), never restated field by field: a field the tool's bus response defines
 * is that very schema in the tool's output, so a change to the contract reaches the tool's listing
 * by itself. A tool that reshapes a field on purpose (rows without their empty fields) names it in
 * `reshaped`. Which response a tool answers with is read from its definition: of the bus requests
 * it names, the one whose response shares the most fields with its output.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { REQUESTS } from '../../src/bus/registry.js';
import { ALL_TOOLS } from '../../src/mcp/registry.js';
import { ROOT } from '../helpers/paths.js';

const dir = path.join(ROOT, 'src', 'mcp', 'tools');
const sources = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => readFileSync(path.join(dir, f), 'utf8'))
  .join('\n');

/** The source of a tool's definition (its name to the end of its defineTool call). */
function definitionOf(name: string): string {
  const start = sources.indexOf(`name: '${name}'`);
  return start < 0 ? '' : sources.slice(start, sources.indexOf('\n});', start));
}

function restated(): string[] {
  const out: string[] = [];
  for (const tool of ALL_TOOLS) {
    if (!tool.output) {
      continue;
    }
    const fields = tool.output.shape as Record<string, unknown>;
    const named = new Set(
      [...definitionOf(tool.name).matchAll(/'([a-z_]+\.[a-z_.]+)'/g)]
        .map((m) => m[1]!)
        .filter((t): t is keyof typeof REQUESTS => t in REQUESTS),
    );
    let best: { type: string; shared: string[]; response: Record<string, unknown> } | null = null;
    for (const type of named) {
      const response = REQUESTS[type].response;
      if (!(response instanceof z.ZodObject)) {
        continue;
      }
      const shape = response.shape as Record<string, unknown>;
      const shared = Object.keys(fields).filter((k) => k in shape);
      if (shared.length > (best?.shared.length ?? 0)) {
        best = { type, shared, response: shape };
      }
    }
    for (const key of best?.shared ?? []) {
      if (fields[key] !== best!.response[key] && !(tool.reshaped ?? []).includes(key)) {
        out.push(`${tool.name}.${key} restates ${best!.type}'s ${key}`);
      }
    }
  }
  return out;
}

describe('tool output schemas', () => {
  it('take the fields their bus response defines from it, never restate them', () => {
    expect(restated()).toEqual([]);
  });
});
