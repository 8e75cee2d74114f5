import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { Bus, type ActorEndpoint } from '../../src/bus/bus.js';
import type { RequestEnvelope } from '../../src/bus/envelope.js';
import { AgentActionRecorder } from '../../src/mcp/agent-actions.js';
import { defineTool, ToolError, type ToolDefinition } from '../../src/mcp/define-tool.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { SessionState } from '../../src/mcp/session.js';
import { until } from '../helpers/until.js';
import { pinnedSession } from '../helpers/pinned-session.js';

/**
 * The frontend side of agent actions: which tool calls become `sessions.agent_action` requests and
 * what they carry, over a real bus whose `sessions` address is answered by this test (the actor's
 * side is covered end to end in tests/e2e/debug-sessions-*.test.ts). The real MCP server runs each
 * call over an in-memory transport.
 */

const serial = z.string().optional().describe('Device');
const tap = defineTool({
  name: 'ui_tap',
  toolset: 'ui',
  kind: 'write',
  title: 'Tap',
  description: 'A device write tool.',
  input: z.object({ device_serial: serial, x: z.number().describe('x') }),
  projectIndependent: true,
  handle: () => Promise.resolve({ text: 'tapped' }),
}) as unknown as ToolDefinition;
const stop = defineTool({
  name: 'stop_app',
  toolset: 'device-admin',
  kind: 'destructive',
  title: 'Stop',
  description: 'A destructive device tool that names a package and fails.',
  input: z.object({ device_serial: serial, package: z.string().describe('package') }),
  projectIndependent: true,
  handle: () => Promise.reject(new ToolError('the device said no')),
}) as unknown as ToolDefinition;
const build = defineTool({
  name: 'run_gradle_task',
  toolset: 'core',
  kind: 'open_world',
  title: 'Build',
  description: 'A write tool without a device parameter, and a project tool.',
  input: z.object({ task: z.string().describe('task') }),
  handle: () => Promise.resolve({ text: 'built' }),
}) as unknown as ToolDefinition;
const read = defineTool({
  name: 'get_device_info',
  toolset: 'core',
  kind: 'read',
  title: 'Info',
  description: 'A read-only device tool.',
  input: z.object({ device_serial: serial }),
  projectIndependent: true,
  handle: () => Promise.resolve({ text: 'info' }),
}) as unknown as ToolDefinition;
const pinnedWrite = defineTool({
  name: 'set_device_orientation',
  toolset: 'device-admin',
  kind: 'write',
  title: 'Rotate',
  description: 'A device write tool a pinned session refuses while its project is closed.',
  input: z.object({ device_serial: serial }),
  handle: () => Promise.resolve({ text: 'rotated' }),
}) as unknown as ToolDefinition;
const TOOLS = [tap, stop, build, read, pinnedWrite];

/** Answers `sessions.agent_action` for the bus, keeping what arrived. */
class SessionsStandIn implements ActorEndpoint {
  readonly received: RequestEnvelope[] = [];
  constructor(
    private readonly bus: Bus,
    private readonly capacity = 256,
  ) {}
  mailboxCapacity(): number {
    return this.capacity;
  }
  deliver(_address: string, envelope: RequestEnvelope): void {
    this.received.push(envelope);
    // An actor answers later, never from inside the dispatch.
    setImmediate(() =>
      this.bus.settle(envelope.id, {
        ok: true,
        value: { sessions: ['ds-abcdef01'], serial: 'emulator-5554' },
      }),
    );
  }
  cancel(): void {}
  forwardEvent(): void {}
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) {
    await close();
  }
});

async function connect(capacity?: number, hostProject: string | null = '/work/a') {
  const bus = new Bus();
  const sessions = new SessionsStandIn(bus, capacity);
  bus.attach(sessions);
  const session: SessionState = pinnedSession(bus, hostProject);
  const recorder = new AgentActionRecorder(TOOLS);
  const server = createMcpServer({ session, tools: TOOLS, onToolCall: (r) => recorder.record(session, r) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'agent-test', version: '1' });
  await client.connect(clientSide);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, session, sessions, recorder };
}

