/**
 * What an agent's context pays: tools/list for the default toolsets within its budgets (what the
 * model reads — names, titles, descriptions, input schemas — and the whole listing), and every
 * answer and error text within its budget, cut with a note saying how to get the rest. The
 * figures: npx tsx scripts/tool-budgets.ts.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/bus/bus.js';
import {
  capText,
  newestWithin,
  ERROR_TEXT_BUDGET,
  MODEL_LISTING_BUDGET,
  TEXT_BUDGET,
  TOOLS_LIST_BUDGET,
} from '../../src/mcp/budgets.js';
import { defineTool, ToolError, type ToolDefinition } from '../../src/mcp/define-tool.js';
import { ALL_TOOLS } from '../../src/mcp/registry.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { toolListing } from '../../src/mcp/tool-listing.js';
import { DEFAULT_TOOLSETS } from '../../src/mcp/toolsets.js';
import { pinnedSession } from '../helpers/pinned-session.js';

const bytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v), 'utf8');

describe('tools/list for the default toolsets', () => {
  const listings = ALL_TOOLS.filter((t) => DEFAULT_TOOLSETS.includes(t.toolset)).map(toolListing);

  it(`gives the model at most ${MODEL_LISTING_BUDGET.toLocaleString('en')} bytes to read`, () => {
    const read = listings.reduce(
      (n, t) =>
        n + bytes({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema }),
      0,
    );
    expect(read).toBeLessThanOrEqual(MODEL_LISTING_BUDGET);
  });

  it(`is at most ${TOOLS_LIST_BUDGET / 1024} KB with its output schemas`, () => {
    expect(bytes({ tools: listings })).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
    expect(listings.filter((t) => t.outputSchema === undefined).map((t) => t.name)).toEqual([]);
  });
});

describe('answer and error texts', () => {
  const huge = 'x'.repeat(TEXT_BUDGET * 3);
  const tools = [
    defineTool({
      name: 'list_devices',
      toolset: 'core',
      kind: 'read',
      title: 'Long answer',
      description: 'Answers too much.',
      input: z.object({ fail: z.boolean().default(false) }),
      projectIndependent: true,
      handle: ({ fail }) => {
        if (fail) {
          throw new ToolError(huge);
        }
        return Promise.resolve({ text: huge });
      },
    }) as unknown as ToolDefinition,
  ];

  it('cuts any tool answer past the budget, and any error, saying so', async () => {
    const server = createMcpServer({ session: pinnedSession(new Bus(), '/work/a'), tools });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'budgets', version: '1' });
    await client.connect(clientSide);
    try {
      const textOf = (r: Awaited<ReturnType<Client['callTool']>>): string =>
        (r.content as { text: string }[])[0]!.text;
      const ok = textOf(await client.callTool({ name: 'list_devices', arguments: {} }));
      expect(ok.length).toBeLessThanOrEqual(TEXT_BUDGET);
      expect(ok).toMatch(/\[cut here: [\d,]+ more characters; ask for less/);
      const failed = await client.callTool({ name: 'list_devices', arguments: { fail: true } });
      expect(failed.isError).toBe(true);
      expect(textOf(failed).length).toBeLessThanOrEqual(ERROR_TEXT_BUDGET);
      expect(textOf(failed)).toContain('[cut here:');
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('never cuts inside a surrogate pair, and leaves short texts alone', () => {
    const emoji = '😀'.repeat(50);
    const cut = capText(emoji, 61, 'less');
    expect(cut.length).toBeLessThanOrEqual(61);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(capText('short', 61, 'less')).toBe('short');
  });

  it('keeps the newest lines that fit, counting what JSON escapes', () => {
    const lines = ['old "quoted"', 'middle', 'newest'];
    expect(newestWithin(lines, 100)).toEqual(lines);
    expect(newestWithin(lines, 18)).toEqual(['middle', 'newest']);
    expect(newestWithin(lines, 17)).toEqual(['newest']);
    expect(newestWithin(lines, 8)).toEqual([]);
    expect(newestWithin(lines, 9)).toEqual(['newest']);
    expect(newestWithin(lines, 1, true)).toEqual(['newest']);
  });
});
