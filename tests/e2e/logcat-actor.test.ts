/**
 * The logcat actor's events on the bus, seen from a bus client in this process (the built actor
 * system, its logcat worker streaming from a sim device through a private real adb server):
 * `logcat.state` for each stream change and `logcat.crash` for each finished crash. The farm is
 * stopped at the end, so the stream ends because its device vanished.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Runtime from '../../src/actors/runtime.js';
import type { EventOf } from '../../src/bus/registry.js';
import { SAMPLE_PACKAGE } from '../../src/sim/index.js';
import { startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { fromDist, tempDir } from '../helpers/paths.js';
import { until as poll } from '../helpers/until.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';
import { lastRead } from '../helpers/until.js';

const home = tempDir('droidbus-logcat-actor-home-');
let server: AdbServer;
let farm: SimFarm;
let system: Runtime.ActorSystem;
let serial: string;
const states: EventOf<'logcat.state'>[] = [];
const crashes: EventOf<'logcat.crash'>[] = [];

async function until(what: string, done: () => boolean, ms = 20_000): Promise<void> {
  await poll(what, () => (done() ? true : undefined), ms);
}

beforeAll(async () => {
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 1 });
  serial = farm.devices[0]!.serial;
  // The workers read these when they start: this process's adb server and data directory.
  process.env['ANDROID_ADB_SERVER_PORT'] = String(server.port);
  process.env['DROIDBUS_HOME'] = home.dir;
  writeFileSync(path.join(home.dir, 'settings.json'), JSON.stringify({ mcp: { logcat_default_count: 7 } }));
  const runtime = await fromDist<typeof Runtime>('actors/runtime.ts');
  system = runtime.startActorSystem();
  const client = system.client({ kind: 'cli' });
  client.on('logcat.state', (e) => states.push(e));
  client.on('logcat.crash', (e) => crashes.push(e));
}, 120_000);

afterAll(async () => {
  await system?.shutdown();
  await farm?.stop();
  await server?.stop();
  home.remove();
});

describe('the logcat actor on the bus', () => {
  it('runs on its own worker thread and reports starting then streaming', async () => {
    const client = system.client({ kind: 'cli' });
    const r = await client.request('logcat.start', { serial });
    expect(r.stream.state).toBe('streaming');
    expect(states.filter((s) => s.serial === serial).map((s) => s.state)).toEqual(['starting', 'streaming']);
    const logcat = system.supervisor.list().find((x) => x.address === 'logcat');
    expect(logcat?.thread).toBe('logcat#0');
  });

  it('answers an entries query without a count with settings mcp.logcat_default_count lines', async () => {
    const client = system.client({ kind: 'cli' });
    const r = await lastRead(
      () => client.request('logcat.entries', {}),
      (v) => (v.streams[0]?.entries ?? 0) > 7,
      20_000,
      100,
    );
    expect(r.count).toBe(7);
    expect(r.entries).toHaveLength(7);
    expect(r.has_more).toBe(true);
  });

  it('emits logcat.crash for each finished crash with its device, package, group, kind and summary', async () => {
    const r = await server.adb([
      '-s',
      serial,
      'shell',
      `sim crash ${SAMPLE_PACKAGE} java; sim crash ${SAMPLE_PACKAGE} java; sim crash ${SAMPLE_PACKAGE} native`,
    ]);
    expect(r.code).toBe(0);
    await until('three crash events', () => crashes.length >= 3);
    const java = crashes.filter((c) => c.kind === 'java');
    expect(java).toHaveLength(2);
    expect(java[0]).toMatchObject({ device: serial, package: SAMPLE_PACKAGE });
    expect(java[0]!.group_id).toMatch(/^[0-9a-f]{12}$/);
    expect(java[1]!.group_id).toBe(java[0]!.group_id);
    expect(java[0]!.summary).toContain('IllegalStateException');
    const native = crashes.find((c) => c.kind === 'native')!;
    expect(native.group_id).not.toBe(java[0]!.group_id);
    expect(native.summary).toMatch(/SIG[A-Z]+/);
  });

  it('keeps its store when the logcat worker crashes and streams on after its newest line: nothing lost, nothing twice', async () => {
    const client = system.client({ kind: 'cli' });
    const held = await client.request('logcat.entries', { count: 10_000 });
    const groupsBefore = (await client.request('logcat.crashes', {})).groups.map((g) => g.id).sort();
    expect(groupsBefore).toHaveLength(2);
    const before = states.length;
    const crashesBefore = crashes.length;
    await system.supervisor.crashWorkerOf('logcat');
    await until('the stream to start again', () =>
      states.slice(before).some((s) => s.serial === serial && s.state === 'streaming'),
    );
    // The fresh worker read its predecessor's journal: the same lines under the same seqs, the
    // same crash groups; the stream carried on after the newest line it held.
    const again = await client.request('logcat.entries', { count: 10_000 });
    const seqs = new Map(again.entries.map((e) => [e.seq, e.message]));
    expect(held.entries.filter((e) => seqs.get(e.seq) !== e.message)).toEqual([]);
    const afterCrash = await client.request('logcat.crashes', {});
    expect(afterCrash.groups.map((g) => g.id).sort()).toEqual(groupsBefore);
    expect(afterCrash.streaming).toEqual([serial]);
    // Nothing was read twice: no line stored again, no crash announced again.
    const keys = again.entries.map((e) => `${e.time}|${e.pid}|${e.tid}|${e.tag}|${e.message}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(crashes.length).toBe(crashesBefore);
  });

  it('stops the stream with "device disconnected" when the device vanishes, leaving nothing running', async () => {
    await farm.stop();
    await until('the stream to stop', () => states.some((s) => s.serial === serial && s.state === 'stopped'));
    const stopped = states.find((s) => s.serial === serial && s.state === 'stopped')!;
    expect(stopped.reason).toBe('device disconnected');
    const stats = await system.client({ kind: 'cli' }).request('logcat.stats', {});
    expect(stats.live_streams).toBe(0);
    expect(stats.tick_timer).toBe(false);
    expect(stats.streams).toEqual([
      expect.objectContaining({ serial, state: 'stopped', reason: 'device disconnected' }),
    ]);
  });
});
