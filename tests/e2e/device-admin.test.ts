import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHistory, sha256Of } from '../helpers/build-project.js';
import { eventually, startDeviceWorld } from '../helpers/device-world.js';
import type { DeviceWorld } from '../helpers/device-world.js';
import { fromDist, tempDir } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { refusedWith } from '../helpers/tool-errors.js';

// The device-admin toolset end to end: SDK client → built `droidbus mcp --project …` → real adb server
// → `droidbus sim` (one tcp device, one emulator), with a test SDK whose `emulator` is the sim's stand-in.

const APP = 'com.droidbus.sample.demo.debug';
const APK_REL = 'app/build/outputs/apk/demo/debug/app-demo-debug.apk';
// The farm's own emulator is Pixel_8_API_34; the other two are started through the stand-in.
const AVDS = ['Pixel_8_API_34', 'Pixel_7a_API_33', 'Medium_Phone_API_35'];

let world: DeviceWorld;
let tcp: string;
let emulator: string;
let project: ReturnType<typeof tempDir>;
let sdk: ReturnType<typeof tempDir>;
let outside: ReturnType<typeof tempDir>;

interface SimStats {
  foreground: string;
  last_intent: { action: string | null; data: string | null } | null;
}

beforeAll(async () => {
  project = tempDir('droidbus-admin-project-');
  sdk = tempDir('droidbus-admin-sdk-');
  outside = tempDir('droidbus-admin-outside-');
  const mod = await fromDist<{ writeSampleProject(dir: string): Promise<void> }>(
    'sim/sample-project/write-sample-project.ts',
  );
  await mod.writeSampleProject(project.dir);
  const base = 6200 + 8 * (process.pid % 60);
  const written = await runCli([
    'sim',
    '--test-sdk',
    sdk.dir,
    '--avds',
    AVDS.join(','),
    '--emulator-base-port',
    String(base),
    '--boot-ms',
    '1500',
  ]);
  expect(written.code, written.stderr).toBe(0);
  world = await startDeviceWorld(
    { devices: 1, emulators: 1, dumpLatencyMs: 40 },
    ['--project', project.dir],
    {
      ANDROID_HOME: sdk.dir,
      SIM_GRADLE_DURATION_MS: '300',
    },
  );
  tcp = world.farm.devices.find((d) => d.console_port === null)!.serial;
  emulator = world.farm.devices.find((d) => d.console_port !== null)!.serial;
  const trusted = await runCli(['trust', project.dir], { env: { DROIDBUS_HOME: world.home } });
  expect(trusted.code, trusted.stderr).toBe(0);
  const built = await world.call('run_gradle_task', { task: 'assemble', variant: 'demoDebug' });
  expect(built.isError, built.text).toBe(false);
}, 120_000);

afterAll(async () => {
  // An emulator the stand-in started outlives droidbus, as a real one would: stop any still listed.
  if (world) {
    const listed = await world.server.adb(['devices']);
    for (const line of listed.stdout.split('\n').slice(1)) {
      const serial = line.split('\t')[0] ?? '';
      if (/^emulator-\d+$/.test(serial) && serial !== emulator) {
        await world.server.adb(['-s', serial, 'emu', 'kill']);
      }
    }
  }
  await world?.stop();
  project?.remove();
  sdk?.remove();
  outside?.remove();
});

async function stats(serial: string): Promise<SimStats> {
  return JSON.parse(await world.shell(serial, 'sim stats')) as SimStats;
}

async function listedSerials(): Promise<string[]> {
  const r = await world.server.adb(['devices']);
  return r.stdout
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t')[0] ?? '')
    .filter(Boolean);
}

