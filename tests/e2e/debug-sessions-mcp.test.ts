/**
 * Debug sessions end to end through real `droidbus mcp` sessions (the built CLI over stdio, the
 * SDK client) against a `droidbus sim` device through the real adb server, using only the tools an
 * agent has: run_gradle_task builds, install_apk installs (and opens the session), launch_app
 * launches with the device's timing, start_logcat streams, a crash comes from the sim's app
 * (`adb shell sim crash`), and the session tools read what the sessions actor recorded.
 *
 * The story is the one compare_debug_sessions is for: a build that works, a change to a build file,
 * a second build that crashes.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseOf } from '../../src/bus/registry.js';
import { startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { until } from '../helpers/until.js';
import { setTrust, textOf, writeSample } from '../helpers/build-project.js';
import { shortTempDir, startHostProcess, type HostProcess } from '../helpers/host.js';
import { EVERY_TOOLSET, startMcp, type McpSessionHandle } from '../helpers/mcp-client.js';
import { tempDir } from '../helpers/paths.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';
import { refusedWith } from '../helpers/tool-errors.js';

const PKG = 'com.droidbus.sample.demo.debug';
const APK = 'app/build/outputs/apk/demo/debug/app-demo-debug.apk';
const home = shortTempDir('dbs-');
const work = tempDir('droidbus-sessions-mcp-');
const project = path.join(work.dir, 'sample');

let server: AdbServer;
let farm: SimFarm;
let serial: string;
let mcp: McpSessionHandle;
let env: Record<string, string>;
/** The install that worked, and the one after a build-file change that crashed. */
let first: string;
let second: string;
let firstBuild: string;
let secondBuild: string;

type Get = ResponseOf<'sessions.get'>;
type Compare = ResponseOf<'sessions.compare'>;
type Launch = ResponseOf<'device.launch_app'>;

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: project,
    encoding: 'utf8',
  }).trim();
}

async function call(client: McpSessionHandle, name: string, args: Record<string, unknown> = {}) {
  const r = await client.client.callTool({ name, arguments: args });
  return {
    text: textOf(r),
    structured: r.structuredContent as Record<string, unknown>,
    isError: r.isError === true,
  };
}

async function ok(name: string, args: Record<string, unknown> = {}, client = mcp) {
  const r = await call(client, name, args);
  expect(r.isError, `${name}: ${r.text}`).toBe(false);
  return r;
}

async function session(id: string, client = mcp, extra: Record<string, unknown> = {}): Promise<Get> {
  return (await ok('get_debug_session', { session_id: id, ...extra }, client)).structured as unknown as Get;
}

/** Builds demoDebug with run_gradle_task; the build's id. */
async function build(): Promise<string> {
  return (await ok('run_gradle_task', { task: 'assemble', variant: 'demoDebug' })).structured[
    'build_id'
  ] as string;
}

/** install_apk of the build's APK; the session it opened. */
async function install(after: string | null): Promise<string> {
  await ok('install_apk', { device_serial: serial, apk_path: APK });
  return until('the install’s session', async () => {
    const r = await call(mcp, 'list_debug_sessions', { state: 'open' });
    const id = (r.structured['sessions'] as { id: string }[])[0]?.id;
    return id !== undefined && id !== after ? id : undefined;
  });
}

/** launch_app, and the timeline entry the launch made in `id`. */
async function launch(id: string): Promise<{ launched: Launch; entry: Get['timeline'][number] }> {
  const launched = (await ok('launch_app', { device_serial: serial, package: PKG }))
    .structured as unknown as Launch;
  const entry = await until('the launch in the session', async () =>
    (await session(id)).timeline.find((e) => e.kind === 'launch'),
  );
  return { launched, entry };
}

beforeAll(async () => {
  await writeSample(project, home.dir);
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'sample');
  await setTrust(project, home.dir, true);
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 1 });
  serial = farm.devices[0]!.serial;
  env = { ...(server.env as Record<string, string>), DROIDBUS_HOME: home.dir, SIM_GRADLE_DURATION_MS: '300' };
  mcp = await startMcp([...EVERY_TOOLSET, '--project', project], { env });
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await farm?.stop();
  await server?.stop();
  home.remove();
  work.remove();
});

