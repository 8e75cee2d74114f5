/**
 * Debug sessions through real `droidbus mcp` sessions (the built CLI over stdio, the SDK client)
 * against a `droidbus sim` device through the real adb server: the agent builds with
 * run_gradle_task, streams logcat, taps, and reads the session with the session tools.
 *
 * What install_apk and launch_app will do is done here by the test: `adb install` of the APK the
 * build wrote and `am start -W`, published as `app.installed` / `app.launched` from an actor system
 * in this process, which records into the same data directory. Once install_apk exists, this test
 * becomes fully end-to-end by calling it instead (the rest is unchanged).
 */
import path from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Runtime from '../../src/actors/runtime.js';
import type { ResponseOf } from '../../src/bus/registry.js';
import { startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { adbInstall, agentOrigin, amStartW, until } from '../helpers/app-install.js';
import { setTrust, textOf, writeSample } from '../helpers/build-project.js';
import { shortTempDir, startHostProcess, type HostProcess } from '../helpers/host.js';
import { startMcp, type McpSessionHandle } from '../helpers/mcp-client.js';
import { fromDist, tempDir } from '../helpers/paths.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';

const PKG = 'com.droidbus.sample.demo.debug';
const LAUNCHER = 'com.droidbus.sample.LoginActivity';
const home = shortTempDir('dbs-');
const work = tempDir('droidbus-sessions-mcp-');
const project = path.join(work.dir, 'sample');
const apk = path.join(project, 'app/build/outputs/apk/demo/debug/app-demo-debug.apk');

let server: AdbServer;
let farm: SimFarm;
let serial: string;
let mcp: McpSessionHandle;
let system: Runtime.ActorSystem;
let env: Record<string, string>;
let sessionId: string;
let buildId: string;

type Get = ResponseOf<'sessions.get'>;

async function call(client: McpSessionHandle, name: string, args: Record<string, unknown> = {}) {
  const r = await client.client.callTool({ name, arguments: args });
  return {
    text: textOf(r),
    structured: r.structuredContent as Record<string, unknown>,
    isError: r.isError === true,
  };
}

async function session(client = mcp, extra: Record<string, unknown> = {}): Promise<Get> {
  const r = await call(client, 'get_debug_session', { session_id: sessionId, ...extra });
  expect(r.isError, r.text).toBe(false);
  return r.structured as unknown as Get;
}

async function invalidParams(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => {
      throw new Error('expected invalid_params, the call succeeded');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  expect((err as McpError).code).toBe(-32602);
  return (err as McpError).message;
}

beforeAll(async () => {
  await writeSample(project, home.dir);
  await setTrust(project, home.dir, true);
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 1 });
  serial = farm.devices[0]!.serial;
  env = { ...(server.env as Record<string, string>), DROIDBUS_HOME: home.dir, SIM_GRADLE_DURATION_MS: '300' };
  mcp = await startMcp(['--project', project], { env });
  // This process stands in for install_apk: it publishes app.installed into the same data directory.
  process.env['ANDROID_ADB_SERVER_PORT'] = String(server.port);
  process.env['DROIDBUS_HOME'] = home.dir;
  const runtime = await fromDist<typeof Runtime>('actors/runtime.ts');
  system = runtime.startActorSystem();
  await system.supervisor.spawn('sessions');
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await system?.shutdown();
  await farm?.stop();
  await server?.stop();
  home.remove();
  work.remove();
});

