import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SAMPLE_CRASH_RETRACED,
  SAMPLE_CRASH_TRACE,
  SAMPLE_MAP_ID,
  writeSampleProject,
} from '../../src/sim/index.js';
import { writeApk } from '../../src/util/apk.js';
import { eventually, startDeviceWorld } from '../helpers/device-world.js';
import type { AnrStacksWire } from '../../src/bus/messages/logcat.js';
import type { DeviceWorld } from '../helpers/device-world.js';
import { tempDir } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

// Crash → deobfuscation through the retrace actor: a release build of the sample project keeps its
// mapping; the sim's crashes are matched to it by map id, by the device's APK hash, or refused.

const project = tempDir('droidbus-retrace-project-');
let world: DeviceWorld;
let serial: string;
const PKG = 'com.droidbus.sample.demo';

interface Outcome {
  status: string;
  trace: string;
  matched_by: string | null;
  map_id: string | null;
  build_id: string | null;
  mapping_line: string;
  reason: string | null;
}

async function newestCrash(pkg = PKG): Promise<{ group: string }> {
  return eventually(async () => {
    const r = await world.call('get_crash_logs', { package: pkg, count: 1 });
    const crash = (r.structured['crashes'] as { group_id: string }[] | undefined)?.[0];
    return crash ? { group: crash.group_id } : undefined;
  });
}

async function retraceNewest(pkg = PKG): Promise<Outcome> {
  const r = await world.call('get_crash_stack_trace', { package: pkg, retrace: true });
  expect(r.isError).toBe(false);
  return r.structured['retrace'] as Outcome;
}

/** Appends a crash with the given frames to the device's log, as the app would print it. */
async function replayCrash(frames: readonly string[], pkg = PKG): Promise<void> {
  const pid = 7000 + Math.floor(Math.random() * 1000);
  const stamp = '11-30 10:00:00.000';
  const lines = ['FATAL EXCEPTION: main', `Process: ${pkg}, PID: ${pid}`, ...frames].map(
    (l) => `${stamp}  ${pid}  ${pid} E AndroidRuntime: ${l}`,
  );
  const file = path.join(project.dir, `crash-${pid}.txt`);
  writeFileSync(file, lines.join('\n') + '\n');
  await world.server.adb(['-s', serial, 'push', file, `/data/local/tmp/crash-${pid}.txt`]);
  await world.shell(serial, `sim logcat replay /data/local/tmp/crash-${pid}.txt`);
}

beforeAll(async () => {
  await writeSampleProject(project.dir);
  world = await startDeviceWorld({ devices: 1 }, ['--project', project.dir]);
  serial = world.serials[0]!;
  const trusted = await runCli(['trust', project.dir], { env: { DROIDBUS_HOME: world.home } });
  expect(trusted.code).toBe(0);
  const build = await world.call('run_gradle_task', { task: 'assembleDemoRelease' });
  expect(build.text).toContain('BUILD SUCCESSFUL');
  // The release build on the device (installed with adb itself: install_apk is not what is tested here).
  const apk = await world.call('find_apk_path', { variant: 'demoRelease' });
  expect(
    (await world.server.adb(['-s', serial, 'install', '-r', String(apk.structured['path'])])).stdout,
  ).toContain('Success');
  await world.call('start_logcat', { device_serial: serial, from_now: true });
});
afterAll(async () => {
  await world.stop();
  project.remove();
});