describe('install_apk', () => {
  it('installs the built APK, records it against the build that wrote it, and ends with a Recorded line', async () => {
    const r = await world.call('install_apk', { device_serial: tcp, apk_path: APK_REL });
    expect(r.isError, r.text).toBe(false);
    const lines = r.text.trim().split('\n');
    expect(lines[lines.length - 1]).toMatch(
      new RegExp(`^Recorded ${APP.replace(/\./g, '\\.')} 1\\.4\\.2 \\(42\\) on `),
    );
    const apk = path.join(project.dir, APK_REL);
    const build = readHistory(world.home).find((b) => b.apks.some((a) => a.sha256 === sha256Of(apk)))!;
    expect(build).toBeDefined();
    expect(lines[lines.length - 1]).toContain(`build ${build.id} (:app demoDebug)`);
    const installs = (
      JSON.parse(readFileSync(path.join(world.home, 'installed-builds.json'), 'utf8')) as {
        installs: Record<string, unknown>[];
      }
    ).installs;
    expect(installs[installs.length - 1]).toMatchObject({
      device: tcp,
      package: APP,
      apk_sha256: sha256Of(apk),
      build_id: build.id,
      module: ':app',
      variant: 'demoDebug',
      version_code: 42,
      installed_by: { kind: 'agent', client_name: 'droidbus-e2e', standalone: true },
      recorded_by: 'standalone',
    });
    expect(typeof installs[installs.length - 1]!['device_last_update_ms']).toBe('number');
    expect(await world.shell(tcp, `pm path ${APP}`)).toContain('package:');
  });

  it('refuses an APK reached through a symlink out of the project, and a symlinked build directory', async () => {
    const foreign = path.join(outside.dir, 'evil.apk');
    copyFileSync(path.join(project.dir, APK_REL), foreign);
    const linkDir = path.join(project.dir, 'app/build/outputs/apk/demo/debug');
    symlinkSync(foreign, path.join(linkDir, 'linked.apk'));
    const viaLink = await refusedWith(
      world.call('install_apk', {
        device_serial: tcp,
        apk_path: 'app/build/outputs/apk/demo/debug/linked.apk',
      }),
    );
    expect(viaLink).toMatch(/outside the project/);

    // A whole build directory that is a symlink to a folder outside the project.
    const lib = path.join(project.dir, 'other');
    mkdirSync(path.join(outside.dir, 'build/outputs/apk/debug'), { recursive: true });
    copyFileSync(foreign, path.join(outside.dir, 'build/outputs/apk/debug/other.apk'));
    mkdirSync(lib, { recursive: true });
    symlinkSync(path.join(outside.dir, 'build'), path.join(lib, 'build'));
    const viaDir = await refusedWith(
      world.call('install_apk', { device_serial: tcp, apk_path: 'other/build/outputs/apk/debug/other.apk' }),
    );
    expect(viaDir).toMatch(/outside the project/);

    // Not under an application module's outputs, and not an .apk at all.
    writeFileSync(path.join(project.dir, 'notes.apk'), 'x');
    expect(
      await refusedWith(world.call('install_apk', { device_serial: tcp, apk_path: 'notes.apk' })),
    ).toMatch(/build outputs/);
    expect(
      await refusedWith(world.call('install_apk', { device_serial: tcp, apk_path: '../../etc/passwd' })),
    ).toMatch(/outside the project/);
  });
});

describe('launch_app', () => {
  it('starts the launcher activity and reports the launch time and state', async () => {
    await world.call('stop_app', { device_serial: tcp, package: APP });
    const r = await world.call('launch_app', { device_serial: tcp, package: APP });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(/Launch time: \d+ ms \(cold\), wait \d+ ms/);
    expect(r.structured).toMatchObject({
      package: APP,
      component: `${APP}/com.droidbus.sample.LoginActivity`,
      method: 'am_start',
      launch_state: 'COLD',
    });
    expect(r.structured['total_ms']).toBeGreaterThan(0);
    expect(r.structured['displayed_ms']).toBe(r.structured['total_ms']);
    expect((await stats(tcp)).foreground).toContain(APP);
  });

  it('makes an am start error a tool error although am exits 0', async () => {
    const r = await world.call('launch_app', {
      device_serial: tcp,
      package: APP,
      activity: '.NoSuchActivity',
    });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/am start failed .*Activity class \{.*NoSuchActivity\} does not exist/);
    const none = await world.call('launch_app', { device_serial: tcp, package: 'com.example.not.installed' });
    expect(none.isError).toBe(true);
    expect(none.text).toMatch(/no launcher activity/);
  });
});

