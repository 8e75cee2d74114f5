/**
 * Two MCP sessions on one bus, as the host serves attached agents: they share the process's one
 * build slot, and one session's cancel_build stops the other's build, recorded as cancelled by it.
 * The actors run from the build (dist/) on worker threads; the sessions are SDK clients.
 */
import path from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type * as Runtime from '../../src/actors/runtime.js';
import type * as Server from '../../src/mcp/server.js';
import type * as Session from '../../src/mcp/session.js';
import { fromDist, tempDir } from '../helpers/paths.js';
import { readHistory, setTrust, textOf, waitForRecord, writeSample } from '../helpers/build-project.js';
import { until } from '../helpers/until.js';

const home = tempDir('droidbus-shared-slot-home-');
const work = tempDir('droidbus-shared-slot-');
const project = path.join(work.dir, 'app');
let system: Runtime.ActorSystem;
const clients: Client[] = [];

async function connect(name: string): Promise<{ client: Client; sessionId: string }> {
  const { createMcpServer } = await fromDist<typeof Server>('mcp/server.ts');
  const { createSessionState, sessionOrigin } = await fromDist<typeof Session>('mcp/session.ts');
  const session = createSessionState({
    project: { root: project, selectedBy: 'argument' },
    mode: { kind: 'attached', pinnedProject: project, hostProject: project },
    toolsets: ['core'],
    bus: undefined as never,
  });
  session.bus = system.client(sessionOrigin(session));
  const server = createMcpServer({ session });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return { client, sessionId: session.sessionId };
}

async function waitUntilRunning(client: Client): Promise<void> {
  await until(
    'the build to start',
    async () => {
      const r = await client.callTool({ name: 'get_build_status', arguments: {} });
      return (r.structuredContent as { status: string }).status === 'running' ? true : undefined;
    },
    20_000,
  );
}

beforeAll(async () => {
  process.env['DROIDBUS_HOME'] = home.dir;
  process.env['SIM_GRADLE_DURATION_MS'] = '60000';
  await writeSample(project, home.dir);
  await setTrust(project, home.dir, true);
  const { startActorSystem } = await fromDist<typeof Runtime>('actors/runtime.ts');
  system = startActorSystem();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await system?.shutdown();
  home.remove();
  work.remove();
});

describe('sessions sharing one build slot', () => {
  it("refuses a second session's build while one runs, and records who cancelled it", async () => {
    const a = await connect('agent-a');
    const b = await connect('agent-b');
    const building = a.client.callTool({ name: 'run_gradle_task', arguments: { task: 'assembleDemoDebug' } });
    await waitUntilRunning(b.client);

    const refused = await b.client.callTool({
      name: 'run_gradle_task',
      arguments: { task: 'assembleFullDebug' },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^A Gradle build is already running: assembleDemoDebug \(build b[\w-]+, started \d+ s ago by an agent \(agent-a\), session /,
    );

    const cancel = await b.client.callTool({ name: 'cancel_build', arguments: {} });
    expect(cancel.structuredContent).toMatchObject({
      cancelled: true,
      task: 'assembleDemoDebug',
      result: 'cancelled',
    });
    const ended = await building;
    expect(ended.isError).toBe(true);
    expect(textOf(ended)).toContain(`was cancelled by another agent (agent-b), session ${b.sessionId}`);
    const record = await waitForRecord(home.dir, (r) => r.task === 'assembleDemoDebug');
    expect(record.origin).toEqual({
      kind: 'agent',
      session_id: a.sessionId,
      client_name: 'agent-a',
      standalone: false,
    });
    expect(record.cancelled_by).toEqual({
      kind: 'agent',
      session_id: b.sessionId,
      client_name: 'agent-b',
      standalone: false,
    });
  });

  it('stops a build that outlives settings mcp.build_timeout_sec and records it failed with the reason', async () => {
    const settingsFile = path.join(home.dir, 'settings.json');
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as { mcp: Record<string, unknown> };
    settings.mcp['build_timeout_sec'] = 10; // the smallest the settings allow
    writeFileSync(settingsFile, JSON.stringify(settings));
    const a = await connect('agent-timeout');
    const result = await a.client.callTool({
      name: 'run_gradle_task',
      arguments: { task: 'assembleFullRelease' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('BUILD FAILED');
    expect(textOf(result)).toContain('timed out after 10 s');
    const record = readHistory(home.dir).find((r) => r.task === 'assembleFullRelease');
    expect(record).toMatchObject({ result: 'failed', cancelled_by: null });
    expect(record?.reason).toContain('timed out after 10 s (settings.json mcp.build_timeout_sec)');
    expect(record?.duration_ms).toBeLessThan(40_000);
  });
});
