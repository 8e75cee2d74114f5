/**
 * Debug sessions in a real actor system in this process (the built runtime, its workers): what an
 * MCP session cannot reach or would take too long to — the retention bounds (500 agent actions, 200
 * sessions), paging, two more processes recording into the same session files at once, and the
 * attribution paths a real install never takes (an install whose time on the device is unknown, a
 * device holding another APK than droidbus installed). The session they start from is real: a
 * build through the build actor, installed by the device actor's `device.install_app` (what install_apk
 * sends) on a `droidbus sim` device, with crashes the sim logs read by the logcat actor. The whole
 * install → launch → crash → compare story through the tools is tests/e2e/debug-sessions-mcp.test.ts.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Runtime from '../../src/actors/runtime.js';
import type { LocalBusClient } from '../../src/bus/local-client.js';
import type { BusError } from '../../src/bus/errors.js';
import type { InstallRecord } from '../../src/bus/messages/app-events.js';
import type { BuildRecord } from '../../src/bus/messages/build.js';
import type { Origin } from '../../src/bus/origin.js';
import type { ResponseOf } from '../../src/bus/registry.js';
import { startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { setTrust, writeSample } from '../helpers/build-project.js';
import { fromDist, ROOT, tempDir } from '../helpers/paths.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';
import { until } from '../helpers/until.js';

const PKG = 'com.droidbus.sample.demo.debug';
const home = tempDir('droidbus-sessions-home-');
const work = tempDir('droidbus-sessions-work-');
const project = path.join(work.dir, 'sample');
const APK = 'app/build/outputs/apk/demo/debug/app-demo-debug.apk';
const agent: Origin = {
  kind: 'agent',
  session_id: randomUUID(),
  client_name: 'droidbus-e2e',
  standalone: true,
};

let server: AdbServer;
let farm: SimFarm;
let system: Runtime.ActorSystem;
let client: LocalBusClient;
let serial: string;
/** The session of the real install, and the one a made-up install of the same APK opened after it. */
let first: string;
let third: string;

async function build(): Promise<BuildRecord> {
  const r = await client.request(
    'build.run',
    { root: project, task: 'assemble', variant: 'demoDebug' },
    { timeoutMs: 120_000 },
  );
  expect(r.record.result, r.what_went_wrong.join('\n')).toBe('success');
  return r.record;
}

/** What install_apk asks the device actor, asked as the agent. */
async function install(): Promise<void> {
  await system
    .client(agent)
    .request('device.install_app', { serial, root: project, apk_path: APK }, { timeoutMs: 120_000 });
}

/** The install record a session keeps (to open more sessions for made-up devices). */
function installOf(id: string): InstallRecord {
  return (
    JSON.parse(readFileSync(path.join(home.dir, 'debug-sessions', `${id}.json`), 'utf8')) as {
      install: InstallRecord;
    }
  ).install;
}

function get(id: string, extra: Record<string, unknown> = {}): Promise<ResponseOf<'sessions.get'>> {
  return client.request('sessions.get', { session_id: id, ...extra });
}

async function failure(promise: Promise<unknown>): Promise<BusError> {
  return promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (err: unknown) => err as BusError,
  );
}

function agentAction(device: string, i: number, actor = agent) {
  return client.request('sessions.agent_action', {
    tool: 'ui_tap',
    kind: 'write',
    success: true,
    status: 'ok',
    duration_ms: i,
    serial: device,
    package: null,
    actor,
    at: new Date().toISOString(),
  });
}

beforeAll(async () => {
  await writeSample(project, home.dir);
  await setTrust(project, home.dir, true);
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 1 });
  serial = farm.devices[0]!.serial;
  // The workers read these when they start.
  process.env['ANDROID_ADB_SERVER_PORT'] = String(server.port);
  process.env['DROIDBUS_HOME'] = home.dir;
  process.env['SIM_GRADLE_DURATION_MS'] = '300';
  const runtime = await fromDist<typeof Runtime>('actors/runtime.ts');
  system = runtime.startActorSystem();
  await system.supervisor.spawn('sessions');
  client = system.client({ kind: 'cli' });
  await client.request('logcat.start', { serial, from_now: true });
}, 120_000);

afterAll(async () => {
  await system?.shutdown();
  await farm?.stop();
  await server?.stop();
  home.remove();
  work.remove();
});