describe('package scope', () => {
  it("refuses stop, restart, grant and revoke outside the project's packages, naming its ids", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['stop_app', { device_serial: tcp, package: 'com.android.chrome' }],
      ['restart_app', { device_serial: tcp, package: 'com.android.chrome' }],
      [
        'grant_runtime_permission',
        { device_serial: tcp, package: 'com.android.chrome', permission: 'android.permission.CAMERA' },
      ],
      [
        'revoke_runtime_permission',
        { device_serial: tcp, package: 'com.android.chrome', permission: 'android.permission.CAMERA' },
      ],
    ];
    for (const [tool, args] of calls) {
      const message = await refusedWith(world.call(tool, args), 'foreign_package');
      expect(message, tool).toContain("'com.android.chrome' is not this project's app");
      expect(message).toContain('com.droidbus.sample');
      expect(message).toContain('allow_foreign_package: true');
    }
    // A name that only starts like the project's is outside it too.
    await refusedWith(
      world.call('stop_app', { device_serial: tcp, package: 'com.droidbus.samplex' }),
      'foreign_package',
    );
    // A name that is no package name at all is a malformed argument, refused the same way.
    const bad = await refusedWith(
      world.call('stop_app', { device_serial: tcp, package: 'com.x; reboot' }),
      'invalid_argument',
    );
    expect(bad).toContain('package');
  });

  it('acts on another package with allow_foreign_package: true', async () => {
    await world.shell(tcp, 'am start -n com.android.chrome/com.google.android.apps.chrome.Main');
    const r = await world.call('stop_app', {
      device_serial: tcp,
      package: 'com.android.chrome',
      allow_foreign_package: true,
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ package: 'com.android.chrome', installed: true });
    expect(await world.shell(tcp, 'pidof com.android.chrome')).toBe('');
  });
});

describe('restart_app and permissions', () => {
  it('restarts the app cold and reports the Displayed time of exactly that package', async () => {
    const r = await world.call('restart_app', { device_serial: tcp, package: APP });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ package: APP, launch_state: 'COLD', cleared: false });
    const display = r.structured['display_time_ms'] as number;
    expect(display).toBeGreaterThan(0);
    const log = await world.shell(tcp, 'logcat -d -s ActivityTaskManager:I ActivityManager:I');
    const last = [
      ...log.matchAll(
        new RegExp(`Displayed ${APP.replace(/\./g, '\\.')}/\\S+(?: for user 0)?: \\+(\\d+)ms`, 'g'),
      ),
    ].pop();
    expect(Number(last?.[1])).toBe(display);
  });

  it('needs device_serial to clear data, and clears it when given', async () => {
    const message = await refusedWith(world.call('restart_app', { package: APP, clear_data: true }));
    expect(message).toMatch(/device_serial/);
    const r = await world.call('restart_app', { device_serial: tcp, package: APP, clear_data: true });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured['cleared']).toBe(true);
  });

  it('grants and revokes a runtime permission, and reports what the package manager refuses', async () => {
    const granted = await world.call('grant_runtime_permission', {
      device_serial: tcp,
      package: APP,
      permission: 'android.permission.CAMERA',
    });
    expect(granted.isError, granted.text).toBe(false);
    expect(await world.shell(tcp, `dumpsys package ${APP}`)).toMatch(
      /android\.permission\.CAMERA: granted=true/,
    );
    await world.call('launch_app', { device_serial: tcp, package: APP });
    const revoked = await world.call('revoke_runtime_permission', {
      device_serial: tcp,
      package: APP,
      permission: 'android.permission.CAMERA',
    });
    expect(revoked.isError, revoked.text).toBe(false);
    expect(revoked.structured['process_killed']).toBe(true);
    expect(await world.shell(tcp, `dumpsys package ${APP}`)).not.toMatch(
      /android\.permission\.CAMERA: granted=true/,
    );
    const refused = await world.call('grant_runtime_permission', {
      device_serial: tcp,
      package: APP,
      permission: 'android.permission.READ_CONTACTS',
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/has not requested permission/);
  });
});

