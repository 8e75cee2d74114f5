import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type * as SocketClient from '../../src/bus/socket-client.js';
import type { BusError } from '../../src/bus/errors.js';
import type * as HostModule from '../../src/host/host.js';
import type { ActivityEntry } from '../../src/store/activity-log.js';
import { shortTempDir, startHostProcess, waitFor } from '../helpers/host.js';
import type { HostProcess } from '../helpers/host.js';
import { CLI, fromDist } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { EVERY_TOOLSET } from '../helpers/mcp-client.js';
import { startAdbServer, type AdbServer } from '../helpers/adb-server.js';

const work = shortTempDir('db-qw-');
let project: string;
// The hosts these tests kill would otherwise start the machine's default adb server (port 5037),
// which outlives them: every process here reaches a private one, stopped at the end.
let adbServer: AdbServer;
beforeAll(async () => {
  project = path.join(work.dir, 'app');
  mkdirSync(project);
  writeFileSync(path.join(project, 'settings.gradle.kts'), 'rootProject.name = "app"\n');
  project = realpathSync(project);
  adbServer = await startAdbServer();
  process.env['ANDROID_ADB_SERVER_PORT'] = String(adbServer.port);
});
afterAll(async () => {
  delete process.env['ANDROID_ADB_SERVER_PORT'];
  await adbServer?.stop();
  work.remove();
});

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup();
  }
});

/** An MCP client over stdio that counts the `initialize` requests it sends. */
async function countingClient(env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...EVERY_TOOLSET],
    env: { ...(process.env as Record<string, string>), ...env, DROIDBUS_LOG: 'debug' },
    cwd: work.dir,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  let initializes = 0;
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    if ('method' in message && message.method === 'initialize') {
      initializes++;
    }
    return send(message);
  };
  const client = new Client({ name: 'quit-test', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, pid: transport.pid!, stderr: () => stderr, initializes: () => initializes };
}

type CallResult = Awaited<ReturnType<Client['callTool']>>;
const textOf = (r: CallResult): string => (r.content as { text: string }[])[0]!.text;

