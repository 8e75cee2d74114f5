import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { annotationsFor } from '../../src/mcp/define-tool.js';
import { renderToolsMarkdown, renderToolsSnapshot } from '../../src/mcp/docs.js';
import { ALL_TOOLS } from '../../src/mcp/registry.js';
import { criteria } from '../../src/mcp/tools/ui-shared.js';
import { toolListing } from '../../src/mcp/tool-listing.js';
import { TOOLSET_NAMES } from '../../src/mcp/toolsets.js';
import { ROOT } from '../helpers/paths.js';

describe('the tool registry', () => {
  it('puts every tool in exactly one known toolset, once', () => {
    const names = ALL_TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const tool of ALL_TOOLS) {
      expect(TOOLSET_NAMES).toContain(tool.toolset);
    }
  });

  it('waits only for tools that exist (a name that does not would never be waited for)', () => {
    const names = new Set(ALL_TOOLS.map((t) => t.name));
    const waits = ALL_TOOLS.flatMap((t) => (t.after ?? []).map((name) => `${t.name} after ${name}`));
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.filter((w) => !names.has(w.split(' after ')[1]!))).toEqual([]);
  });

  it('names every tool and parameter in snake_case', () => {
    for (const tool of ALL_TOOLS) {
      expect(tool.name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      for (const key of Object.keys(tool.input.shape)) {
        expect(key, `${tool.name}.${key}`).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      }
    }
  });

  it("derives every tool's annotations from its kind, with all three hints set", () => {
    for (const tool of ALL_TOOLS) {
      const annotations = toolListing(tool).annotations;
      expect(annotations).toEqual(annotationsFor(tool.kind));
      expect(typeof annotations?.readOnlyHint).toBe('boolean');
      expect(typeof annotations?.destructiveHint).toBe('boolean');
      expect(typeof annotations?.openWorldHint).toBe('boolean');
    }
  });

  it('has no top-level anyOf/oneOf/allOf in any input schema, and describes every parameter', () => {
    const findUi = toolListing(ALL_TOOLS.find((t) => t.name === 'find_ui_elements')!) as {
      inputSchema: { properties: Record<string, { description?: string }> };
    };
    for (const tool of ALL_TOOLS) {
      const schema = toolListing(tool).inputSchema as Record<string, unknown>;
      expect(schema['type']).toBe('object');
      for (const combinator of ['anyOf', 'oneOf', 'allOf', 'not']) {
        expect(schema, `${tool.name} has a top-level ${combinator}`).not.toHaveProperty(combinator);
      }
      const properties = (schema['properties'] ?? {}) as Record<string, { description?: string }>;
      // Find criteria are described once, on find_ui_elements; a tool that takes them bare says so.
      const criteriaAsFind = tool.description.includes('(as find_ui_elements)');
      for (const [key, prop] of Object.entries(properties)) {
        if (criteriaAsFind && key in criteria) {
          expect(findUi.inputSchema.properties, `${key} is a find_ui_elements criterion`).toHaveProperty(key);
          continue;
        }
        expect(prop.description, `${tool.name}.${key} needs a description`).toBeTruthy();
      }
    }
  });

  it('matches the committed tools/list snapshot (run `npm run docs` after a schema change)', () => {
    const committed = readFileSync(path.join(ROOT, 'docs', 'tools-list.snapshot.json'), 'utf8');
    expect(committed).toBe(renderToolsSnapshot(ALL_TOOLS));
  });

  it('matches docs/TOOLS.md, generated from the registry (run `npm run docs`)', () => {
    const committed = readFileSync(path.join(ROOT, 'docs', 'TOOLS.md'), 'utf8');
    expect(committed).toBe(renderToolsMarkdown(ALL_TOOLS));
  });

  it('lists each tool in docs/TOOLS.md with the kind its annotations come from', () => {
    const docs = readFileSync(path.join(ROOT, 'docs', 'TOOLS.md'), 'utf8');
    for (const tool of ALL_TOOLS) {
      expect(docs).toContain(`| \`${tool.name}\` | ${tool.kind} |`);
    }
  });
});
