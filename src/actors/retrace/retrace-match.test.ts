import { describe, expect, it } from 'vitest';
import type { InstallRecord } from '../../store/installed-builds.js';
import type { KeptMapping } from '../../store/mappings.js';
import { mapIdsInTrace, matchMapping } from './retrace-match.js';
import type { DeviceApk, MatchSources } from './retrace-match.js';

const mapping = (over: Partial<KeptMapping>): KeptMapping => ({
  sha256: 'm1'.padEnd(64, '0'),
  map_id: '628898e',
  build_id: 'b-release',
  project_root: '/p',
  module: ':app',
  variant: 'demoRelease',
  source_path: '/p/app/build/outputs/mapping/demoRelease/mapping.txt',
  size: 100,
  kept_at: '2026-01-01T00:00:00Z',
  ...over,
});

const install = (over: Partial<InstallRecord>): InstallRecord => ({
  id: 'i1',
  device: 'emulator-5554',
  package: 'com.droidbus.sample',
  apk_path: '/p/app.apk',
  apk_sha256: 'a1'.padEnd(64, '0'),
  apk_size: 10,
  version_code: 42,
  version_name: '1.4.2',
  build_id: 'b-release',
  module: ':app',
  variant: 'demoRelease',
  project_root: '/p',
  installed_at: '2026-01-01T00:00:00Z',
  device_last_update_ms: 1_700_000_000_000,
  installed_by: { kind: 'cli' },
  recorded_by: 'standalone',
  ...over,
});

function sources(
  over: Partial<MatchSources> & { device?: DeviceApk } = {},
): MatchSources & { asked: number } {
  const s = {
    mappings: [mapping({})],
    builtApks: [
      { build_id: 'b-release', sha256: 'a1'.padEnd(64, '0'), module: ':app', variant: 'demoRelease' },
    ],
    installs: [install({})],
    asked: 0,
    deviceApk: async () => {
      s.asked++;
      return (
        over.device ?? { kind: 'hash' as const, sha256: 'a1'.padEnd(64, '0'), path: '/data/app/x/base.apk' }
      );
    },
    ...over,
  };
  return s;
}

const OBFUSCATED =
  'java.lang.IllegalStateException: x\n\tat a.b.a(r8-map-id-628898e:3)\n\tat android.view.View.performClick(View.java:1)';
const PLAIN = 'java.lang.IllegalStateException: x\n\tat a.b.a(SourceFile:3)';

describe('matching a crash to the mapping of the build on the device', () => {
  it('reads the map ids a trace names', () => {
    expect(mapIdsInTrace(OBFUSCATED)).toEqual(['628898e']);
    expect(mapIdsInTrace(PLAIN)).toEqual([]);
  });

  it('matches by the map id without asking the device', async () => {
    const s = sources();
    const d = await matchMapping(OBFUSCATED, 'emulator-5554', 'com.droidbus.sample', s);
    expect(d).toMatchObject({ ok: true, matched_by: 'map_id' });
    expect(s.asked).toBe(0);
  });

  it('refuses an unknown map id and frames naming several', async () => {
    expect(await matchMapping(OBFUSCATED, null, null, sources({ mappings: [] }))).toMatchObject({
      ok: false,
      status: 'refused',
      reason: expect.stringContaining('628898e'),
    });
    const two = `${OBFUSCATED}\n\tat a.c.b(r8-map-id-1234567:9)`;
    expect(await matchMapping(two, null, null, sources())).toMatchObject({
      ok: false,
      status: 'refused',
      reason: expect.stringContaining('several'),
    });
  });

  it('matches by the APK hash the device reports when the trace names no map id', async () => {
    expect(await matchMapping(PLAIN, 'emulator-5554', 'com.droidbus.sample', sources())).toMatchObject({
      ok: true,
      matched_by: 'device_hash',
    });
  });

  it('refuses a hash nothing kept matches, and split APKs', async () => {
    const other = sources({ device: { kind: 'hash', sha256: 'ff'.padEnd(64, '0'), path: '/x' } });
    expect(await matchMapping(PLAIN, 'emulator-5554', 'com.droidbus.sample', other)).toMatchObject({
      ok: false,
      status: 'refused',
      reason: expect.stringContaining('matches nothing'),
    });
    const split = sources({ device: { kind: 'split', paths: ['/a/base.apk', '/a/split_config.arm64.apk'] } });
    expect(await matchMapping(PLAIN, 'emulator-5554', 'com.droidbus.sample', split)).toMatchObject({
      ok: false,
      status: 'refused',
      reason: expect.stringContaining('split APKs'),
    });
  });

  it('says the build had no mapping when the APK came from a build that is not minified', async () => {
    const s = sources({ mappings: [] });
    expect(await matchMapping(PLAIN, 'emulator-5554', 'com.droidbus.sample', s)).toMatchObject({
      ok: false,
      status: 'unavailable',
      reason: expect.stringContaining('no R8 mapping'),
    });
  });

  it('falls back to the install record only when the device cannot hash, and checks it against the device', async () => {
    const agree = sources({
      device: {
        kind: 'cannot_hash',
        reason: 'sha256sum: not found',
        version_code: 42,
        last_update_ms: 1_700_000_000_500,
      },
    });
    expect(await matchMapping(PLAIN, 'emulator-5554', 'com.droidbus.sample', agree)).toMatchObject({
      ok: true,
      matched_by: 'install_record',
    });
    const reinstalled = sources({
      device: { kind: 'cannot_hash', reason: 'x', version_code: 43, last_update_ms: 1_700_000_000_000 },
    });
    expect(await matchMapping(PLAIN, 'emulator-5554', 'com.droidbus.sample', reinstalled)).toMatchObject({
      ok: false,
      status: 'refused',
      reason: expect.stringContaining('reinstalled'),
    });
    const updated = sources({
      device: { kind: 'cannot_hash', reason: 'x', version_code: 42, last_update_ms: 1_800_000_000_000 },
    });
    expect(await matchMapping(PLAIN, 'emulator-5554', 'com.droidbus.sample', updated)).toMatchObject({
      ok: false,
      status: 'refused',
    });
    const unknown = sources({
      installs: [],
      device: { kind: 'cannot_hash', reason: 'x', version_code: 42, last_update_ms: null },
    });
    expect(await matchMapping(PLAIN, 'emulator-5554', 'com.droidbus.sample', unknown)).toMatchObject({
      ok: false,
      status: 'refused',
      reason: expect.stringContaining('no record'),
    });
  });

  it('is unavailable without a device to ask', async () => {
    expect(await matchMapping(PLAIN, null, null, sources())).toMatchObject({
      ok: false,
      status: 'unavailable',
    });
  });
});