describe('debug sessions through droidbus mcp', () => {
  it('install_apk opens a session that names its build, where the build came from, and the agent that installed it', async () => {
    firstBuild = await build();
    first = await install(null);
    const list = await ok('list_debug_sessions', { device_serial: serial });
    expect(list.text).toContain(`${first}  open  ${PKG} on ${serial}`);
    expect(list.text).toContain(`build ${firstBuild} :app demoDebug`);
    expect(list.text).toMatch(/call start_logcat for /);
    const r = await session(first);
    expect(r.session).toMatchObject({
      state: 'open',
      package: PKG,
      device: serial,
      build_id: firstBuild,
      recorded_by: 'standalone',
    });
    expect(r.session.install.by).toMatch(/^agent droidbus-e2e \(session [0-9a-f]{8}, standalone\)$/);
    expect(r.session.build?.source).toMatchObject({
      commit: git('rev-parse', 'HEAD'),
      uncommitted_changes: false,
      agp_version: '8.7.3',
    });
    expect(r.timeline[0]).toMatchObject({ kind: 'install', by: r.session.install.by });
    // The agent's install_apk call itself goes into the session it opened.
    await until('install_apk as an agent action', async () =>
      (await session(first)).timeline.find((e) => /^install_apk \(destructive\) succeeded/.test(e.summary)),
    );
  });

  it('launch_app puts a launch with the timing the device reported into the session', async () => {
    const { launched, entry } = await launch(first);
    expect(launched.method).toBe('am_start');
    expect(launched.total_ms).toEqual(expect.any(Number));
    expect(entry.by).toMatch(/^agent droidbus-e2e /);
    expect(entry.summary).toBe(
      `launched ${launched.component}: ${launched.total_ms} ms (${launched.launch_state})`,
    );
    const list = await ok('list_debug_sessions', { device_serial: serial });
    expect(list.text).toContain('crashes 0, ANRs 0, exits 0, launches 1  [standalone]');
    const nopair = await call(mcp, 'compare_debug_sessions', {});
    expect(nopair.isError).toBe(true);
    expect(nopair.text).toMatch(/^No pair to compare/);
  });

  it("records a write tool's call on the session's device as an agent action, and a read-only tool's not at all", async () => {
    const before = (await session(first)).session.counts.agent_actions;
    await ok('ui_tap', { device_serial: serial, x: 10, y: 10 });
    await ok('get_device_info', { device_serial: serial });
    // Without a serial: the one online device is the action's device.
    await ok('ui_tap', { x: 20, y: 20 });
    const r = await until('two more agent actions', async () => {
      const got = await session(first);
      return got.session.counts.agent_actions === before + 2 ? got : undefined;
    });
    const actions = r.timeline.filter((e) => e.kind === 'agent_action');
    expect(actions.slice(-2).map((e) => e.summary)).toEqual([
      expect.stringMatching(/^ui_tap \(write\) succeeded in \d+ ms$/),
      expect.stringMatching(/^ui_tap \(write\) succeeded in \d+ ms$/),
    ]);
    expect(actions.at(-1)!.by).toMatch(/^agent droidbus-e2e \(session [0-9a-f]{8}, standalone\)$/);
    expect(r.timeline.some((e) => e.summary.includes('get_device_info'))).toBe(false);
  });

  it('a second install after a build-file change supersedes the first session; a crash there is attributed to that install and verified', async () => {
    await ok('start_logcat', { device_serial: serial, from_now: true });
    appendFileSync(path.join(project, 'app/build.gradle.kts'), '\n// a change\n');
    secondBuild = await build();
    expect(secondBuild).not.toBe(firstBuild);
    second = await install(first);
    expect((await session(first)).session).toMatchObject({ state: 'superseded', superseded_by: second });
    await launch(second);

    const crashed = await server.adb(['-s', serial, 'shell', `sim crash ${PKG} java`]);
    expect(crashed.code, crashed.stderr).toBe(0);
    const r = await until('the crash', async () => {
      const got = await session(second);
      return got.crashes.length === 1 ? got : undefined;
    });
    const c = r.crashes[0]!;
    expect(c.kind).toBe('java');
    expect(c.attribution).toMatchObject({ method: 'install_record', verified: true });
    // launch_app started this process after install_apk: its Start proc line proves which APK ran.
    expect(c.attribution.reason).toMatch(/^pid \d+ started at .* \(Start proc\), after the install/);
    expect(r.timeline.some((e) => e.kind === 'crash' && e.by === 'the app')).toBe(true);
    expect((await session(first)).session.counts.crashes).toBe(0);
    const text = await ok('get_debug_session', { session_id: second, capture_seq: c.seq, log_lines: 1000 });
    expect(text.text).toContain(`Build ${secondBuild}: assembleDemoDebug (:app demoDebug)`);
    expect(text.text).toContain('FATAL EXCEPTION');
    const crashing = await ok('list_debug_sessions', { only_crashing: true });
    expect((crashing.structured['sessions'] as { id: string }[]).map((s) => s.id)).toEqual([second]);
  });

  it('records the exit the crash left, read from exit-info', async () => {
    const r = await until('the exit', async () => {
      const got = await session(second);
      return got.session.counts.exits >= 1 ? got : undefined;
    });
    expect(r.timeline.find((e) => e.kind === 'exit')?.summary).toMatch(/CRASH/);
  });

  it('compare_debug_sessions picks the install that worked and the one that crashed, and names what changed between them', async () => {
    const picked = await ok('compare_debug_sessions', {});
    const r = picked.structured as unknown as Compare;
    expect([r.from.id, r.to.id]).toEqual([first, second]);
    expect(r.chosen_by).toMatch(/newest session that launched/);
    expect(r.differences).toContainEqual({ field: 'build_id', from: firstBuild, to: secondBuild });
    expect(r.crashes.new_in_to).toHaveLength(1);
    expect(r.launch.comparable).toBe(true);
    expect(r.launch.delta_ms).toEqual(expect.any(Number));
    expect(r.provenance).toMatchObject({
      same_commit: true,
      differences: [{ field: 'dirty', from: false, to: true }],
      changed_build_files: [{ path: 'app/build.gradle.kts', change: 'changed' }],
    });
    expect(picked.text).toContain('build files app/build.gradle.kts changed');
    // Named the other way round, the crash is one that went away.
    const back = (await ok('compare_debug_sessions', { from: second, to: first }))
      .structured as unknown as Compare;
    expect(back.chosen_by).toBeNull();
    expect(back.crashes.gone_in_to).toEqual(r.crashes.new_in_to);
    expect(back.crashes.new_in_to).toEqual([]);
  });

  it('answers invalid_params for bad arguments and a tool error for an unknown session', async () => {
    await refusedWith(mcp.client.callTool({ name: 'list_debug_sessions', arguments: { state: 'running' } }));
    await refusedWith(mcp.client.callTool({ name: 'list_debug_sessions', arguments: { limit: 51 } }));
    await refusedWith(mcp.client.callTool({ name: 'get_debug_session', arguments: { session_id: '../x' } }));
    await refusedWith(
      mcp.client.callTool({
        name: 'get_debug_session',
        arguments: { session_id: first, max_events: 501 },
      }),
    );
    await refusedWith(
      mcp.client.callTool({
        name: 'get_debug_session',
        arguments: { session_id: first, capture_seq: 1 },
      }),
    );
    expect(
      await refusedWith(mcp.client.callTool({ name: 'compare_debug_sessions', arguments: { from: first } })),
    ).toMatch(/both from and to, or neither/);
    const unknown = await call(mcp, 'get_debug_session', { session_id: 'ds-zzzzzzzzzz' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/no debug session ds-zzzzzzzzzz .*list_debug_sessions/);
  });

  it('records the agent actions of a session attached to a droidbus host into the same session', async () => {
    let host: HostProcess | undefined;
    let attached: McpSessionHandle | undefined;
    try {
      host = await startHostProcess(['--no-ui'], { env });
      attached = await startMcp(EVERY_TOOLSET, { env });
      const before = (await session(second)).session.counts.agent_actions;
      await ok('ui_tap', { device_serial: serial, x: 30, y: 30 }, attached);
      expect(attached.client.getServerVersion()?.title).toContain('attached');
      const r = await until('the attached action', async () => {
        const got = await session(second, attached);
        return got.session.counts.agent_actions === before + 1 ? got : undefined;
      });
      expect(r.timeline.at(-1)?.by).toMatch(/^agent droidbus-e2e \(session [0-9a-f]{8}\)$/);
    } finally {
      await attached?.close();
      await host?.stop();
    }
  }, 90_000);
});