describe('debug sessions from real events', () => {
  it('the device actor’s install opens a session naming its build and the agent that asked for it', async () => {
    const record = await build();
    await install();
    first = await until('the session', async () => {
      const r = await client.request('sessions.list', {});
      return r.sessions[0]?.id;
    });
    const r = await get(first);
    expect(r.session).toMatchObject({ state: 'open', package: PKG, device: serial, build_id: record.id });
    expect(r.session.install.by_origin).toEqual(agent);
    expect(r.timeline.map((e) => e.kind)).toEqual(['install']);
  });

  it('compare refuses one id alone, an unknown id and the same id twice, and says when there is no default pair', async () => {
    expect((await failure(client.request('sessions.compare', {}))).code).toBe('NOT_FOUND');
    expect((await failure(client.request('sessions.compare', { from: first }))).code).toBe('INVALID');
    const unknown = await failure(client.request('sessions.compare', { from: 'ds-zzzzzzzzzz', to: first }));
    expect(unknown.code).toBe('NOT_FOUND');
    expect(unknown.message).toMatch(/no debug session ds-zzzzzzzzzz/);
    expect((await failure(client.request('sessions.compare', { from: first, to: first }))).code).toBe(
      'INVALID',
    );
  });

  it('pages the timeline back with before_seq, and refuses a capture_seq that is no crash', async () => {
    for (let i = 0; i < 30; i++) {
      await agentAction(serial, i);
    }
    const total = (await get(first, { max_events: 500 })).timeline.length;
    const seqs: number[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await get(first, {
        max_events: 7,
        ...(before !== undefined ? { before_seq: before } : {}),
      });
      seqs.unshift(...page.timeline.map((e) => e.seq));
      if (page.next_before_seq === null) {
        break;
      }
      before = page.next_before_seq;
    }
    expect(seqs).toHaveLength(total);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect((await failure(get(first, { capture_seq: 1 }))).code).toBe('INVALID');
  });

  it('keeps 500 agent actions per session and counts those it dropped', async () => {
    for (let batch = 0; batch < 5; batch++) {
      await Promise.all(Array.from({ length: 100 }, (_, i) => agentAction(serial, batch * 100 + i)));
    }
    const r = await get(first, { max_events: 500 });
    expect(r.session.counts.agent_actions).toBe(530);
    expect(r.session.dropped_events).toBe(30);
    const kept = JSON.parse(readFileSync(path.join(home.dir, 'debug-sessions', `${first}.json`), 'utf8')) as {
      events: { kind: string }[];
    };
    expect(kept.events.filter((e) => e.kind === 'agent_action')).toHaveLength(500);
    // The oldest go first, but never the install the session is about.
    expect(kept.events.filter((e) => e.kind === 'install')).toHaveLength(1);
  });

  it('a stop (what stop_app asks the device actor) goes into the session', async () => {
    const stopped = await system.client(agent).request('device.stop_app', {
      serial,
      package: PKG,
      scope: { root: null, allow_foreign_package: true },
    });
    expect(stopped.installed).toBe(true);
    const r = await until('the stop', async () => {
      const got = await get(first, { max_events: 1 });
      return got.session.counts.stops === 1 ? got : undefined;
    });
    expect(r.timeline[0]).toMatchObject({ kind: 'stop', summary: `stopped ${PKG}` });
    expect(r.timeline[0]?.by).toMatch(/^agent droidbus-e2e /);
  });

  it('two processes recording agent actions into one session at once lose none', async () => {
    const device = 'fake-shared-1';
    system.bus.publish('app.installed', { ...installOf(first), device });
    const shared = await until('the shared session', async () => {
      const r = await client.request('sessions.list', { device });
      return r.sessions[0]?.id;
    });
    const child = (name: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const script = `
          const { startActorSystem } = await import(${JSON.stringify(path.join(ROOT, 'dist/actors/runtime.js'))});
          const system = startActorSystem();
          await system.supervisor.spawn('sessions');
          const client = system.client({ kind: 'cli' });
          const actor = { kind: 'agent', session_id: ${JSON.stringify(name)}, client_name: ${JSON.stringify(name)}, standalone: true };
          const sent = Array.from({ length: 200 }, (_, i) => client.request('sessions.agent_action', {
            tool: 'ui_tap', kind: 'write', success: true, status: 'ok', duration_ms: i,
            serial: ${JSON.stringify(device)}, package: null, actor, at: new Date().toISOString() }));
          const done = await Promise.allSettled(sent);
          await system.shutdown();
          process.stdout.write(String(done.filter((d) => d.status === 'fulfilled' && d.value.sessions.length === 1).length));
        `;
        // A file, not `-e`: worker threads inherit the parent's execArgv.
        const file = path.join(work.dir, `${name}.mjs`);
        writeFileSync(file, script);
        const p = spawn(process.execPath, [file], {
          env: { ...process.env, DROIDBUS_HOME: home.dir },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        p.stdout.on('data', (c: Buffer) => (out += c.toString()));
        p.on('error', reject);
        p.on('close', (code) =>
          code === 0 ? resolve(Number(out)) : reject(new Error(`child exited ${code}`)),
        );
      });
    const [a, b] = await Promise.all([child('writer-a'), child('writer-b')]);
    expect([a, b]).toEqual([200, 200]);
    const file = JSON.parse(
      readFileSync(path.join(home.dir, 'debug-sessions', `${shared}.json`), 'utf8'),
    ) as {
      events: { seq: number; kind: string; by: { session_id?: string } | null }[];
      counts: { agent_actions: number };
    };
    const actions = file.events.filter((e) => e.kind === 'agent_action');
    expect(file.counts.agent_actions).toBe(400);
    expect(actions.filter((e) => e.by?.session_id === 'writer-a')).toHaveLength(200);
    expect(actions.filter((e) => e.by?.session_id === 'writer-b')).toHaveLength(200);
    expect(new Set(file.events.map((e) => e.seq)).size).toBe(file.events.length);
  }, 120_000);

  it("verifies a crash by the device's APK hash when the install's time on the device is unknown", async () => {
    system.bus.publish('app.installed', { ...installOf(first), device_last_update_ms: null });
    third = await until('the third session', async () => {
      const r = await client.request('sessions.list', { device: serial, state: 'open' });
      return r.sessions[0]?.id !== first ? r.sessions[0]?.id : undefined;
    });
    await server.adb(['-s', serial, 'shell', `sim crash ${PKG} java`]);
    const r = await until('the crash', async () => {
      const got = await get(third);
      return got.crashes.length === 1 ? got : undefined;
    });
    expect(r.crashes[0]!.attribution).toMatchObject({ method: 'install_record', verified: true });
    expect(r.crashes[0]!.attribution.reason).toMatch(/the device's APK still has the installed SHA-256/);
  });

  it('leaves a crash unattributed and closes the session when the device has another APK than droidbus installed', async () => {
    const other = 'com.droidbus.sample';
    system.bus.publish('app.installed', {
      ...installOf(first),
      package: other,
      apk_sha256: 'f'.repeat(64),
      device_last_update_ms: null,
    });
    const id = await until('the session', async () => {
      const r = await client.request('sessions.list', { package: other });
      return r.sessions[0]?.id;
    });
    await server.adb(['-s', serial, 'shell', `sim crash ${other} java`]);
    const r = await until('the crash', async () => {
      const got = await get(id);
      return got.crashes.length === 1 ? got : undefined;
    });
    expect(r.crashes[0]!.attribution).toMatchObject({ method: 'unattributed', verified: false });
    expect(r.session.state).toBe('closed');
    expect(r.session.state_reason).toMatch(/reinstalled outside droidbus/);
  });

  it('records the device leaving', async () => {
    await farm.stop();
    const r = await until('the device to go', async () => {
      const got = await get(third, { max_events: 1 });
      return got.timeline[0]?.kind === 'device_gone' ? got : undefined;
    });
    expect(r.timeline[0]?.by).toBe('the device');
  });

  it('keeps at most 200 sessions, pruning the oldest that no longer record first; a pruned one is not found', async () => {
    const record = installOf(first);
    for (let i = 0; i < 200; i++) {
      system.bus.publish('app.installed', { ...record, device: `fake-${i}` });
    }
    await until('200 sessions', async () => {
      const r = await client.request('sessions.list', {});
      return r.total === 200 && (await client.request('sessions.list', { device: 'fake-199' })).matched === 1
        ? true
        : undefined;
    });
    const missing = await failure(get(first));
    expect(missing.code).toBe('NOT_FOUND');
    expect(missing.message).toMatch(/pruned/);
  }, 120_000);
});