async function settled(recorder: AgentActionRecorder, sent: number): Promise<void> {
  await until(
    'the agent actions to settle',
    () => (recorder.stats().recorded + recorder.stats().dropped >= sent ? true : undefined),
    5_000,
    { everyMs: 5 },
  );
}

describe('agent actions from a frontend', () => {
  it('sends a device write tool call with its kind, outcome, duration, device, package and the agent — no other argument', async () => {
    const { client, sessions, recorder, session } = await connect();
    await client.callTool({ name: 'ui_tap', arguments: { device_serial: 'emulator-5554', x: 10 } });
    await client.callTool({
      name: 'stop_app',
      arguments: { device_serial: 'emulator-5554', package: 'com.example.app' },
    });
    await client.callTool({ name: 'ui_tap', arguments: { x: 3 } });
    await settled(recorder, 3);
    const payloads = sessions.received.map((e) => e.payload as Record<string, unknown>);
    expect(sessions.received.every((e) => e.type === 'sessions.agent_action')).toBe(true);
    expect(payloads[0]).toMatchObject({
      tool: 'ui_tap',
      kind: 'write',
      success: true,
      status: 'ok',
      serial: 'emulator-5554',
      package: null,
      actor: { kind: 'agent', session_id: session.sessionId, client_name: 'agent-test', standalone: false },
    });
    expect(payloads[0]).not.toHaveProperty('x');
    expect(typeof payloads[0]!['duration_ms']).toBe('number');
    expect(payloads[1]).toMatchObject({
      tool: 'stop_app',
      kind: 'destructive',
      success: false,
      status: 'tool_error',
      package: 'com.example.app',
    });
    // Without a serial the actor picks the one online device.
    expect(payloads[2]).toMatchObject({ tool: 'ui_tap', serial: null });
    expect(recorder.stats()).toEqual({ sent: 3, recorded: 3, dropped: 0, dropped_busy: 0 });
  });

  it('sends nothing for a read-only tool, a tool without a device, or a pinned session’s refusal', async () => {
    const { client, sessions, recorder, session } = await connect();
    await client.callTool({ name: 'get_device_info', arguments: { device_serial: 'emulator-5554' } });
    await client.callTool({ name: 'run_gradle_task', arguments: { task: 'assemble' } });
    session.mode = { kind: 'attached', pinnedProject: '/work/a', hostProject: '/work/b' };
    const refused = await client.callTool({
      name: 'set_device_orientation',
      arguments: { device_serial: 'emulator-5554' },
    });
    expect(refused.isError).toBe(true);
    session.mode = { kind: 'attached', pinnedProject: '/work/a', hostProject: '/work/a' };
    await client.callTool({ name: 'set_device_orientation', arguments: { device_serial: 'emulator-5554' } });
    await settled(recorder, 1);
    expect(sessions.received.map((e) => (e.payload as { tool: string }).tool)).toEqual([
      'set_device_orientation',
    ]);
  });

  it('sends nothing for a tool of a toolset the session does not serve', async () => {
    const { client, sessions, recorder, session } = await connect();
    session.toolsets = session.toolsets.filter((t) => t !== 'ui');
    await expect(
      client.callTool({ name: 'ui_tap', arguments: { device_serial: 'emulator-5554', x: 1 } }),
    ).rejects.toThrow(/"ui" toolset/);
    await client.callTool({
      name: 'stop_app',
      arguments: { device_serial: 'emulator-5554', package: 'com.example.app' },
    });
    await settled(recorder, 1);
    expect(sessions.received.map((e) => (e.payload as { tool: string }).tool)).toEqual(['stop_app']);
  });

  it('counts an action the full queue refused as dropped, and the call still answers', async () => {
    const { client, sessions, recorder } = await connect(0);
    const r = await client.callTool({ name: 'ui_tap', arguments: { device_serial: 'emulator-5554', x: 1 } });
    expect(r.isError).toBeFalsy();
    await settled(recorder, 1);
    expect(sessions.received).toHaveLength(0);
    expect(recorder.stats()).toEqual({ sent: 1, recorded: 0, dropped: 1, dropped_busy: 1 });
  });
});
