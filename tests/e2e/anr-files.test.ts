/**
 * Where the dropbox keeps no report (its tags disabled: `settings put global dropbox:TAG
 * disabled`), an ANR's threads are read from /data/anr — on an emulator after `adb root`, as on a
 * rooted phone; a user build's shell may not read them. Real inputs: an ART paste (OkSocket #147)
 * framed as ART writes a dump, and a real ANR capture (Droid-ify #1135), tests/fixtures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';
import { tempDir } from '../helpers/paths.js';
import { replayRealAnr } from '../helpers/real-anr.js';

const work = tempDir('droidbus-anr-files-');
let world: DeviceWorld;
let serial: string;

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 0, emulators: 1 });
  serial = world.serials[0]!;
  expect((await world.server.adb(['-s', serial, 'root'])).code).toBe(0);
  await eventually(async () => ((await world.shell(serial, 'id -u')).trim() === '0' ? true : undefined));
  for (const tag of ['data_app_anr', 'system_app_anr']) {
    await world.shell(serial, `settings put global dropbox:${tag} disabled`);
  }
  await world.call('start_logcat', { device_serial: serial, from_now: true });
}, 120_000);

afterAll(async () => {
  await world?.stop();
  work.remove();
});

describe('an ANR with no dropbox report', () => {
  it("reads the main thread from ART's dump in /data/anr (issue 69)", async () => {
    await replayRealAnr(world.server, serial, work.dir, 'oksocket-147-main-blocked.txt');
    expect(await world.shell(serial, 'dumpsys dropbox --print data_app_anr')).toContain(
      '(No entries found.)',
    );
    const r = await eventually(async () => {
      const x = await world.call('get_crash_logs', { package: 'com.looker.droidify' });
      const crashes = x.structured['crashes'] as { kind: string; anr?: { source: string } }[];
      return crashes.some((c) => c.kind === 'anr' && c.anr !== undefined) ? x : undefined;
    });
    const anr = (r.structured['crashes'] as { kind: string; anr?: { source: string } }[]).find(
      (c) => c.kind === 'anr',
    )!.anr!;
    expect(anr.source).toMatch(/^\/data\/anr \(pid 17681 at 2024-05-02 10:00:00\.123\)$/);
    expect(r.text).toContain('Main thread Blocked at z.coz.a(ConnectionManagerImpl.java:232)');
  });
});
