/**
 * Every read tool over every bundled profile (profiles/, sources in profiles/SOURCES.md): the built
 * `droidbus mcp` against `droidbus sim --profile …` devices behind the real adb server. What each
 * answer must say is read from the captured text by hand and written here — never from droidbus's
 * own output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeviceWorld } from '../helpers/device-world.js';
import type { DeviceWorld, ToolOutcome } from '../helpers/device-world.js';
import { until } from '../helpers/until.js';

const PROFILES = [
  'pixel-8-pro-android16',
  'huawei-mate9-android9',
  'galaxy-nexus-crlf',
  'emulator-api34',
  'android11-tv-and-kiosk',
] as const;
type Profile = (typeof PROFILES)[number];

let world: DeviceWorld;
const serialOf = new Map<Profile, string>();

beforeAll(async () => {
  world = await startDeviceWorld(
    { devices: 0, logcatRate: 0, dumpLatencyMs: 10, args: ['--profile', PROFILES.join(',')] },
    ['--toolsets', 'core,ui,device-admin,inspect,ui-extras,device-extras'],
  );
  PROFILES.forEach((p, i) => serialOf.set(p, world.serials[i]!));
}, 120_000);

afterAll(async () => {
  await world?.stop();
});

async function ok(tool: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  const r = await world.call(tool, args);
  expect(r.isError, `${tool}: ${r.text}`).toBe(false);
  return r;
}

/** The read tools every profile is read with; the per-profile tests check their answers. */
async function readAll(p: Profile, pkg: string | null, logged = true): Promise<Record<string, ToolOutcome>> {
  const device_serial = serialOf.get(p)!;
  const out: Record<string, ToolOutcome> = {};
  out['get_device_info'] = await ok('get_device_info', { device_serial });
  out['list_windows'] = await ok('list_windows', { device_serial });
  out['list_notifications'] = await ok('list_notifications', { device_serial });
  out['get_device_location'] = await ok('get_device_location', { device_serial });
  out['get_ui_hierarchy'] = await ok('get_ui_hierarchy', { device_serial, max_rows: 500 });
  out['list_clickable_elements'] = await ok('list_clickable_elements', { device_serial });
  out['screenshot'] = await ok('screenshot', { device_serial });
  out['list_apps'] = await ok('list_apps', { device_serial, third_party_only: false });
  // The per-package reads run on every profile; a profile without the package's dumps gets the
  // model's answer (often "not installed", a tool error the model can read, never a protocol error).
  const package_ = pkg ?? 'com.android.systemui';
  out['dump_app_info'] = await world.call('dump_app_info', { device_serial, package: package_ });
  out['get_memory_info'] = await world.call('get_memory_info', { device_serial, package: package_ });
  out['get_exit_reasons'] = await world.call('get_exit_reasons', { device_serial, package: package_ });
  await ok('start_logcat', { device_serial });
  // A profile without a recorded log has empty buffers (the sim logs nothing of its own here).
  out['get_logcat_entries'] = logged
    ? await until('the recorded log', async () => {
        const r = await ok('get_logcat_entries', { device_serial, count: 1000 });
        return (r.structured['entries'] as unknown[]).length > 0 ? r : undefined;
      })
    : await ok('get_logcat_entries', { device_serial, count: 1000 });
  out['get_crash_logs'] = await ok('get_crash_logs', { device_serial });
  return out;
}

function nodes(r: ToolOutcome): number {
  return (r.structured['nodes'] as unknown[] | undefined)?.length ?? Number(r.structured['node_count']);
}

interface ProfileStats {
  from_profile: number;
  from_model: number;
  model_reads: Record<string, number>;
}

const shares: string[] = [];
async function share(p: Profile): Promise<ProfileStats> {
  const s = (JSON.parse(await world.shell(serialOf.get(p)!, 'sim stats')) as { profile: ProfileStats })
    .profile;
  shares.push(`${p}: ${s.from_profile} commands from the profile, ${s.from_model} from the model`);
  return s;
}

afterAll(() => {
  process.stderr.write(`bundled profiles, commands answered:\n  ${shares.join('\n  ')}\n`);
});

describe('every bundled profile agrees with itself', () => {
  // What each recording says of its Android version: the whole getprop, or a recorded
  // `getprop ro.build.version.sdk` (profiles/SOURCES.md), and the adb features that version had.
  const VERSIONS: [Profile, number, string, string][] = [
    ['pixel-8-pro-android16', 36, '16', 'shell_v2,cmd,stat_v2,ls_v2'],
    ['huawei-mate9-android9', 28, '9', 'shell_v2,cmd,stat_v2'],
    ['galaxy-nexus-crlf', 18, '4.3', ''],
    ['emulator-api34', 34, '14', 'shell_v2,cmd,stat_v2,ls_v2'],
    ['android11-tv-and-kiosk', 30, '11', 'shell_v2,cmd,stat_v2,ls_v2'],
  ];
  it.each(VERSIONS)(
    '%s: one SDK (%i) in getprop, get_device_info and the banner',
    async (p, sdk, release, features) => {
      const device_serial = serialOf.get(p)!;
      const info = await ok('get_device_info', { device_serial });
      expect(info.structured).toMatchObject({ sdk, android_version: release });
      const props = await world.shell(device_serial, 'getprop');
      expect(props).toContain(`[ro.build.version.sdk]: [${sdk}]`);
      expect(props).toContain(`[ro.build.version.release]: [${release}]`);
      const banner = await world.server.adb(['-s', device_serial, 'features']);
      expect(banner.stdout.trim().split('\n').filter(Boolean).sort().join(',')).toBe(
        features.split(',').filter(Boolean).sort().join(','),
      );
    },
  );
});

