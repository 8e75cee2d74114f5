import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { Bus } from '../bus/bus.js';
import { defineTool, type ToolDefinition } from './define-tool.js';
import { leaveOutRefusedItems } from './output-repair.js';
import { createMcpServer } from './server.js';
import { pinnedSession } from '../../tests/helpers/pinned-session.js';

const rowSchema = z.object({
  tree_path: z.string(),
  class: z.string(),
  bounds: z.object({ left: z.number() }),
});
const answerSchema = z.object({ screen_hash: z.string(), rows: z.array(rowSchema) });

describe('leaving out the items a schema refuses', () => {
  it('drops each refused row, deep faults included, and names them', () => {
    const value = {
      screen_hash: 'ab',
      rows: [
        { tree_path: '0', class: 'A', bounds: { left: 0 } },
        { tree_path: '0.0', bounds: { left: 0 } },
        { tree_path: '0.1', class: 'B', bounds: { left: 'x' } },
        { tree_path: '0.2', class: 'C', bounds: { left: 3 } },
      ],
    };
    const repaired = leaveOutRefusedItems(answerSchema, value);
    expect(repaired?.value['rows']).toEqual([value.rows[0], value.rows[3]]);
    expect(repaired?.dropped).toHaveLength(2);
    expect(repaired?.dropped[0]).toMatch(/^rows\[1\] \(class: /);
    expect(repaired?.dropped[1]).toMatch(/^rows\[2\] \(bounds\.left: /);
    // The caller's value is left as it was.
    expect(value.rows).toHaveLength(4);
  });

  it('refuses to repair a fault outside any array', () => {
    expect(leaveOutRefusedItems(answerSchema, { screen_hash: 3, rows: [] })).toBeNull();
  });
});

describe('a tool answer that does not fit its output schema', () => {
  const tool = (structured: Record<string, unknown>) =>
    defineTool({
      name: 'list_devices',
      toolset: 'core',
      kind: 'read',
      title: 'Odd rows',
      description: 'Answers device data with one odd row.',
      input: z.object({}),
      output: answerSchema,
      projectIndependent: true,
      handle: () => Promise.resolve({ text: 'the screen', structured }),
    }) as unknown as ToolDefinition;

  async function call(structured: Record<string, unknown>) {
    const server = createMcpServer({
      session: pinnedSession(new Bus(), '/work/a'),
      tools: [tool(structured)],
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'repair', version: '1' });
    await client.connect(clientSide);
    try {
      // The SDK client checks structured results against the listed output schemas.
      await client.listTools();
      return await client.callTool({ name: 'list_devices', arguments: {} });
    } finally {
      await client.close();
    }
  }

  it('answers the rows that fit and says which one it left out, never an internal error', async () => {
    const r = await call({
      screen_hash: 'ab',
      rows: [
        { tree_path: '0', class: 'A', bounds: { left: 0 } },
        { tree_path: '0.0', bounds: { left: 0 } },
      ],
    });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { rows: unknown[] }).rows).toEqual([
      { tree_path: '0', class: 'A', bounds: { left: 0 } },
    ]);
    expect((r.content as { text: string }[])[0]!.text).toContain(
      '1 item left out of the structured answer, not fitting its schema: rows[1] (class:',
    );
  });

  it('answers a fault it cannot repair as a tool error that keeps the text', async () => {
    const r = await call({ screen_hash: 7, rows: [] });
    expect(r.isError).toBe(true);
    expect((r.structuredContent as { error: { code: string } }).error.code).toBe('failed');
    const text = (r.content as { text: string }[])[0]!.text;
    expect(text.startsWith('the screen\n\n[droidbus could not give this answer its structured form')).toBe(
      true,
    );
  });
});