describe('set_network_state', () => {
  it('refuses Wi-Fi off and airplane mode on for a wireless serial, and allows Wi-Fi on and mobile data', async () => {
    expect(await refusedWith(world.call('set_network_state', { device_serial: tcp, wifi: false }))).toMatch(
      /wireless adb/,
    );
    await refusedWith(world.call('set_network_state', { device_serial: tcp, airplane_mode: true }));
    expect((await world.shell(tcp, 'settings get global wifi_on')).trim()).toBe('1');
    const on = await world.call('set_network_state', { device_serial: tcp, wifi: true, mobile_data: false });
    expect(on.isError, on.text).toBe(false);
    expect(on.structured).toMatchObject({
      previous: { wifi: true, mobile_data: true, airplane_mode: false },
      current: { wifi: true, mobile_data: false, airplane_mode: false },
    });
    await world.call('set_network_state', { device_serial: tcp, mobile_data: true });
    await refusedWith(world.call('set_network_state', { device_serial: tcp }));
  });

  it('turns airplane mode on and off on an emulator through cmd connectivity, returning the previous state', async () => {
    const on = await world.call('set_network_state', { device_serial: emulator, airplane_mode: true });
    expect(on.isError, on.text).toBe(false);
    expect(on.structured).toMatchObject({
      previous: { airplane_mode: false },
      current: { airplane_mode: true },
      airplane_method: 'cmd_connectivity',
    });
    const off = await world.call('set_network_state', { device_serial: emulator, airplane_mode: false });
    expect(off.structured).toMatchObject({
      previous: { airplane_mode: true },
      current: { airplane_mode: false },
    });
  });
});

describe('set_device_orientation', () => {
  it('locks landscape through the rotation settings and gives it back to the accelerometer', async () => {
    const r = await world.call('set_device_orientation', { device_serial: tcp, orientation: 'landscape' });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({
      previous: { orientation: 'auto' },
      current: { orientation: 'landscape' },
    });
    expect((await world.shell(tcp, 'settings get system user_rotation')).trim()).toBe('1');
    expect(await world.shell(tcp, 'dumpsys window displays')).toContain('mDisplayRotation=ROTATION_90');
    const back = await world.call('set_device_orientation', { device_serial: tcp, orientation: 'auto' });
    expect(back.structured).toMatchObject({ current: { orientation: 'auto', accelerometer_rotation: true } });
    await refusedWith(world.call('set_device_orientation', { device_serial: tcp, orientation: 'sideways' }));
  });
});

describe('get_power_state', () => {
  // The recipe's example (docs/ARCHITECTURE.md, How to add a tool): one read, one request, one tool.
  it('says the device is asleep after the power key sleeps it, and awake once woken', async () => {
    const awake = await world.call('get_power_state', { device_serial: tcp });
    expect(awake.isError, awake.text).toBe(false);
    // Read a second way: the power manager's own lines on the device.
    const dump = await world.shell(tcp, 'dumpsys power');
    expect(awake.structured).toMatchObject({
      device_serial: tcp,
      wakefulness: /mWakefulness=(\w+)/.exec(dump)![1],
      display_state: 'ON',
      powered: /mIsPowered=true/.test(dump),
      battery_level: Number(/mBatteryLevel=(\d+)/.exec(dump)![1]),
      stay_on: false,
    });
    // BatteryManager.BATTERY_PLUGGED_USB is 2.
    expect(dump).toMatch(/mPlugType=2$/m);
    expect(awake.structured['plugged']).toEqual(['usb']);
    await world.shell(tcp, 'input keyevent KEYCODE_SLEEP');
    const asleep = await world.call('get_power_state', { device_serial: tcp });
    expect(asleep.structured).toMatchObject({ wakefulness: 'Asleep', display_state: 'OFF' });
    expect(asleep.text).toContain('Asleep, display OFF');
    await world.shell(tcp, 'input keyevent KEYCODE_WAKEUP');
    const woken = await world.call('get_power_state', { device_serial: tcp });
    expect(woken.structured).toMatchObject({ wakefulness: 'Awake', display_state: 'ON' });
  });
});

describe('open_deep_link and open_app_settings', () => {
  it('refuses every scheme that opens no app, in any case', async () => {
    for (const scheme of ['javascript', 'vbscript', 'data', 'file', 'content', 'intent', 'about', 'blob']) {
      for (const spelled of [scheme, scheme.toUpperCase()]) {
        const message = await refusedWith(
          world.call('open_deep_link', { device_serial: tcp, uri: `${spelled}:alert(1)` }),
        );
        expect(message).toContain(`'${scheme}:' URIs are refused`);
      }
    }
    await refusedWith(world.call('open_deep_link', { device_serial: tcp, uri: 'java\tscript:alert(1)' }));
  });

  it('opens a deep link with am start -W, and makes an unresolvable one a tool error', async () => {
    const r = await world.call('open_deep_link', { device_serial: tcp, uri: 'droidbus://item/7' });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured['command']).toEqual([
      'am',
      'start',
      '-W',
      '-a',
      'android.intent.action.VIEW',
      '-d',
      'droidbus://item/7',
    ]);
    expect((await stats(tcp)).foreground).toContain('DetailActivity');
    const none = await world.call('open_deep_link', { device_serial: tcp, uri: 'nothing-here://x' });
    expect(none.isError).toBe(true);
    expect(none.text).toMatch(/unable to resolve Intent/);
  });

  it("opens an app's App info screen", async () => {
    const r = await world.call('open_app_settings', { device_serial: tcp, package: APP });
    expect(r.isError, r.text).toBe(false);
    const s = await stats(tcp);
    expect(s.foreground).toContain('com.android.settings');
    expect(s.last_intent).toMatchObject({
      action: 'android.settings.APPLICATION_DETAILS_SETTINGS',
      data: `package:${APP}`,
    });
  });
});

