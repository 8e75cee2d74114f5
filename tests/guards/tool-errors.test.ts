/**
 * MCP 2025-11-25 (SEP-1303): a bad argument is a tool execution error — an `isError` result the
 * model reads, with `structuredContent.error.code` — never a JSON-RPC error. This guard calls every
 * tool of the registry with an argument it does not take and with a wrongly typed value for each of
 * its parameters, through the SDK client, and fails on any protocol error or uncoded answer.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '../../src/bus/bus.js';
import { ALL_TOOLS } from '../../src/mcp/registry.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { toolListing } from '../../src/mcp/tool-listing.js';
import { pinnedSession } from '../helpers/pinned-session.js';

let client: Client;
let close: () => Promise<void>;

beforeAll(async () => {
  // No actors: a handler that ran anyway would fail on the bus, not pass this guard.
  const session = pinnedSession(new Bus(), '/work/a');
  const server = createMcpServer({ session, tools: ALL_TOOLS });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'tool-errors-guard', version: '1' });
  await client.connect(clientSide);
  await client.listTools();
  close = async () => {
    await client.close();
    await server.close();
  };
});
afterAll(() => close());

type Prop = { type?: string | string[]; enum?: unknown[]; anyOf?: Prop[]; const?: unknown };

/** A JSON value the property's schema cannot take. */
function wrongValueFor(prop: Prop): unknown {
  const types = new Set<string>();
  const collect = (p: Prop): void => {
    if (Array.isArray(p.type)) {
      p.type.forEach((t) => types.add(t));
    } else if (p.type !== undefined) {
      types.add(p.type);
    }
    if (p.enum !== undefined || p.const !== undefined) {
      types.add('enum');
    }
    p.anyOf?.forEach(collect);
  };
  collect(prop);
  if (!types.has('object') && !types.has('enum')) {
    return { not: ['what', 'this', 'parameter', 'takes'] };
  }
  if (!types.has('boolean')) {
    return true;
  }
  return [[{ nested: null }]];
}

const cases = ALL_TOOLS.flatMap((tool) => {
  const props = (toolListing(tool).inputSchema.properties ?? {}) as Record<string, Prop>;
  return [
    {
      tool: tool.name,
      args: { not_an_argument_of_any_tool: 1 } as Record<string, unknown>,
      what: 'an unknown argument',
    },
    ...Object.entries(props).map(([name, prop]) => ({
      tool: tool.name,
      args: { [name]: wrongValueFor(prop) } as Record<string, unknown>,
      what: `a wrong ${name}`,
    })),
  ];
});

describe('a bad argument is an isError result with a code, for every tool', () => {
  it('covers every tool', () => {
    expect(new Set(cases.map((c) => c.tool)).size).toBe(ALL_TOOLS.length);
  });

  it.each(cases)('$tool with $what', async ({ tool, args }) => {
    const r = await client.callTool({ name: tool, arguments: args });
    const text = (r.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
    expect(r.isError, text).toBe(true);
    expect(r.structuredContent).toMatchObject({ error: { code: 'invalid_argument' } });
    expect(text).toMatch(new RegExp(`^Invalid arguments for ${tool}: `));
    expect(text.length).toBeLessThanOrEqual(8_000);
  });
});
