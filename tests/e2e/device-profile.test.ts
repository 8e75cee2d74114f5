/**
 * Device profiles end to end: `droidbus device record` (the built CLI) records a `droidbus sim`
 * device through the real adb server; `droidbus sim --profile` makes a second device of it; the
 * real adb client and droidbus's tools (SDK client → `droidbus mcp`) read both.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeviceWorld } from '../helpers/device-world.js';
import type { DeviceWorld } from '../helpers/device-world.js';
import { tempDir } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';

interface Manifest {
  description: string;
  packages: string[];
  features?: string[];
  commands: { read: string | null; argv: string[]; stdout: string; exit_code: number | null }[];
  redactions: { command: string; what: string; count: number }[];
}

let world: DeviceWorld;
let original: string;
let replayFarm: SimFarm;
let replay: string;
let out: ReturnType<typeof tempDir>;
let profileDir: string;
let manifest: Manifest;
let recordStdout: string;

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 20, logcatRate: 0 }, [
    '--toolsets',
    'core,ui,device-admin,device-extras',
  ]);
  original = world.serials[0]!;
  out = tempDir('droidbus-profile-');
  profileDir = path.join(out.dir, 'recorded');
  const r = await runCli(['device', 'record', '--serial', original, '-o', profileDir], {
    env: { ...(world.server.env as Record<string, string>), DROIDBUS_HOME: world.home },
  });
  expect(r.code, r.stderr).toBe(0);
  recordStdout = r.stdout;
  manifest = JSON.parse(readFileSync(path.join(profileDir, 'manifest.json'), 'utf8')) as Manifest;
  replayFarm = await startSimFarm(world.server, {
    devices: 0,
    dumpLatencyMs: 20,
    logcatRate: 0,
    args: ['--profile', profileDir],
  });
  replay = replayFarm.devices[0]!.serial;
}, 120_000);

afterAll(async () => {
  await replayFarm?.stop();
  await world?.stop();
  out?.remove();
});

function recorded(argv: string): Buffer {
  const c = manifest.commands.find((x) => x.argv.join(' ') === argv);
  expect(c, argv).toBeDefined();
  return readFileSync(path.join(profileDir, c!.stdout));
}

async function bytes(serial: string, command: string): Promise<Buffer> {
  const r = await world.server.adb(['-s', serial, 'exec-out', command]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdoutBytes;
}

describe('droidbus device record → droidbus sim --profile', () => {
  it('records every catalogue read with its exit code, and says what it redacted', async () => {
    const names = new Set(manifest.commands.map((c) => c.read));
    for (const read of [
      'getprop',
      'wm-size',
      'dumpsys-window-windows',
      'uiautomator-dump',
      'logcat-dump',
      'logcat-sizes',
      'dumpsys-notification',
    ]) {
      expect(names.has(read), read).toBe(true);
    }
    // The screenshot is pixels no pattern redacts: left out unless asked for, and the summary says so.
    expect(names.has('screencap')).toBe(false);
    expect(recordStdout).toContain('Left out: screencap -p');
    // The app in front (the launcher) gets the per-package reads when no --package is given.
    expect(manifest.packages).toEqual(['com.google.android.apps.nexuslauncher']);
    expect(names.has('dumpsys-package')).toBe(true);
    expect(manifest.commands.find((c) => c.read === 'getprop')!.exit_code).toBe(0);
    // The device's adb features, as `adb features` lists them (a set: its order is the server's);
    // the replayed device advertises the same.
    const features = async (serial: string): Promise<string[]> =>
      (await world.server.adb(['-s', serial, 'features'])).stdout.trim().split('\n').sort();
    expect([...(manifest.features ?? [])].sort()).toEqual(await features(original));
    expect(await features(replay)).toEqual(await features(original));
    // The sim's getprop carries the serial (ro.serialno and ro.boot.serialno): both go.
    expect(manifest.redactions).toContainEqual(
      expect.objectContaining({ command: 'getprop', what: 'serial number' }),
    );
    expect(recordStdout).toMatch(/Redacted:\n {2}getprop: \d+ serial numbers \(it identifies this device\)/);
    expect(recorded('getprop').toString('utf8')).toContain('[ro.serialno]: [SERIAL-REDACTED]');
  });

  it('answers getprop, dumpsys window windows, wm size and uiautomator dump byte for byte as recorded', async () => {
    for (const command of ['getprop', 'dumpsys window windows', 'wm size', 'uiautomator dump /dev/tty']) {
      expect((await bytes(replay, command)).equals(recorded(command)), command).toBe(true);
    }
    // And the recording is the original's answer, redaction aside.
    const props = (await bytes(original, 'getprop')).toString('utf8');
    expect(props).toMatch(/^\[ro\.serialno\]: \[\w+\]$/m);
    expect(props.replace(/^(\[ro(?:\.boot)?\.serialno\]: \[)\w+/gm, '$1SERIAL-REDACTED')).toBe(
      recorded('getprop').toString('utf8'),
    );
    expect((await bytes(original, 'wm size')).equals(recorded('wm size'))).toBe(true);
    expect(
      (await bytes(original, 'uiautomator dump /dev/tty')).equals(recorded('uiautomator dump /dev/tty')),
    ).toBe(true);
  });

  it('gives the same get_device_info, list_windows and get_ui_hierarchy answers on both devices', async () => {
    for (const tool of ['get_device_info', 'list_windows', 'get_ui_hierarchy']) {
      const a = await world.call(tool, { device_serial: original });
      const b = await world.call(tool, { device_serial: replay });
      expect(a.isError, a.text).toBe(false);
      expect(b.isError, b.text).toBe(false);
      const strip = (o: Record<string, unknown>): Record<string, unknown> => {
        const { serial: _s, device_serial: _d, ...rest } = o;
        return rest;
      };
      expect(strip(b.structured), tool).toEqual(strip(a.structured));
    }
    const info = await world.call('get_device_info', { device_serial: replay });
    expect(info.structured['model']).toBe('Pixel 8');
  });

  it('counts what the recording answered, and answers from the model once a tap changed the screen', async () => {
    const before = JSON.parse((await world.server.adb(['-s', replay, 'shell', 'sim stats'])).stdout) as {
      profile: { from_profile: number; from_model: number; changes: number };
    };
    expect(before.profile.from_profile).toBeGreaterThan(0);
    await world.server.adb(['-s', replay, 'shell', 'am start -n com.droidbus.sample/.LoginActivity']);
    const dump = (await bytes(replay, 'uiautomator dump /dev/tty')).toString('utf8');
    expect(dump).toContain('com.droidbus.sample');
    expect(dump).not.toBe(recorded('uiautomator dump /dev/tty').toString('utf8'));
    const after = JSON.parse((await world.server.adb(['-s', replay, 'shell', 'sim stats'])).stdout) as {
      profile: {
        from_profile: number;
        from_model: number;
        changes: number;
        model_reads: Record<string, number>;
      };
    };
    expect(after.profile.changes).toBe(before.profile.changes + 1);
    expect(after.profile.model_reads['uiautomator dump /dev/tty']).toBe(1);
    // getprop did not change: still the recording.
    expect((await bytes(replay, 'getprop')).equals(recorded('getprop'))).toBe(true);
  });

  it("leaves none of the device's identifiers or secrets its apps logged in any file of a recording", async () => {
    const sh = async (cmd: string): Promise<string> =>
      (await world.server.adb(['-s', original, 'shell', cmd])).stdout.trim();
    const serialNo = await sh('getprop ro.serialno');
    const androidId = await sh('settings get secure android_id');
    expect(serialNo.length).toBeGreaterThan(3);
    expect(androidId).toMatch(/^[0-9a-f]{16}$/);
    const token = 'ya29.a0AfB_byC3dEfGhIjKlMnOpQrStUvWxYz0123456789';
    const secrets = [
      serialNo,
      androidId,
      'HomeNet-Smith',
      '+14155550123',
      token,
      'sessionid=9f8e7d6c5b4a',
      '415 555 0199',
    ];
    for (const line of [
      `device serial ${serialNo} registered`,
      `android_id=${androidId}`,
      // Issue 68's leaks: the ID without = or :, the network named bare, a number with spaces.
      `android_id ${androidId}`,
      `id ${androidId} checked in`,
      'roaming from HomeNet-Smith',
      'connected to SSID: "HomeNet-Smith"',
      'calling +14155550123',
      'callback +1 415 555 0199',
      `Authorization: Bearer ${token}`,
      'Cookie: sessionid=9f8e7d6c5b4a',
    ]) {
      await sh(`sim log I Leaky '${line}'`);
    }
    const leakDir = path.join(out.dir, 'leaky');
    const r = await runCli(['device', 'record', '--serial', original, '-o', leakDir], {
      env: { ...(world.server.env as Record<string, string>), DROIDBUS_HOME: world.home },
    });
    expect(r.code, r.stderr).toBe(0);
    const files = [
      path.join(leakDir, 'manifest.json'),
      ...readdirSync(path.join(leakDir, 'out')).map((f) => path.join(leakDir, 'out', f)),
    ];
    const logged = files.some((f) => readFileSync(f, 'latin1').includes('Leaky'));
    expect(logged).toBe(true);
    for (const f of files) {
      const text = readFileSync(f, 'latin1');
      for (const secret of secrets) {
        expect(text.includes(secret), `${secret} in ${path.basename(f)}`).toBe(false);
      }
    }
  });

  it("keeps the UI helper's page source when the helper is in use, and a replayed device's helper serves it", async () => {
    const env = { ...(world.server.env as Record<string, string>), DROIDBUS_HOME: world.home };
    // A device of its own: droidbus has not read it yet, so it finds the helper installed at once.
    const farms: SimFarm[] = [];
    try {
      const liveFarm = await startSimFarm(world.server, { devices: 1, dumpLatencyMs: 20, logcatRate: 0 });
      farms.push(liveFarm);
      const live = liveFarm.devices[0]!.serial;
      expect((await runCli(['helper', 'install', '--serial', live], { env })).code).toBe(0);
      await world.server.adb(['-s', live, 'shell', 'am start -W -n com.droidbus.sample/.LoginActivity']);
      const read = await world.call('get_ui_hierarchy', { device_serial: live });
      expect(read.structured['reader']).toBe('helper');
      const dir = path.join(out.dir, 'with-helper');
      const r = await runCli(['device', 'record', '--serial', live, '-o', dir], { env });
      expect(r.code, r.stderr).toBe(0);
      const m = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
      const kept = m.commands.find((c) => c.argv.join(' ') === 'uiautomator2-server GET /session/:id/source');
      expect(kept).toBeDefined();
      expect(readFileSync(path.join(dir, kept!.stdout), 'utf8')).toContain('com.droidbus.sample:id/username');
      // Replayed: the device's helper shows the recorded screen.
      const replayedFarm = await startSimFarm(world.server, {
        devices: 0,
        dumpLatencyMs: 20,
        logcatRate: 0,
        args: ['--profile', dir],
      });
      farms.push(replayedFarm);
      const serial = replayedFarm.devices[0]!.serial;
      const again = await runCli(['helper', 'install', '--serial', serial], { env });
      expect(again.code, again.stderr + again.stdout).toBe(0);
      const replayed = await world.call('get_ui_hierarchy', { device_serial: serial });
      expect(replayed.structured['reader']).toBe('helper');
      expect(replayed.text).toContain('username');
      expect(replayed.structured['screen_hash']).toBe(read.structured['screen_hash']);
    } finally {
      await Promise.all(farms.map((f) => f.stop()));
    }
  });

  it('records the screenshot only when asked, and then names it among the files it could not redact', async () => {
    const dir = path.join(out.dir, 'with-screenshot');
    const r = await runCli(['device', 'record', '--serial', original, '-o', dir, '--keep-screenshot'], {
      env: { ...(world.server.env as Record<string, string>), DROIDBUS_HOME: world.home },
    });
    expect(r.code, r.stderr).toBe(0);
    const m = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
    const shot = m.commands.find((c) => c.argv.join(' ') === 'screencap -p');
    expect(shot).toBeDefined();
    expect(r.stdout).toContain(`Not redacted: ${shot!.stdout} (screencap -p`);
    expect(r.stdout).not.toContain('Left out: screencap -p');
  });

  it('refuses to write over an existing folder', async () => {
    const r = await runCli(['device', 'record', '--serial', original, '-o', profileDir], {
      env: world.server.env as Record<string, string>,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('exists; give a new folder');
  });
});