describe('every bundled profile runs what it recorded running', () => {
  // The meminfo and gfxinfo captures name the process they measured in their headers
  // (`** MEMINFO in pid 2084 [com.android.systemui] **`, `** Graphics info for pid 31185 [...] **`).
  it.each([
    ['pixel-8-pro-android16', 'com.android.systemui', 2084],
    ['pixel-8-pro-android16', 'com.instagram.android', 31185],
  ] as const)('%s runs %s as pid %i, and lists it installed', async (p, pkg, pid) => {
    const device_serial = serialOf.get(p)!;
    expect((await world.shell(device_serial, `pidof ${pkg}`)).trim()).toBe(String(pid));
    const apps = (await ok('list_apps', { device_serial, third_party_only: false })).structured['apps'] as {
      package: string;
    }[];
    expect(apps.map((a) => a.package)).toContain(pkg);
    const info = await world.call('dump_app_info', { device_serial, package: pkg });
    expect(info.isError, info.text).toBe(false);
  });
});

describe('every read tool over every bundled profile', () => {
  it('pixel-8-pro-android16 reads as the captured Pixel 8 Pro on Android 16', async () => {
    const r = await readAll('pixel-8-pro-android16', 'com.android.systemui');
    expect(r['get_device_info']!.structured).toMatchObject({
      model: 'Pixel 8 Pro',
      manufacturer: 'Google',
      brand: 'google',
      device: 'husky',
      android_version: '16',
      sdk: 36,
      abi: 'arm64-v8a',
      fingerprint: 'google/husky/husky:16/CP1A.260405.005/15001963:user/release-keys',
      is_emulator: false,
    });
    expect(JSON.stringify(r['get_device_info']!.structured['screen'])).toContain('1344');
    // No recorded screencap: the model draws the recorded screen at the recorded wm size.
    expect(r['screenshot']!.structured).toMatchObject({ deviceWidth: 1344, deviceHeight: 2992 });
    // android16-deskclock-stopwatch: the deskclock stopwatch, then the safety-center record (cut).
    const notes = r['list_notifications']!.structured['notifications'] as {
      package: string;
      actions: string[];
    }[];
    expect(notes[0]).toMatchObject({ package: 'com.google.android.deskclock' });
    expect(notes[0]!.actions).toContain('Start');
    expect(notes.map((n) => n.package)).toContain('android');
    // dumpsys-meminfo-systemui: TOTAL PSS 96932, TOTAL RSS 182691.
    expect(r['get_memory_info']!.structured).toMatchObject({ total_pss_kb: 96932, total_rss_kb: 182691 });
    // gfxinfo-instagram-android12: 51 frames, 9 janky (17.65 %), 13 by the legacy measure.
    const frames = await ok('get_frame_stats', {
      device_serial: serialOf.get('pixel-8-pro-android16'),
      package: 'com.instagram.android',
    });
    expect(frames.structured).toMatchObject({
      pid: 31185,
      blocks: [
        {
          window: null,
          frames: 51,
          janky_frames: 9,
          janky_pct: 17.65,
          janky_legacy: { frames: 13, pct: 25.49 },
        },
      ],
      pipeline: 'Skia (OpenGL)',
    });
    // android12-launcher-ime-hidden-appium: StatusBar, InputMethod (hidden), the launcher.
    const windows = r['list_windows']!.structured['windows'] as { title: string }[];
    expect(windows.map((w) => w.title)).toEqual([
      'StatusBar',
      'InputMethod',
      'com.android.launcher3/com.android.launcher3.uioverrides.QuickstepLauncher',
    ]);
    // lingbook-list-cjk: 50 nodes; the in-app clock 23:38:50.
    expect(nodes(r['get_ui_hierarchy']!)).toBe(50);
    expect(r['get_ui_hierarchy']!.text).toContain('23:38:50');
    // threadtime-dividers: 11 lines, every one a log line of pid 569, no crash.
    const entries = r['get_logcat_entries']!.structured['entries'] as { pid: number; tag: string }[];
    expect(entries).toHaveLength(11);
    expect(entries[0]).toMatchObject({ pid: 569, tag: 'libprocessgroup' });
    expect(r['get_crash_logs']!.structured['crashes'] ?? []).toHaveLength(0);
    const s = await share('pixel-8-pro-android16');
    expect(s.from_profile).toBeGreaterThan(5);
  });

  it('huawei-mate9-android9 reads as the captured EMUI 9.1 build, its log without the vendor banner', async () => {
    const r = await readAll('huawei-mate9-android9', null);
    expect(r['get_device_info']!.structured).toMatchObject({
      android_version: '9',
      sdk: 28,
      fingerprint: 'HUAWEI/MHA-AL00/HWMHA:9/HUAWEIMHA-AL00/9.1.0.228C00:user/release-keys',
      is_emulator: false,
    });
    // spotlight-rotation1: 126 nodes, rotation 1.
    expect(nodes(r['get_ui_hierarchy']!)).toBe(126);
    // huawei-banner: 3 banner lines (logctl, a blank line, "Note: log switch off…"), then 4 entries (CRLF).
    const entries = r['get_logcat_entries']!.structured['entries'] as { tag: string; message: string }[];
    expect(entries.map((e) => e.tag)).toEqual(['QosMonitor', 'WifiProJNI', 'WifiProJNI', 'QosMonitor']);
    expect(entries.every((e) => !e.message.endsWith('\r'))).toBe(true);
    expect(r['get_crash_logs']!.structured['crashes'] ?? []).toHaveLength(0);
    expect((await share('huawei-mate9-android9')).from_profile).toBeGreaterThan(2);
  });

  it('galaxy-nexus-crlf reads its CRLF answers: the brief log, the dump, the package dump', async () => {
    const r = await readAll('galaxy-nexus-crlf', null);
    // facebook-multiwindow: 104 nodes over three windows, CRLF line ends.
    expect(nodes(r['get_ui_hierarchy']!)).toBe(104);
    // brief-galaxy-nexus: 9 lines, CRLF.
    const entries = r['get_logcat_entries']!.structured['entries'] as { message: string }[];
    expect(entries).toHaveLength(9);
    expect(entries.every((e) => !e.message.endsWith('\r'))).toBe(true);
    // dumpsys-package-samsung: two Samsung packages with their versions.
    const apps = r['list_apps']!.structured['apps'] as { package: string; version_name: string | null }[];
    expect(apps.map((a) => a.package).sort()).toEqual([
      'com.samsung.android.provider.filterprovider',
      'com.sec.android.app.DataCreate',
    ]);
    expect(apps.every((a) => a.version_name !== null)).toBe(true);
    expect((await share('galaxy-nexus-crlf')).from_profile).toBeGreaterThan(2);
  });

  it('emulator-api34 reads as the captured AVD: an emulator, its windows and its boot log', async () => {
    const r = await readAll('emulator-api34', null);
    expect(r['get_device_info']!.structured).toMatchObject({
      model: 'sdk_gphone64_x86_64',
      manufacturer: 'Google',
      android_version: '14',
      sdk: 34,
      abi: 'x86_64',
      is_emulator: true,
    });
    // android11-anr-dialog-appium: the shade, the status bar, an ANR dialog, the launcher.
    const windows = r['list_windows']!.structured['windows'] as { title: string }[];
    expect(windows.map((w) => w.title)).toEqual([
      'NotificationShade',
      'StatusBar',
      'Application Not Responding: com.android.systemui',
      'com.google.android.apps.nexuslauncher/com.google.android.apps.nexuslauncher.NexusLauncherActivity',
    ]);
    // launcher-pixel: 25 nodes; 7 interactive ones with an area (the scroll view, the smartspace
    // pager and card, Messages, Chrome, the search bar, voice search).
    expect(nodes(r['get_ui_hierarchy']!)).toBe(25);
    expect(r['list_clickable_elements']!.structured['total']).toBe(7);
    // threadtime-api25: 80 log lines.
    expect(r['get_logcat_entries']!.structured['entries']).toHaveLength(80);
    expect((await share('emulator-api34')).from_profile).toBeGreaterThan(3);
  });

  it('android11-tv-and-kiosk reads its exit reasons, redacted notifications and location', async () => {
    const r = await readAll('android11-tv-and-kiosk', 'com.eurosport.player', false);
    expect(r['get_logcat_entries']!.structured['entries']).toHaveLength(0);
    // dumpsys-exit-info-firetv: one exit of pid 30643, reason 1 (EXIT_SELF).
    const exits = r['get_exit_reasons']!.structured['records'] as { pid: number; reason: string }[];
    expect(exits).toHaveLength(1);
    expect(exits[0]).toMatchObject({ pid: 30643 });
    expect(JSON.stringify(exits[0])).toContain('EXIT_SELF');
    // android12-tv-redacted-usb-debugging: one record, its texts redacted by the device.
    const notes = r['list_notifications']!.structured['notifications'] as { package: string }[];
    expect(notes).toHaveLength(1);
    expect(notes[0]!.package).toBe('android');
    // android11-sunmi-network-fix: the network fix 31.309459,121.508284 ±40 m; fused and gps have none.
    const loc = JSON.stringify(r['get_device_location']!.structured);
    expect(loc).toContain('31.309459');
    expect(loc).toContain('121.508284');
    // lingbook-editor-entities: 72 nodes.
    expect(nodes(r['get_ui_hierarchy']!)).toBe(72);
    expect((await share('android11-tv-and-kiosk')).from_profile).toBeGreaterThan(3);
  });
});