describe('deobfuscating crashes', () => {
  it('matches a crash to the kept mapping by the map id its frames name, with no device call', async () => {
    await world.shell(serial, `sim crash ${PKG} java`);
    await newestCrash();
    const outcome = await retraceNewest();
    expect(outcome).toMatchObject({ status: 'retraced', matched_by: 'map_id', map_id: SAMPLE_MAP_ID });
    expect(outcome.build_id).toMatch(/^b/);
    expect(outcome.mapping_line).toContain(`map id ${SAMPLE_MAP_ID}`);
    for (const line of SAMPLE_CRASH_RETRACED) {
      expect(outcome.trace).toContain(line.trim());
    }
    // The answer leads with the deobfuscated root cause and the app's frame nearest it.
    const r = await world.call('get_crash_stack_trace', { package: PKG, retrace: true });
    const rootCause =
      'Root cause: com.droidbus.sample.data.PriceUnavailableException: No price for sku DEMO-42 — at com.droidbus.sample.data.PriceBook.priceOf(PriceBook.kt:17)';
    expect(r.text.split('\n')[0]).toBe(rootCause);
    expect(r.structured['root_cause']).toBe(rootCause);
    // The header under it names the deobfuscated exception too: no obfuscated name contradicts it.
    const header = r.text.split('\n')[1]!;
    expect(header).toMatch(/^\[java\] [\w.$]+(?:Exception|Error)/);
    expect(header).not.toMatch(/\ba\.[a-z]\b|r8-map-id/);
    const logs = await world.call('get_crash_logs', { package: PKG, count: 1, retrace: true });
    expect(logs.text).toContain(`\n\n${rootCause}\n`);
  });

  it('leaves the output unchanged without retrace', async () => {
    const r = await world.call('get_crash_stack_trace', { package: PKG });
    expect(r.structured['retrace']).toBeUndefined();
    expect(r.text).toContain(`r8-map-id-${SAMPLE_MAP_ID}`);
  });

  it('deobfuscates the newest crash groups in get_crash_logs with retrace', async () => {
    const r = await world.call('get_crash_logs', { retrace: true });
    const retraced = r.structured['retraced'] as (Outcome & { crash_group_id: string })[];
    expect(retraced.length).toBeGreaterThanOrEqual(1);
    expect(retraced[0]!.status).toBe('retraced');
    expect(r.text).toContain('CartRepository.totalFor(CartRepository.kt:25)');
  });

  it('matches by the APK hash the device reports when the frames carry no map id', async () => {
    const apk = await world.call('find_apk_path', { variant: 'demoRelease' });
    expect(apk.structured['found']).toBe(true);
    const installed = await world.server.adb(['-s', serial, 'install', '-r', String(apk.structured['path'])]);
    expect(installed.stdout).toContain('Success');
    await replayCrash(
      SAMPLE_CRASH_TRACE.map((l) => l.replaceAll(`r8-map-id-${SAMPLE_MAP_ID}`, 'SourceFile')),
    );
    await eventually(async () => {
      const o = await retraceNewest();
      return o.matched_by === 'device_hash' ? o : undefined;
    }).then((o) => {
      expect(o.status).toBe('retraced');
      expect(o.trace).toContain('CartRepository.totalFor(CartRepository.kt:25)');
    });
  });

  it('refuses a map id no kept build wrote', async () => {
    await replayCrash(
      SAMPLE_CRASH_TRACE.map((l) => l.replaceAll(`r8-map-id-${SAMPLE_MAP_ID}`, 'r8-map-id-deadbee')),
    );
    const outcome = await eventually(async () => {
      const o = await retraceNewest();
      return o.reason?.includes('deadbee') ? o : undefined;
    });
    expect(outcome.status).toBe('refused');
    expect(outcome.trace).toContain('r8-map-id-deadbee');
  });

  it('refuses an APK on the device that nothing droidbus built matches', async () => {
    const stranger = path.join(project.dir, 'stranger.apk');
    writeFileSync(
      stranger,
      writeApk({
        packageName: 'com.droidbus.stranger',
        versionCode: 1,
        versionName: '1',
        minSdk: 24,
        targetSdk: 34,
        activities: [],
      }),
    );
    await world.server.adb(['-s', serial, 'install', stranger]);
    await replayCrash(
      ['java.lang.RuntimeException: boom', '\tat a.a.b(SourceFile:6)'],
      'com.droidbus.stranger',
    );
    const outcome = await eventually(async () => {
      const r = await world.call('get_crash_stack_trace', {
        package: 'com.droidbus.stranger',
        retrace: true,
      });
      return r.structured['retrace'] as Outcome | undefined;
    });
    expect(outcome.status).toBe('refused');
    expect(outcome.reason).toContain('matches nothing droidbus built or installed');
  });

  it("reads an ANR's threads from the device's report: the main thread's blocking frame and the holder's, retraced (issue 69)", async () => {
    await world.shell(serial, `sim crash ${PKG} anr`);
    const found = await eventually(async () => {
      const r = await world.call('get_crash_logs', { package: PKG, count: 5, retrace: true });
      const crashes = r.structured['crashes'] as { kind: string; anr?: Record<string, unknown> }[];
      return crashes.some((c) => c.kind === 'anr' && c.anr !== undefined) ? r : undefined;
    });
    expect(found.text).toContain(
      'Main thread Blocked at com.droidbus.sample.data.CartRepository.totalFor(CartRepository.kt:19) — waiting for "CartSync" (tid 18, Sleeping) at com.droidbus.sample.data.PriceBook.priceOf(PriceBook.kt:15)',
    );
    const anr = (found.structured['crashes'] as { kind: string; anr?: AnrStacksWire }[]).find(
      (c) => c.kind === 'anr',
    )!.anr!;
    expect(anr.source).toMatch(/^dropbox data_app_anr \d{4}-/);
    expect(anr.main).toMatchObject({ name: 'main', state: 'Blocked' });
    expect(anr.main.waiting_to_lock?.held_by).toBe(18);
    expect(anr.holder).toMatchObject({ name: 'CartSync', tid: 18, state: 'Sleeping' });
    expect(anr.deadlock).toBe(false);
    // Grouped like a crash, by where the main thread is stuck (the group's line names it).
    expect(found.text).toMatch(
      new RegExp(
        `^group [0-9a-f]{12}: \\[anr\\] ANR in .*: main thread Blocked at a\\.a\\.b\\(r8-map-id-${SAMPLE_MAP_ID}:1\\)`,
        'm',
      ),
    );
    // Without retrace: the same headline, in the names the release build runs with.
    const plain = await world.call('get_crash_stack_trace', { package: PKG });
    expect(plain.text.split('\n')[0]).toBe(
      `Main thread Blocked at a.a.b(r8-map-id-${SAMPLE_MAP_ID}:1) — waiting for "CartSync" (tid 18, Sleeping) at a.c.a(r8-map-id-${SAMPLE_MAP_ID}:2)`,
    );
  });

  it('reports a corrupt kept mapping as failed, and the pool keeps serving', async () => {
    const index = JSON.parse(readFileSync(path.join(world.home, 'mappings', 'index.json'), 'utf8')) as {
      mappings: { sha256: string }[];
    };
    const file = path.join(world.home, 'mappings', `${index.mappings[0]!.sha256}.txt`);
    const good = readFileSync(file);
    writeFileSync(file, 'this is not a mapping ->\n\x00\x01 garbage\n  1:2:what -> ever\n');
    try {
      await world.shell(serial, `sim crash ${PKG} java`);
      const failed = await eventually(async () => {
        const o = await retraceNewest();
        return o.status === 'failed' ? o : undefined;
      });
      expect(failed.reason).toContain('could not be used');
    } finally {
      writeFileSync(file, good);
    }
    await world.shell(serial, `sim crash ${PKG} java`);
    const again = await eventually(async () => {
      const o = await retraceNewest();
      return o.status === 'retraced' ? o : undefined;
    });
    expect(again.matched_by).toBe('map_id');
  });
});
