/**
 * The tools/list entry of a tool, computed once per tool: its title, description, closed input
 * schema, annotations from its kind, and its output schema, as JSON Schema compacted for the
 * contexts and validators that load every listing (budgets in ./budgets.ts).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MAX_RESULT_SIZE_META } from './budgets.js';
import { annotationsFor } from './define-tool.js';
import type { ToolDefinition } from './define-tool.js';

/**
 * A tool's JSON Schema for tools/list (the input form: defaults optional), compacted: every
 * client loads it into its context or its validator, so what zod writes for nothing goes —
 * `$schema`, integer bounds that are the safe-integer range, `anyOf [X, null]` where
 * `type: [X, "null"]` says the same, and (outputs only, which nobody sends back)
 * the keywords an output needs not (see OUTPUT_ONLY_FOR_INPUTS), and below OUTPUT_DEPTH only the
 * type.
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json['$schema'];
  return compactSchema(json, io) as Record<string, unknown>;
}

/**
 * String limits and patterns: the server checks them (a refusal names the rule, so the model
 * corrects itself), while every model pays for them in every session's context; ranges, enums and
 * defaults stay, as they say what to send.
 */
const VALIDATOR_ONLY = new Set(['minLength', 'maxLength', 'pattern']);

/**
 * How deep an output schema spells its shapes: the result's fields by name and type; a field's own
 * fields say only that it is an object or array (the full shape is the tool's zod output schema,
 * which the server checks every result against, and docs/TOOLS.md). Every client downloads and
 * parses the whole listing and some put it in the prompt, while Claude Code and Codex hand the
 * model no output schema at all: one level keeps the default listing near 38 KB instead of 60 KB.
 */
const OUTPUT_DEPTH = 0;

/**
 * Keywords that constrain what a caller may send: an output schema describes shapes, not limits.
 * It lists no required fields and allows others, so an error result's `structuredContent`
 * (`{error: {code}}`, alone or beside a failed build's fields) passes the clients that check it
 * against the output schema on `isError` results too (the TypeScript SDK's does).
 */
const OUTPUT_ONLY_FOR_INPUTS = new Set([
  'additionalProperties',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'pattern',
  'description',
  'required',
]);

function compactSchema(node: unknown, io: 'input' | 'output', depth = 0): unknown {
  if (Array.isArray(node)) {
    return node.map((n) => compactSchema(n, io, depth));
  }
  if (typeof node !== 'object' || node === null) {
    return node;
  }
  if (io === 'output' && depth > OUTPUT_DEPTH) {
    const { type } = node as Record<string, unknown>;
    return type !== undefined ? { type } : {};
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) ||
      (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
      (io === 'output' && OUTPUT_ONLY_FOR_INPUTS.has(key)) ||
      (io === 'input' && VALIDATOR_ONLY.has(key))
    ) {
      continue;
    }
    // Without required fields and consts below OUTPUT_DEPTH, the branches of a oneOf can all match
    // one value, which oneOf refuses: an output's alternatives are anyOf.
    const name = io === 'output' && key === 'oneOf' ? 'anyOf' : key;
    // Property names are data, not schema keywords: only their schemas are compacted.
    out[name] =
      key === 'properties'
        ? Object.fromEntries(
            Object.entries(value as Record<string, unknown>).map(([k, v]) => [
              k,
              compactSchema(v, io, depth + 1),
            ]),
          )
        : compactSchema(value, io, depth);
  }
  if (io === 'output' && Array.isArray(out['anyOf'])) {
    const merged = mergeObjectAlternatives(out['anyOf'] as unknown[]);
    if (merged !== null) {
      delete out['anyOf'];
      return { ...merged, ...out };
    }
  }
  const anyOf = out['anyOf'];
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullAt = anyOf.findIndex((a) => isOnly(a, { type: 'null' }));
    const other = anyOf[1 - nullAt] as Record<string, unknown> | undefined;
    if (nullAt >= 0 && other !== undefined && typeof other['type'] === 'string' && !('anyOf' in other)) {
      delete out['anyOf'];
      const merged: Record<string, unknown> = { ...other, ...out, type: [other['type'], 'null'] };
      if (Array.isArray(other['enum'])) {
        merged['enum'] = [...(other['enum'] as unknown[]), null];
      }
      return merged;
    }
  }
  return out;
}

/**
 * An output's alternatives that are all objects (or null), as one object: a property every alternative
 * spells the same keeps its schema, any other is left open. As outputs list no required fields and
 * allow other properties, the merged schema accepts every value an alternative accepts; it spells a
 * union of five kinds of origin once instead of five times. Null when an alternative is not an object.
 */
function mergeObjectAlternatives(alternatives: unknown[]): Record<string, unknown> | null {
  const objects: Record<string, unknown>[] = [];
  let nullable = false;
  const collect = (alts: unknown[]): boolean =>
    alts.every((a) => {
      const node = a as Record<string, unknown>;
      if (isOnly(node, { type: 'null' })) {
        nullable = true;
        return true;
      }
      if (Array.isArray(node['anyOf']) && Object.keys(node).length === 1) {
        return collect(node['anyOf'] as unknown[]);
      }
      const type = node['type'];
      const objectType = type === 'object' || (Array.isArray(type) && type.includes('object'));
      if (!objectType || Object.keys(node).some((k) => k !== 'type' && k !== 'properties')) {
        return false;
      }
      if (Array.isArray(type) && type.includes('null')) {
        nullable = true;
      }
      objects.push(node);
      return true;
    });
  if (!collect(alternatives) || objects.length < 2) {
    return null;
  }
  const keys = new Set(
    objects.flatMap((o) => Object.keys((o['properties'] as Record<string, unknown>) ?? {})),
  );
  const properties: Record<string, unknown> = {};
  for (const key of keys) {
    const schemas = objects.map((o) => ((o['properties'] as Record<string, unknown>) ?? {})[key]);
    const first = JSON.stringify(schemas[0]);
    properties[key] = schemas.every((x) => x !== undefined && JSON.stringify(x) === first) ? schemas[0] : {};
  }
  return { type: nullable ? ['object', 'null'] : 'object', properties };
}

function isOnly(v: unknown, shape: Record<string, unknown>): boolean {
  return (
    typeof v === 'object' &&
    v !== null &&
    Object.keys(v).length === Object.keys(shape).length &&
    Object.entries(shape).every(([k, x]) => (v as Record<string, unknown>)[k] === x)
  );
}

/** Listings are computed once per tool: every HTTP session creates a server, and JSON Schema costs ms. */
const listingCache = new WeakMap<ToolDefinition, Tool>();

/** The tools/list entry of a tool. Inputs are closed: an argument the tool does not know is refused. */
export function toolListing(tool: ToolDefinition): Tool {
  const cached = listingCache.get(tool);
  if (cached) {
    return cached;
  }
  const listing: Tool = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: {
      ...jsonSchemaOf(tool.input, 'input'),
      additionalProperties: false,
    } as unknown as Tool['inputSchema'],
    annotations: annotationsFor(tool.kind),
  };
  if (tool.maxAnswerChars !== undefined) {
    listing._meta = { [MAX_RESULT_SIZE_META]: tool.maxAnswerChars };
  }
  if (tool.output) {
    listing.outputSchema = jsonSchemaOf(tool.output, 'output') as Tool['outputSchema'];
  }
  listingCache.set(tool, listing);
  return listing;
}