describe('AVDs through the test SDK emulator', () => {
  it('lists the AVDs and launches one: its emulator appears and its serial is returned, once', async () => {
    const list = await world.call('list_avds');
    expect(list.isError, list.text).toBe(false);
    expect(list.structured['avds']).toEqual(AVDS);
    expect(list.structured['emulator']).toBe(path.join(sdk.dir, 'emulator', 'emulator'));

    const progress: Progress[] = [];
    const launch = () =>
      world.mcp.client.callTool({ name: 'launch_avd', arguments: { name: 'Pixel_7a_API_33' } }, undefined, {
        onprogress: (p) => progress.push(p),
        timeout: 90_000,
      });
    // Two calls at once: one starts the emulator, the other waits for it rather than starting another.
    const [a, b] = await Promise.all([launch(), launch()]);
    const first = a.structuredContent as { serial: string; already_running: boolean };
    const second = b.structuredContent as { serial: string; already_running: boolean };
    expect(a.isError, JSON.stringify(a.content)).toBeFalsy();
    expect(first.serial).toMatch(/^emulator-\d+$/);
    expect(second.serial).toBe(first.serial);
    expect([first.already_running, second.already_running].sort()).toEqual([false, true]);
    expect(progress.length).toBeGreaterThan(0);
    expect(await listedSerials()).toContain(first.serial);
    expect((await world.server.adb(['-s', first.serial, 'emu', 'avd', 'name'])).stdout).toContain(
      'Pixel_7a_API_33',
    );

    // The farm's emulator is found by its console's AVD name: nothing new starts for it.
    const farmAvd = await world.call('launch_avd', { name: 'Pixel_8_API_34' });
    expect(farmAvd.structured).toMatchObject({ serial: emulator, already_running: true, pid: null });

    const again = await world.call('launch_avd', { name: 'Pixel_7a_API_33' });
    expect(again.structured).toMatchObject({ serial: first.serial, already_running: true });
    const listed = await world.call('list_avds');
    expect(listed.structured['running']).toContainEqual({
      serial: first.serial,
      avd_name: 'Pixel_7a_API_33',
      state: 'device',
    });

    const stopped = await world.call('stop_avd', { serial: first.serial });
    expect(stopped.isError, stopped.text).toBe(false);
    expect(stopped.structured).toMatchObject({ serial: first.serial, avd_name: 'Pixel_7a_API_33' });
    expect(await listedSerials()).not.toContain(first.serial);
  }, 120_000);

  it('stops the emulator it started when the launch is cancelled', async () => {
    const log = path.join(world.home, 'avd-logs', 'Medium_Phone_API_35.log');
    const pidOf = (): number | undefined => {
      const m = /\(pid (\d+)\)/.exec(existsSync(log) ? readFileSync(log, 'utf8') : '');
      return m ? Number(m[1]) : undefined;
    };
    const controller = new AbortController();
    const call = world.mcp.client.callTool(
      { name: 'launch_avd', arguments: { name: 'Medium_Phone_API_35' } },
      undefined,
      {
        signal: controller.signal,
        timeout: 90_000,
        // Cancel while it boots, once the emulator process has said who it is.
        onprogress: () => {
          if (pidOf() !== undefined) {
            controller.abort();
          }
        },
      },
    );
    await expect(call).rejects.toThrow();
    const pid = pidOf()!;
    expect(pid).toBeGreaterThan(0);
    await eventually(
      async () => {
        try {
          process.kill(pid, 0);
          return undefined;
        } catch {
          return true;
        }
      },
      15_000,
      'the cancelled emulator process to exit',
    );
    const list = await world.call('list_avds');
    expect(
      (list.structured['running'] as { avd_name: string | null }[]).map((e) => e.avd_name),
    ).not.toContain('Medium_Phone_API_35');
  });

  it('refuses unknown AVDs and option-shaped names, and stop_avd on what is not a listed emulator', async () => {
    expect(await refusedWith(world.call('launch_avd', { name: 'Nexus_One' }))).toMatch(
      /no AVD named Nexus_One/,
    );
    await refusedWith(world.call('launch_avd', { name: '-wipe-data' }));
    await refusedWith(world.call('stop_avd', { serial: tcp }));
    const gone = await world.call('stop_avd', { serial: 'emulator-5998' });
    expect(gone.isError).toBe(true);
    expect(gone.text).toMatch(/adb does not list emulator-5998/);
  });
});