function activity(home: string): ActivityEntry[] {
  return readFileSync(path.join(home, 'mcp-activity.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ActivityEntry);
}

/**
 * Freezes the host, starts a call, and waits until the frontend has sent its bus request: the
 * request is then in flight at the host, whatever happens next.
 */
async function callWhileHostFrozen(host: HostProcess, session: Awaited<ReturnType<typeof countingClient>>) {
  process.kill(host.pid, 'SIGSTOP');
  const call = session.client.callTool({ name: 'get_project_info', arguments: {} });
  await waitFor(
    () => session.stderr().includes('request sent to the host {"type":"project.describe"}'),
    'the frontend to send project.describe to the host',
  );
  // Wrapped: an async function returning the promise itself would wait for the call to finish.
  return { call };
}

describe.each([
  ['quits (SIGTERM)', 'SIGTERM' as const],
  ['crashes (kill -9)', 'SIGKILL' as const],
])('when the host %s mid-request', (_name, signal) => {
  it('the call in flight fails, and the next one succeeds standalone on the same MCP session', async () => {
    const home = shortTempDir('db-q-');
    cleanups.push(() => home.remove());
    const env = { DROIDBUS_HOME: home.dir };
    const host = await startHostProcess(['--project', project], { env });
    cleanups.push(() => host.stop('SIGKILL'));
    const session = await countingClient(env);
    expect(session.client.getServerVersion()?.title).toBe('droidbus (attached to the droidbus host)');

    const { call } = await callWhileHostFrozen(host, session);
    process.kill(host.pid, signal);
    if (signal === 'SIGTERM') {
      process.kill(host.pid, 'SIGCONT');
    }
    const failed = await call;
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain('the droidbus host quit before answering');
    expect(textOf(failed)).toContain('call the tool again');

    const next = await session.client.callTool({ name: 'get_project_info', arguments: {} });
    expect(next.isError).toBeFalsy();
    expect(next.structuredContent).toMatchObject({
      mode: 'standalone',
      standalone_reason: 'the droidbus host quit',
      project_root: project,
    });
    expect(session.initializes()).toBe(1);

    const exit = await host.exited;
    if (signal === 'SIGTERM') {
      // The whole exit status, with what the host said: a host that died of a signal of its own
      // (an abort while its workers stop) shows it here instead of "null".
      expect(exit, `the host's exit after SIGTERM; its stderr:\n${host.stderr().slice(-3000)}`).toEqual({
        code: 0,
        signal: null,
      });
      expect(existsSync(path.join(home.dir, 'host.sock'))).toBe(false);
      // The person at the host's console saw the agent come and the host go (its stdout may
      // drain after the exit).
      await waitFor(() => host.stdout().includes('droidbus host stopped.'), 'the last line of the host');
      expect(host.stdout()).toMatch(
        new RegExp(
          `agent attached: an MCP session \\(pid ${session.pid}, session [0-9a-f-]{8}, follows the host\\) — 1 attached`,
        ),
      );
      expect(host.stdout()).toMatch(/session [0-9a-f-]{8} is quit-test 1\.0\.0/);
      expect(host.stdout()).toContain('quitting: 1 attached agent continues standalone');
    } else {
      expect(exit.signal).toBe('SIGKILL');
    }
    const mine = activity(home.dir).filter((e) => e.pid === session.pid);
    expect(mine.filter((e) => e.name === 'client_initialized')).toHaveLength(1);
    expect(mine.find((e) => e.name === 'continued_standalone')?.summary).toBe(
      'Continuing standalone: the droidbus host quit',
    );
    const listed = JSON.parse((await runCli(['status', '--json'], { env })).stdout) as {
      host: unknown;
      sessions: { pid: number; mode: string }[];
    };
    expect(listed.host).toBeNull();
    expect(listed.sessions).toContainEqual(expect.objectContaining({ pid: session.pid, mode: 'standalone' }));
  });
});

describe('after a crash', () => {
  it('a new host replaces the stale socket the crashed one left', async () => {
    const home = shortTempDir('db-st-');
    cleanups.push(() => home.remove());
    const env = { DROIDBUS_HOME: home.dir };
    const first = await startHostProcess([], { env });
    await first.stop('SIGKILL');
    expect(existsSync(path.join(home.dir, 'host.sock'))).toBe(true);
    const second = await startHostProcess([], { env });
    cleanups.push(() => second.stop());
    const listed = JSON.parse((await runCli(['status', '--json'], { env })).stdout) as {
      host: { pid: number };
    };
    expect(listed.host.pid).toBe(second.pid);
  });
});

describe('droidbus mcp --attach-only', () => {
  it('with --host-wait 0, exits 1 when the host quits later', async () => {
    const home = shortTempDir('db-ao-');
    cleanups.push(() => home.remove());
    const env = { DROIDBUS_HOME: home.dir };
    const host = await startHostProcess([], { env });
    cleanups.push(() => host.stop('SIGKILL'));
    const child = spawn(process.execPath, [CLI, 'mcp', '--attach-only', '--host-wait', '0'], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    cleanups.push(() => child.kill('SIGKILL'));
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdin.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }) + '\n',
    );
    await waitFor(() => out.includes('"id":1'), 'the initialize answer');
    expect(out).toContain('attached to the droidbus host');
    await host.stop('SIGTERM');
    expect(await exited).toBe(1);
    expect(err).toContain('the droidbus host quit and none came back within 0 s; exiting (--attach-only)');
  });

  it('attaches again to the next host after its host was killed; calls in the gap say it waits', async () => {
    const home = shortTempDir('db-ra-');
    cleanups.push(() => home.remove());
    const env = { DROIDBUS_HOME: home.dir };
    const first = await startHostProcess([], { env });
    cleanups.push(() => first.stop('SIGKILL'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', ...EVERY_TOOLSET, '--attach-only'],
      env: { ...(process.env as Record<string, string>), ...env },
      cwd: work.dir,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'reattach-test', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const before = await client.callTool({ name: 'get_logcat_stats', arguments: {} });
    expect(before.isError).not.toBe(true);
    await first.stop('SIGKILL');
    // With no host, a call answers at once that the session waits for one.
    const gap = await client.callTool({ name: 'get_logcat_stats', arguments: {} });
    expect(gap.isError).toBe(true);
    expect(textOf(gap)).toContain('waits up to 60 s for a droidbus host to come back');
    const second = await startHostProcess([], { env });
    cleanups.push(() => second.stop());
    await waitFor(
      async () => (await client.callTool({ name: 'get_logcat_stats', arguments: {} })).isError !== true,
      'a call served by the new host',
    );
    const listed = JSON.parse((await runCli(['status', '--json'], { env })).stdout) as {
      host: { pid: number };
      sessions: { pid: number; mode: string; client_name: string | null }[];
    };
    expect(listed.host.pid).toBe(second.pid);
    expect(listed.sessions).toEqual([
      expect.objectContaining({ pid: transport.pid, mode: 'attached', client_name: 'reattach-test' }),
    ]);
  });
});

describe('the quit sequence, in process', () => {
  it('runs the quit hooks first (at most 1.5 s), tells sessions, then fails in-flight requests with the hooks’ words', async () => {
    const home = shortTempDir('db-qh-');
    cleanups.push(() => home.remove());
    process.env['DROIDBUS_HOME'] = home.dir;
    cleanups.push(() => delete process.env['DROIDBUS_HOME']);
    const { startHost } = await fromDist<typeof HostModule>('host/host.ts');
    const { connectSocketBus } = await fromDist<typeof SocketClient>('bus/socket-client.ts');
    const host = await startHost({ project: null });
    cleanups.push(() => host.stop());
    const order: string[] = [];
    host.beforeFailingInflight(() => {
      order.push('hook');
      return Promise.resolve('Its running build was cancelled.');
    });
    host.beforeFailingInflight(() => new Promise<string | null>(() => undefined)); // never settles

    const { client, reply } = await connectSocketBus({
      path: host.socketPath,
      hello: { attach: 1, version: '0.1.0', session_id: 'inproc', project: null, pid: process.pid },
      timeoutMs: 2_000,
      origin: { kind: 'agent', session_id: 'inproc', client_name: null, standalone: false },
    });
    expect(reply).toMatchObject({ accepted: true });
    client.on('host.quitting', () => order.push('quitting event'));
    const ping = client.request('system.ping', { delay_ms: 30_000 }).then(
      () => null,
      (e: unknown) => {
        order.push('request failed');
        return e as BusError;
      },
    );
    // The host reads a connection's lines in order: once this answers, the ping is in flight.
    const info = await client.request('host.info', {});
    expect(info.sessions.map((s) => s.session_id)).toEqual(['inproc']);

    const started = Date.now();
    await host.stop();
    const err = await ping;
    expect(err?.code).toBe('UNAVAILABLE');
    expect(err?.message).toBe('the droidbus host quit before answering. Its running build was cancelled.');
    expect(order).toEqual(['hook', 'quitting event', 'request failed']);
    expect(Date.now() - started).toBeLessThan(15_000); // the hook that never settles was not waited for
    expect(existsSync(host.socketPath)).toBe(false);
  });

  it('never changes its project for an agent, only for its person', async () => {
    const home = shortTempDir('db-qp-');
    cleanups.push(() => home.remove());
    process.env['DROIDBUS_HOME'] = home.dir;
    cleanups.push(() => delete process.env['DROIDBUS_HOME']);
    const { startHost } = await fromDist<typeof HostModule>('host/host.ts');
    const { connectSocketBus } = await fromDist<typeof SocketClient>('bus/socket-client.ts');
    const host = await startHost({ project: project });
    cleanups.push(() => host.stop());
    // An attached session that claims to be the host's person is still an agent to the host.
    const { client } = await connectSocketBus({
      path: host.socketPath,
      hello: { attach: 1, version: '0.1.0', session_id: 'sneaky', project: null, pid: process.pid },
      timeoutMs: 2_000,
      origin: { kind: 'host' },
    });
    cleanups.push(() => client.close());
    const refused = await client.request('host.set_project', { project: null }).then(
      () => null,
      (e: unknown) => e as BusError,
    );
    expect(refused?.message).toContain('never changes its project for an agent');
    expect(host.info().project).toBe(project);
    expect(host.setProject(null, { kind: 'host' })).toEqual({ project: null, previous: project });
  });
});
