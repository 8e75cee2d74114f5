import { mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as SocketClient from '../../src/bus/socket-client.js';
import type { ActivityEntry } from '../../src/store/activity-log.js';
import { shortTempDir, startHostProcess, waitFor } from '../helpers/host.js';
import type { HostProcess } from '../helpers/host.js';
import { startMcp } from '../helpers/mcp-client.js';
import type { McpSessionHandle } from '../helpers/mcp-client.js';
import { fromDist } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

const home = shortTempDir('db-att-');
const work = shortTempDir('db-prj-');
const env = { DROIDBUS_HOME: home.dir };
let projectA: string;
let projectB: string;
let host: HostProcess;
const sessions: McpSessionHandle[] = [];

function gradleProject(name: string): string {
  const dir = path.join(work.dir, name);
  mkdirSync(path.join(dir, 'app'), { recursive: true });
  writeFileSync(path.join(dir, 'settings.gradle.kts'), `rootProject.name = "${name}"\n`);
  return realpathSync(dir);
}

interface ProjectInfo {
  project_root: string | null;
  open: boolean;
  selected_by: string | null;
  mode: string;
  standalone_reason: string | null;
  follows_host: boolean;
  pinned_project: string | null;
  host_project: string | null;
  hint: string | null;
}

async function projectInfo(session: McpSessionHandle): Promise<ProjectInfo> {
  const result = await session.client.callTool({ name: 'get_project_info', arguments: {} });
  expect(result.isError).toBeFalsy();
  return result.structuredContent as unknown as ProjectInfo;
}

interface StatusJson {
  host: {
    pid: number;
    version: string;
    project: string | null;
    sessions: { pid: number; client_name: string | null; follows_host: boolean }[];
  } | null;
  host_problem: string | null;
  sessions: { pid: number; mode: string; version: string | null; mismatch: string | null }[];
}

async function status(): Promise<StatusJson> {
  const result = await runCli(['status', '--json'], { env });
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as StatusJson;
}

function activity(): ActivityEntry[] {
  try {
    return readFileSync(path.join(home.dir, 'mcp-activity.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ActivityEntry);
  } catch {
    return [];
  }
}

beforeAll(async () => {
  projectA = gradleProject('a');
  projectB = gradleProject('b');
  host = await startHostProcess(['--project', projectA], { env });
});
afterAll(async () => {
  for (const s of sessions) {
    await s.close().catch(() => undefined);
  }
  await host?.stop();
  home.remove();
  work.remove();
});

describe('droidbus host with attached droidbus mcp sessions', () => {
  it('makes the data directory 0700 and its socket 0600', () => {
    expect(statSync(home.dir).mode & 0o777).toBe(0o700);
    const socket = statSync(path.join(home.dir, 'host.sock'));
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);
  });

  it('serves three sessions: pinned by working directory, following the host, pinned by argument', async () => {
    sessions.push(await startMcp([], { env, cwd: path.join(projectA, 'app') }));
    sessions.push(await startMcp([], { env, cwd: work.dir }));
    sessions.push(await startMcp(['--project', projectA], { env, cwd: work.dir }));
    for (const s of sessions) {
      expect(s.client.getServerVersion()?.title).toBe('droidbus (attached to the droidbus host)');
      expect(s.client.getInstructions()).toMatch(/^droidbus \(attached to the droidbus host\)\./);
    }
    const [byCwd, follower, byArg] = await Promise.all(sessions.map(projectInfo));
    expect(byCwd).toMatchObject({
      mode: 'attached',
      standalone_reason: null,
      project_root: projectA,
      selected_by: 'working_directory',
      follows_host: false,
      pinned_project: projectA,
      host_project: projectA,
      open: true,
    });
    expect(follower).toMatchObject({
      mode: 'attached',
      project_root: projectA,
      selected_by: 'host',
      follows_host: true,
      pinned_project: null,
    });
    expect(byArg).toMatchObject({ selected_by: 'argument', pinned_project: projectA });
    // The health check runs on the host's system actor.
    const health = await sessions[1]!.client.callTool({ name: 'run_health_check', arguments: {} });
    expect(health.isError).toBeFalsy();
  });

  it("lists the sessions in the host's session list, with their pids and client names", async () => {
    const listed = await waitFor(async () => {
      const s = await status();
      return s.host?.sessions.every((x) => x.client_name === 'droidbus-e2e') && s.host.sessions.length === 3
        ? s
        : null;
    }, 'three named sessions in the host list');
    expect(listed.host!.pid).toBe(host.pid);
    expect(listed.host!.project).toBe(projectA);
    expect(listed.host!.sessions.map((s) => s.pid).sort()).toEqual(sessions.map((s) => s.pid).sort());
    expect(listed.sessions.every((s) => s.mode === 'attached' && s.mismatch === null)).toBe(true);
    const text = await runCli(['status'], { env });
    expect(text.stdout).toContain(`Host: pid ${host.pid}`);
    expect(text.stdout).toContain('Attached sessions (3 of at most 16)');
  });

  it('logs tool calls, resource reads and attach events to the shared activity log', async () => {
    await sessions[0]!.client.readResource({ uri: 'droidbus://skill' });
    const entries = await waitFor(() => {
      const all = activity();
      return all.some((e) => e.kind === 'resource' && e.pid === sessions[0]!.pid) ? all : null;
    }, 'the resource read in the activity log');
    expect(entries.filter((e) => e.name === 'client_attached' && e.pid === host.pid)).toHaveLength(3);
    expect(
      entries.find((e) => e.kind === 'tool' && e.name === 'get_project_info' && e.pid === sessions[0]!.pid),
    ).toMatchObject({ status: 'ok', summary: expect.stringContaining('Project:') });
    expect(entries.find((e) => e.kind === 'resource')).toMatchObject({
      name: 'droidbus://skill',
      status: 'ok',
    });
  });

  it('refuses a session for a project it does not have open: --attach-only exits 2 with the reason', async () => {
    const result = await runCli(['mcp', '--attach-only', '--project', projectB], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`has ${projectA} open, not ${projectB}`);
    expect(result.stdout).toBe('');
  });

  it('runs a refused session standalone, with the reason in its title', async () => {
    const session = await startMcp(['--project', projectB], { env, cwd: work.dir });
    try {
      expect(session.client.getServerVersion()?.title).toContain(
        `standalone: the droidbus host refused this session: the droidbus host has ${projectA} open, not ${projectB}`,
      );
      const info = await projectInfo(session);
      expect(info).toMatchObject({ mode: 'standalone', project_root: projectB });
      const listed = await status();
      expect(listed.sessions.find((s) => s.pid === session.pid)).toMatchObject({
        mode: 'standalone',
        mismatch: null,
      });
    } finally {
      await session.close();
    }
  });

  it('flags a session that runs another droidbus version, saying to restart its AI client', async () => {
    const session = await startMcp(['--project', projectB], { env, cwd: work.dir });
    try {
      // An older release's record: what an AI client that kept running an old droidbus leaves.
      const file = path.join(home.dir, 'sessions', `${session.pid}.json`);
      // Once initialize named the client, the session has written its record for good.
      const record = await waitFor(() => {
        const r = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        return r['client_name'] === 'droidbus-e2e' ? r : null;
      }, 'the session record to name its client');
      writeFileSync(file, JSON.stringify({ ...record, version: '0.0.9' }));
      const listed = await status();
      expect(listed.sessions.find((s) => s.pid === session.pid)?.mismatch).toContain(
        `runs droidbus 0.0.9, the host runs ${listed.host!.version}: restart the AI client that started it (pid ${session.pid})`,
      );
      const text = await runCli(['status'], { env });
      expect(text.stdout).toContain('! version mismatch');
      expect(text.stdout).toContain('1 session runs another droidbus version');
    } finally {
      await session.close();
    }
  });

  it('refuses the 17th session with a reason', async () => {
    const { connectSocketBus } = await fromDist<typeof SocketClient>('bus/socket-client.ts');
    const extra: Awaited<ReturnType<typeof connectSocketBus>>['client'][] = [];
    try {
      for (let i = sessions.length; i < 16; i++) {
        const opened = await connectSocketBus({
          path: path.join(home.dir, 'host.sock'),
          hello: { attach: 1, version: '0.1.0', session_id: `raw-${i}`, project: null, pid: process.pid },
          timeoutMs: 2_000,
          origin: { kind: 'cli' },
        });
        expect(opened.reply).toMatchObject({ accepted: true });
        extra.push(opened.client);
      }
      const result = await runCli(['mcp', '--attach-only'], { env, cwd: work.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('already serves 16 sessions, the most it takes');
    } finally {
      await Promise.all(extra.map((c) => c.close()));
    }
    // The host's console says who came and went.
    expect(host.stdout()).toContain(
      `agent attached: an MCP session (pid ${process.pid}, session raw-15, follows the host) — 16 attached`,
    );
    await waitFor(
      () => host.stdout().includes(`agent detached: an MCP session (pid ${process.pid}, session raw-15) — `),
      'the host to say the session detached',
    );
  });

  it('keeps a second host from starting while this one answers, leaving its socket alone', async () => {
    const result = await runCli(['host'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`another droidbus host is already running (pid ${host.pid}`);
    expect(statSync(path.join(home.dir, 'host.sock')).isSocket()).toBe(true);
  });

  it('refuses to open a folder that is no Gradle project, and keeps the one it has open', async () => {
    const plain = path.join(home.dir, 'not-a-project');
    mkdirSync(plain, { recursive: true });
    const refused = await runCli(['host', 'open', plain], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${plain} is not a Gradle project`);
    expect((await projectInfo(sessions[1]!)).project_root).toBe(projectA);
  });

  it('gives a pinned session a project error after its person switches the host to another project', async () => {
    const [pinned, follower] = sessions;
    const opened = await runCli(['host', 'open', projectB], { env });
    expect(opened.code).toBe(0);
    expect(opened.stdout).toContain(`now has ${projectB} open`);

    const info = await waitFor(async () => {
      const i = await projectInfo(pinned!);
      return i.host_project === projectB ? i : null;
    }, 'the pinned session to learn the host switched');
    expect(info).toMatchObject({ mode: 'attached', pinned_project: projectA, open: false });
    expect(info.hint).toContain(
      `The droidbus host now has ${projectB} open; this session is for ${projectA}`,
    );
    // The session that follows the host moves with it.
    const moved = await waitFor(async () => {
      const i = await projectInfo(follower!);
      return i.project_root === projectB ? i : null;
    }, 'the following session to move');
    expect(moved).toMatchObject({ selected_by: 'host', follows_host: true, open: true });

    expect((await runCli(['host', 'open', projectA], { env })).code).toBe(0);
    await waitFor(async () => (await projectInfo(pinned!)).open, 'the pinned project to be open again');
  });
});

describe('without a running host', () => {
  it('--attach-only exits 2 saying no host is running', async () => {
    const lonely = shortTempDir('db-none-');
    try {
      const result = await runCli(['mcp', '--attach-only'], { env: { DROIDBUS_HOME: lonely.dir } });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('cannot attach (--attach-only): no droidbus host is running');
    } finally {
      lonely.remove();
    }
  });

  it('refuses a data directory whose socket path is over the unix limit', async () => {
    const deep = shortTempDir('db-long-');
    try {
      const long = path.join(deep.dir, 'x'.repeat(100));
      const result = await runCli(['host'], { env: { DROIDBUS_HOME: long } });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/host socket path .* is \d+ bytes, over the 103-byte limit/);
    } finally {
      deep.remove();
    }
  });
});