describe('run_run_configuration', () => {
  it('builds, installs (recorded) and launches a configuration on the device given', async () => {
    // Gradle would find the APK up to date after the earlier build; cleaning makes this build write it.
    const clean = await world.call('run_gradle_task', { task: 'clean' });
    expect(clean.isError, clean.text).toBe(false);
    const r = await world.call('run_run_configuration', { name: 'app (demoDebug)', device_serial: tcp });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({
      configuration: 'app (demoDebug)',
      task: ':app:assembleDemoDebug',
      outcome: 'done',
      device: { serial: tcp },
      package: APP,
      apk_written_by_this_build: true,
      logcat_filter: 'package:mine',
    });
    const timing = r.structured['launch_timing'] as {
      total_ms: number;
      displayed_ms: number | null;
      fully_drawn_ms: number | null;
    };
    expect(timing.total_ms).toBeGreaterThan(0);
    // The sample app reports itself fully drawn after its first frame (its Fully drawn line).
    expect(timing.displayed_ms).toBeGreaterThan(0);
    expect(timing.fully_drawn_ms).toBeGreaterThan(timing.displayed_ms!);
    const history = readHistory(world.home);
    expect(history[history.length - 1]!.id).toBe(r.structured['build_id']);
    expect(r.text).toMatch(/^Recorded .* build /m);
    expect(r.structured['apk_sha256']).toBe(sha256Of(path.join(project.dir, APK_REL)));
    // The device is the configuration's last one now, and only that configuration's.
    const listed = await world.call('list_run_configurations');
    const configurations = listed.structured['configurations'] as {
      name: string;
      last_device: string | null;
    }[];
    expect(configurations.find((c) => c.name === 'app (demoDebug)')?.last_device).toBe(tcp);
    expect(configurations.filter((c) => c.last_device !== null)).toHaveLength(1);
    await refusedWith(world.call('run_run_configuration', { name: 'app (nope)', device_serial: tcp }));
  }, 60_000);
});

describe('injection attempts', () => {
  it('leave nothing behind on the device', async () => {
    // The device shell does run an unquoted substitution: the marker proves the check below can fail.
    await world.shell(tcp, 'echo $(touch /data/local/tmp/marker-check)');
    expect(await world.shell(tcp, 'ls /data/local/tmp')).toContain('marker-check');

    const attempts: [string, Record<string, unknown>][] = [
      ['launch_app', { device_serial: tcp, package: `${APP};touch /data/local/tmp/p1` }],
      ['launch_app', { device_serial: tcp, package: APP, activity: '.Main$(touch /data/local/tmp/p2)' }],
      [
        'grant_runtime_permission',
        { device_serial: tcp, package: APP, permission: 'a.b;touch /data/local/tmp/p3' },
      ],
      ['stop_app', { device_serial: tcp, package: "x.y'$(touch /data/local/tmp/p4)'" }],
      ['open_app_settings', { device_serial: tcp, package: 'a.b`touch /data/local/tmp/p5`' }],
    ];
    for (const [tool, args] of attempts) {
      await refusedWith(world.call(tool, args));
    }
    // A URI may hold shell characters; it reaches the device as one quoted argument and runs nothing.
    const uri = await world.call('open_deep_link', {
      device_serial: tcp,
      uri: "myapp://x;touch${IFS}/data/local/tmp/p6&$(touch${IFS}/data/local/tmp/p7)'",
    });
    expect(uri.isError).toBe(true);
    const left = await world.shell(tcp, 'ls /data/local/tmp');
    for (const marker of ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']) {
      expect(left).not.toContain(marker);
    }
  });
});
