/**
 * A device's display configuration changed with a guaranteed undo (issue 74), end to end: MCP
 * client → built droidbus → real adb server → sim device. The device's own `wm size`, `wm density`,
 * `settings get system font_scale` and `cmd uimode night` say what it is at each step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';
import { startHostProcess } from '../helpers/host.js';
import { startMcp } from '../helpers/mcp-client.js';
import { isProcessAlive } from '../../src/util/process-info.js';
import { SAMPLE_PACKAGE } from '../../src/sim/index.js';

let world: DeviceWorld;
let serial: string;

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 20 }, ['--toolsets', 'core,device-settings']);
  serial = world.serials[0]!;
}, 120_000);

afterAll(async () => {
  await world?.stop();
});

/** The device's configuration as its own commands print it. */
async function onDevice(): Promise<string> {
  const out = await world.shell(
    serial,
    'wm size; wm density; settings get system font_scale; cmd uimode night',
  );
  return out.replace(/\r/g, '').trim();
}

type Text = { content?: { type: string; text?: string }[]; isError?: boolean };
const textOf = (r: unknown): string => ((r as Text).content ?? []).map((c) => c.text ?? '').join('\n');

describe('set_display_config', () => {
  it('changes size, density, font scale and dark mode, says so in get_device_info, and gives them back', async () => {
    const original = await onDevice();
    expect(original).toBe('Physical size: 1080x2400\nPhysical density: 420\n1.0\nNight mode: no');
    const set = await world.call('set_display_config', {
      device_serial: serial,
      size: '720x1280',
      density: 320,
      font_scale: 1.3,
      dark_mode: 'on',
    });
    expect(set.isError, set.text).toBe(false);
    expect(set.text).toBe(
      `${serial}: 720x1280 @ 320 dpi, font 1.3, dark (was 1080x2400 @ 420 dpi, font 1). droidbus gives back 1080x2400 @ 420 dpi, font 1 when this session ends, or with restore_display_config.`,
    );
    expect(await onDevice()).toBe(
      'Physical size: 1080x2400\nOverride size: 720x1280\nPhysical density: 420\nOverride density: 320\n1.3\nNight mode: yes',
    );
    const info = await world.call('get_device_info', { device_serial: serial });
    expect(info.text).toMatch(
      /Changed by droidbus \(session .+, since .+\): size, density, font_scale, night/,
    );
    expect(info.structured['droidbus_changes']).toMatchObject({
      previous: { size: null, density: null, font_scale: 1, night: 'no' },
    });

    // A second change keeps the first values to give back.
    expect(
      (await world.call('set_display_config', { device_serial: serial, font_scale: 1.15 })).isError,
    ).toBe(false);

    const restored = await world.call('restore_display_config', { device_serial: serial });
    expect(restored.text).toBe(
      `${serial}: gave back size, density, font_scale, night: 1080x2400 @ 420 dpi, font 1.`,
    );
    expect(await onDevice()).toBe(original);
    expect(
      (await world.call('get_device_info', { device_serial: serial })).structured['droidbus_changes'],
    ).toBeNull();
    const again = await world.call('restore_display_config', { device_serial: serial });
    expect(again.text).toContain('droidbus had changed nothing');
  }, 60_000);

  it("sets an app's own language and gives back the one it had", async () => {
    const pkg = SAMPLE_PACKAGE;
    const locales = async (): Promise<string> =>
      (await world.shell(serial, `cmd locale get-app-locales ${pkg}`)).trim();
    expect(await locales()).toBe(`Locales for ${pkg} for user 0 are []`);
    const set = await world.call('set_display_config', {
      device_serial: serial,
      app_locale: { package: pkg, locales: 'ar' },
    });
    expect(set.isError, set.text).toBe(false);
    expect(await locales()).toBe(`Locales for ${pkg} for user 0 are [ar]`);
    expect(
      (
        (await world.call('get_device_info', { device_serial: serial })).structured['droidbus_changes'] as {
          settings: string[];
        }
      ).settings,
    ).toEqual(['app_locale']);
    const bad = await world.call('set_display_config', {
      device_serial: serial,
      app_locale: { package: pkg, locales: 'ar; reboot' },
    });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('language tags');
    const restored = await world.call('restore_display_config', { device_serial: serial });
    expect(restored.text).toContain('gave back app_locale');
    expect(await locales()).toBe(`Locales for ${pkg} for user 0 are []`);
  }, 60_000);

  it('turns animations off and locks the orientation, and gives both back', async () => {
    const settings = async (): Promise<string> =>
      (
        await world.shell(
          serial,
          'settings get global window_animation_scale; settings get global transition_animation_scale; settings get global animator_duration_scale; settings get system accelerometer_rotation; settings get system user_rotation',
        )
      )
        .replace(/\r/g, '')
        .trim();
    const original = await settings();
    expect(original).toBe('1.0\n1.0\n1.0\n1\n0');
    const set = await world.call('set_display_config', {
      device_serial: serial,
      animations: 'off',
      orientation: 'landscape',
    });
    expect(set.isError, set.text).toBe(false);
    expect(set.text).toContain('2400x1080 @ 420 dpi, font 1, landscape, animations off');
    expect(await settings()).toBe('0.0\n0.0\n0.0\n0\n1');
    const restored = await world.call('restore_display_config', { device_serial: serial });
    expect(restored.text).toContain('gave back animations, rotation');
    expect(await settings()).toBe(original);
  }, 60_000);

  it('refuses what the device cannot show, with its limits, and changes nothing', async () => {
    const original = await onDevice();
    const cases: [Record<string, unknown>, string][] = [
      [{ size: '1440x3200' }, "1440x3200 is larger than the device's panel (1080x2400)"],
      [{ density: 800 }, 'density 800 is outside 120–640 dpi'],
      [{ size: '480x800' }, '480x800 at 420 dpi is 183 dp wide; Android phones are at least 320 dp'],
      [{ font_scale: 3 }, 'font scale 3 is outside 0.85–2'],
    ];
    for (const [args, message] of cases) {
      const r = await world.call('set_display_config', { device_serial: serial, ...args });
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.text).toContain(message);
    }
    const bad = await world.call('set_display_config', { device_serial: serial, size: '720x1280; reboot' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('WIDTHxHEIGHT');
    expect(await onDevice()).toBe(original);
  }, 60_000);

  it("refuses another session's change BUSY, and gives back when the changing session ends", async () => {
    const original = await onDevice();
    const env = { ...(world.server.env as Record<string, string>), DROIDBUS_HOME: world.home };
    const other = await startMcp(['--toolsets', 'core,device-settings'], { env });
    try {
      const mine = await world.call('set_display_config', { device_serial: serial, font_scale: 1.3 });
      expect(mine.isError, mine.text).toBe(false);
      const theirs = await other.client.callTool({
        name: 'set_display_config',
        arguments: { device_serial: serial, density: 320 },
      });
      expect(theirs.isError).toBe(true);
      expect(textOf(theirs)).toMatch(
        /display configuration is changed by session .* \(font_scale, since .*\); it is given back when that session ends/,
      );
      const undo = await other.client.callTool({
        name: 'restore_display_config',
        arguments: { device_serial: serial },
      });
      expect(undo.isError).toBe(true);
      expect(await onDevice()).toContain('\n1.3\n');
      expect((await world.call('restore_display_config', { device_serial: serial })).isError).toBe(false);

      // The other session changes it, then ends: its process gives the device back as it goes.
      const set = await other.client.callTool({
        name: 'set_display_config',
        arguments: { device_serial: serial, size: '720x1280', density: 320 },
      });
      expect(set.isError).not.toBe(true);
      expect(await onDevice()).toContain('Override size: 720x1280');
    } finally {
      await other.close();
    }
    await eventually(
      async () => ((await onDevice()) === original ? true : undefined),
      20_000,
      'the give-back',
    );
  }, 60_000);

  it('gives back when a host session ends, and after a kill -9 of the host when the next droidbus starts', async () => {
    const original = await onDevice();
    const env = { ...(world.server.env as Record<string, string>), DROIDBUS_HOME: world.home };
    const host = await startHostProcess(['--no-ui'], { env });
    // A session attached to the host that ends gives its changes back; the host runs on.
    const first = await startMcp(['--toolsets', 'core,device-settings'], { env });
    const firstSet = await first.client.callTool({
      name: 'set_display_config',
      arguments: { device_serial: serial, font_scale: 1.3 },
    });
    expect(firstSet.isError).not.toBe(true);
    await first.close();
    await eventually(
      async () => ((await onDevice()) === original ? true : undefined),
      20_000,
      'the session end',
    );
    expect(host.proc.exitCode).toBeNull();

    const attached = await startMcp(['--toolsets', 'core,device-settings'], { env });
    try {
      expect(attached.client.getServerVersion()?.title).toContain('attached');
      const set = await attached.client.callTool({
        name: 'set_display_config',
        arguments: { device_serial: serial, size: '720x1280', density: 320, font_scale: 1.3 },
      });
      expect(set.isError).not.toBe(true);
      await host.stop('SIGKILL');
      await eventually(async () => (isProcessAlive(host.pid) ? undefined : true), 10_000, 'the kill');
      // Nothing gave it back: the device is still small, and the health check says so.
      expect(await onDevice()).toContain('Override size: 720x1280');
      const health = await world.call('run_health_check');
      expect(health.text).toContain(`FAIL display changes: ${serial}: size, density, font_scale (left)`);
    } finally {
      await attached.close().catch(() => undefined);
    }
    const next = await startHostProcess(['--no-ui'], { env });
    try {
      const attachedAgain = await startMcp(['--toolsets', 'core'], { env });
      try {
        // The device actor starts with the device in use and gives it back.
        await attachedAgain.client.callTool({
          name: 'get_device_info',
          arguments: { device_serial: serial },
        });
        await eventually(
          async () => ((await onDevice()) === original ? true : undefined),
          20_000,
          'the restore',
        );
      } finally {
        await attachedAgain.close();
      }
    } finally {
      await next.stop();
    }
  }, 90_000);
});
