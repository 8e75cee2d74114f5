import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { Bus } from '../../src/bus/bus.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import type { ToolDefinition } from '../../src/mcp/define-tool.js';
import { definePrompt } from '../../src/mcp/prompts.js';
import { defineResource } from '../../src/mcp/resources.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { RequestRecord, ToolCallRecord } from '../../src/mcp/server.js';
import type { SessionState } from '../../src/mcp/session.js';
import { pinnedSession } from '../helpers/pinned-session.js';

/**
 * The MCP server of one session, driven by the SDK client over an in-memory transport: the prompt
 * machinery and the pinned-session guard, with tools and prompts this test defines (the registry's
 * tools that are not project-independent arrive with the build and logcat issues).
 */

const projectTool = defineTool({
  name: 'list_build_variants',
  toolset: 'core',
  kind: 'read',
  title: 'Variants',
  description: 'A project tool.',
  input: z.object({}),
  handle: () => Promise.resolve({ text: 'debug, release' }),
}) as unknown as ToolDefinition;
const deviceTool = defineTool({
  name: 'list_devices',
  toolset: 'core',
  kind: 'read',
  title: 'Devices',
  description: 'A project-independent tool.',
  input: z.object({}),
  projectIndependent: true,
  handle: () => Promise.resolve({ text: 'emulator-5554' }),
}) as unknown as ToolDefinition;
const prompt = definePrompt({
  name: 'diagnose-crash',
  title: 'Diagnose a crash',
  description: 'Find why the app crashed.',
  arguments: [
    {
      name: 'package',
      description: 'The app package',
      required: true,
      pattern: /[a-zA-Z][\w]*(\.[a-zA-Z][\w]*)+/,
      example: 'com.example.app',
    },
    { name: 'device_serial', description: 'The device', required: false },
  ],
  render: (a) =>
    `Look at the crashes of ${a['package']}${a['device_serial'] ? ` on ${a['device_serial']}` : ''}.`,
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) {
    await close();
  }
});

const projectFile = defineResource({
  uri: 'android://manifest',
  name: 'manifest',
  title: 'Manifest',
  description: 'A project file.',
  mimeType: 'application/xml',
  projectFile: true,
  read: () => Promise.resolve('<manifest/>'),
});
const projectInfoResource = defineResource({
  uri: 'android://project-info',
  name: 'project-info',
  title: 'Project info',
  description: 'Served whatever the project.',
  mimeType: 'application/json',
  read: () => Promise.resolve('{}'),
});

async function connect(session: SessionState) {
  const tools: ToolCallRecord[] = [];
  const requests: RequestRecord[] = [];
  const server = createMcpServer({
    session,
    tools: [projectTool, deviceTool],
    prompts: [prompt],
    resources: [projectFile, projectInfoResource],
    onToolCall: (r) => tools.push(r),
    onRequest: (r) => requests.push(r),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'guard-test', version: '1' });
  await client.connect(clientSide);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, tools, requests };
}

function pinnedOnOwnBus(hostProject: string | null): SessionState {
  return pinnedSession(new Bus(), hostProject);
}

describe('a pinned session whose project the host closed', () => {
  it('gets a tool error naming both projects for a project tool, and keeps project-independent tools', async () => {
    const session = pinnedOnOwnBus('/work/a');
    const { client, tools } = await connect(session);
    expect((await client.callTool({ name: 'list_build_variants', arguments: {} })).isError).toBeFalsy();

    session.mode = { kind: 'attached', pinnedProject: '/work/a', hostProject: '/work/b' }; // what the host's host.project event does
    const refused = await client.callTool({ name: 'list_build_variants', arguments: {} });
    expect(refused.isError).toBe(true);
    const text = (refused.content as { text: string }[])[0]!.text;
    expect(text).toContain('The droidbus host now has /work/b open; this session is for /work/a');
    expect(text).toContain('Ask the user');
    expect(tools.at(-1)).toMatchObject({ name: 'list_build_variants', status: 'tool_error' });

    expect((await client.callTool({ name: 'list_devices', arguments: {} })).isError).toBeFalsy();

    session.mode = { kind: 'attached', pinnedProject: '/work/a', hostProject: '/work/a' }; // the user opened it again
    expect((await client.callTool({ name: 'list_build_variants', arguments: {} })).isError).toBeFalsy();
  });

  it('refuses the project files as resources but keeps serving project info', async () => {
    const session = pinnedOnOwnBus('/work/a');
    const { client } = await connect(session);
    expect((await client.readResource({ uri: 'android://manifest' })).contents).toHaveLength(1);
    session.mode = { kind: 'attached', pinnedProject: '/work/a', hostProject: '/work/b' };
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['android://project-info']);
    await expect(client.readResource({ uri: 'android://manifest' })).rejects.toMatchObject({ code: -32600 });
    expect((await client.readResource({ uri: 'android://project-info' })).contents).toHaveLength(1);
  });

  it('says the host has no project open when it closed it', async () => {
    const { client } = await connect(pinnedOnOwnBus(null));
    const refused = await client.callTool({ name: 'list_build_variants', arguments: {} });
    expect((refused.content as { text: string }[])[0]!.text).toContain(
      'The droidbus host has no project open',
    );
  });
});

describe('prompts', () => {
  it('are listed with their arguments and rendered into one user message', async () => {
    const { client, requests } = await connect(pinnedOnOwnBus('/work/a'));
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([
      {
        name: 'diagnose-crash',
        title: 'Diagnose a crash',
        description: 'Find why the app crashed.',
        arguments: [
          { name: 'package', description: 'The app package', required: true },
          { name: 'device_serial', description: 'The device', required: false },
        ],
      },
    ]);
    const got = await client.getPrompt({ name: 'diagnose-crash', arguments: { package: 'com.example.app' } });
    expect(got.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Look at the crashes of com.example.app.' } },
    ]);
    expect(requests.at(-1)).toMatchObject({ kind: 'prompt', name: 'diagnose-crash', status: 'ok' });
  });

  it('refuse a missing, unknown or malformed argument and an unknown prompt with invalid_params', async () => {
    const { client, requests } = await connect(pinnedOnOwnBus('/work/a'));
    const calls = [
      client.getPrompt({ name: 'diagnose-crash', arguments: {} }),
      client.getPrompt({ name: 'diagnose-crash', arguments: { package: 'com.x', retrace: 'true' } }),
      client.getPrompt({ name: 'diagnose-crash', arguments: { package: 'not a package; rm -rf /' } }),
      client.getPrompt({ name: 'full-deploy', arguments: {} }),
    ];
    for (const call of calls) {
      const err = await call.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(-32602);
    }
    expect(requests.map((r) => r.status)).toEqual([
      'invalid_params',
      'invalid_params',
      'invalid_params',
      'not_found',
    ]);
  });
});