describe('debug sessions through droidbus mcp', () => {
  it('a build, an install and a launch make a session that list_debug_sessions shows with its build', async () => {
    const built = await call(mcp, 'run_gradle_task', { task: 'assemble', variant: 'demoDebug' });
    expect(built.isError, built.text).toBe(false);
    buildId = built.structured['build_id'] as string;
    const by = agentOrigin('droidbus-e2e');
    system.bus.publish(
      'app.installed',
      await adbInstall(server, serial, apk, {
        package: PKG,
        by,
        buildId,
        module: ':app',
        variant: 'demoDebug',
        projectRoot: project,
      }),
    );
    sessionId = await until('the session', async () => {
      const r = await call(mcp, 'list_debug_sessions', {});
      return (r.structured['sessions'] as { id: string }[])[0]?.id;
    });
    system.bus.publish('app.launched', await amStartW(server, serial, PKG, LAUNCHER, by));
    await until('the launch', async () =>
      (await session()).session.counts.launches === 1 ? true : undefined,
    );
    const list = await call(mcp, 'list_debug_sessions', { device_serial: serial });
    expect(list.text).toContain(`${sessionId}  open  ${PKG} on ${serial}`);
    expect(list.text).toContain(`build ${buildId} :app demoDebug`);
    expect(list.text).toContain('crashes 0, ANRs 0, exits 0, launches 1  [standalone]');
    expect(list.text).toMatch(/call start_logcat for /);
  });

  it("records a write tool's call on the session's device as an agent action, and a read-only tool's not at all", async () => {
    const tap = await call(mcp, 'ui_tap', { device_serial: serial, x: 10, y: 10 });
    expect(tap.isError, tap.text).toBe(false);
    const read = await call(mcp, 'get_device_info', { device_serial: serial });
    expect(read.isError, read.text).toBe(false);
    // Without a serial: the one online device is the action's device.
    const tap2 = await call(mcp, 'ui_tap', { x: 20, y: 20 });
    expect(tap2.isError, tap2.text).toBe(false);
    const r = await until('two agent actions', async () => {
      const got = await session();
      return got.session.counts.agent_actions === 2 ? got : undefined;
    });
    const actions = r.timeline.filter((e) => e.kind === 'agent_action');
    expect(actions.map((e) => e.summary)).toEqual([
      expect.stringMatching(/^ui_tap \(write\) succeeded in \d+ ms$/),
      expect.stringMatching(/^ui_tap \(write\) succeeded in \d+ ms$/),
    ]);
    expect(actions[0]!.by).toMatch(/^agent droidbus-e2e \(session [0-9a-f]{8}, standalone\)$/);
    expect(r.timeline.some((e) => e.summary.includes('get_device_info'))).toBe(false);
  });

  it('records a crash read by the agent’s logcat stream, attributed to the install and verified, with its lines', async () => {
    const started = await call(mcp, 'start_logcat', { device_serial: serial, from_now: true });
    expect(started.isError, started.text).toBe(false);
    await server.adb(['-s', serial, 'shell', `sim crash ${PKG} java`]);
    const r = await until('the crash', async () => {
      const got = await session();
      return got.crashes.length === 1 ? got : undefined;
    });
    expect(r.crashes[0]!.attribution).toMatchObject({ method: 'install_record', verified: true });
    // start_logcat took a device: it is an agent action too.
    expect(r.timeline.some((e) => e.summary.startsWith('start_logcat (write) succeeded'))).toBe(true);
    const text = await call(mcp, 'get_debug_session', {
      session_id: sessionId,
      capture_seq: r.crashes[0]!.seq,
      log_lines: 1000,
    });
    expect(text.text).toContain(`Build ${buildId}: assembleDemoDebug (:app demoDebug)`);
    // The process started before the stream did, so the device's APK hash confirms it.
    expect(text.text).toMatch(
      / java pid \d+: .+ — verified: the device's APK still has the installed SHA-256/,
    );
    expect(text.text).toContain('FATAL EXCEPTION');
    const crashing = await call(mcp, 'list_debug_sessions', { only_crashing: true });
    expect((crashing.structured['sessions'] as { id: string }[]).map((s) => s.id)).toEqual([sessionId]);
  });

  it('answers invalid_params for bad arguments and a tool error for an unknown session', async () => {
    await invalidParams(
      mcp.client.callTool({ name: 'list_debug_sessions', arguments: { state: 'running' } }),
    );
    await invalidParams(mcp.client.callTool({ name: 'list_debug_sessions', arguments: { limit: 51 } }));
    await invalidParams(
      mcp.client.callTool({ name: 'get_debug_session', arguments: { session_id: '../x' } }),
    );
    await invalidParams(
      mcp.client.callTool({
        name: 'get_debug_session',
        arguments: { session_id: sessionId, max_events: 501 },
      }),
    );
    await invalidParams(
      mcp.client.callTool({
        name: 'get_debug_session',
        arguments: { session_id: sessionId, capture_seq: 1 },
      }),
    );
    expect(
      await invalidParams(
        mcp.client.callTool({ name: 'compare_debug_sessions', arguments: { from: sessionId } }),
      ),
    ).toMatch(/both from and to, or neither/);
    const unknown = await call(mcp, 'get_debug_session', { session_id: 'ds-zzzzzzzzzz' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/no debug session ds-zzzzzzzzzz .*list_debug_sessions/);
    const nopair = await call(mcp, 'compare_debug_sessions', {});
    expect(nopair.isError).toBe(true);
    expect(nopair.text).toMatch(/^No pair to compare/);
  });

  it('records the agent actions of a session attached to a droidbus host into the same session', async () => {
    let host: HostProcess | undefined;
    let attached: McpSessionHandle | undefined;
    try {
      host = await startHostProcess([], { env });
      attached = await startMcp([], { env });
      const before = (await session()).session.counts.agent_actions;
      const tap = await call(attached, 'ui_tap', { device_serial: serial, x: 30, y: 30 });
      expect(tap.isError, tap.text).toBe(false);
      expect(attached.client.getServerVersion()?.title).toContain('attached');
      const r = await until('the attached action', async () => {
        const got = await session(attached);
        return got.session.counts.agent_actions === before + 1 ? got : undefined;
      });
      expect(r.timeline.at(-1)?.by).toMatch(/^agent droidbus-e2e \(session [0-9a-f]{8}\)$/);
    } finally {
      await attached?.close();
      await host?.stop();
    }
  }, 90_000);
});
