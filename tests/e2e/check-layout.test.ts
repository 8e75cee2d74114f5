/**
 * check_layout end to end (issue 74): MCP client → built droidbus → real adb server → sim device,
 * whose sample app lays its text out in sp. The home screen's fixed-height "Open item details"
 * button cuts its label at font scale 1.3 on a small phone; nothing is wrong as the device is.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_PACKAGE } from '../../src/sim/index.js';
import { startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';
import { startMcp } from '../helpers/mcp-client.js';

let world: DeviceWorld;
let serial: string;

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 20 }, [
    '--toolsets',
    'core,ui,device-settings',
  ]);
  serial = world.serials[0]!;
}, 120_000);

afterAll(async () => {
  await world?.stop();
});

async function onDevice(): Promise<string> {
  return (
    await world.shell(
      serial,
      `wm size; wm density; settings get system font_scale; cmd uimode night; settings get system user_rotation; cmd locale get-app-locales ${SAMPLE_PACKAGE}`,
    )
  )
    .replace(/\r/g, '')
    .trim();
}

interface Finding {
  n: number;
  kind: string;
  resource_id: string | null;
  bounds: [number, number, number, number] | null;
  detail: string;
}

describe('check_layout', () => {
  it('finds the button that cuts its label on a small phone at font scale 1.3, nothing as the device is, and gives the device back', async () => {
    await world.shell(serial, `am start -W -n ${SAMPLE_PACKAGE}/.HomeActivity`);
    const original = await onDevice();
    const r = await world.call('check_layout', { device_serial: serial });
    expect(r.isError, r.text).toBe(false);
    const configs = r.structured['configs'] as {
      name: string;
      description: string;
      display: { width: number; height: number };
      findings: Finding[];
    }[];
    expect(configs.map((c) => c.name)).toEqual([
      'as is',
      'small phone, large font',
      'largest font',
      'dark',
      'landscape',
      'right to left',
    ]);
    expect(configs[0]!.findings).toEqual([]);
    expect(r.text).toContain('as is (1080x2400 @ 420 dpi, font 1): no problems');
    const small = configs[1]!;
    expect(small.description).toBe('720x1280 @ 320 dpi, font 1.3');
    expect(small.findings).toEqual([
      expect.objectContaining({
        n: 1,
        kind: 'text_cut',
        resource_id: `${SAMPLE_PACKAGE}:id/open_details`,
        detail: 'its text runs into its bottom edge: cut off',
      }),
    ]);
    // Its bounds are the small phone's: inside 720x1280.
    expect(small.findings[0]!.bounds![2]).toBeLessThanOrEqual(720);
    expect(r.text).toMatch(
      /1\. text cut: "Open item details" com\.droidbus\.sample:id\/open_details \[[\d.]+\] — its text runs into its bottom edge/,
    );
    // In the dark theme the label whose colour the layout hard-codes is dark grey on near-black.
    expect(configs[3]!.findings).toEqual([
      expect.objectContaining({ n: 2, kind: 'low_contrast', resource_id: `${SAMPLE_PACKAGE}:id/welcome` }),
    ]);
    expect(configs[3]!.findings[0]!.detail).toMatch(
      /^text #4[0-9a-f]{5} on #1[0-9a-f]{5}: 1\.\d+:1, under WCAG AA's 4\.5:1/,
    );
    expect(configs[4]!.display).toMatchObject({ width: 2400, height: 1080 });
    // In Arabic the app mirrors and translates its screen, but for the one string its translation lacks.
    expect(configs[5]!.description).toBe('1080x2400 @ 420 dpi, font 1, locale ar');
    expect(configs[5]!.findings).toEqual([
      expect.objectContaining({
        n: 3,
        kind: 'untranslated',
        resource_id: `${SAMPLE_PACKAGE}:id/open_details`,
        detail: 'says "Open item details" in ar too: not translated',
      }),
    ]);
    // Mirrored: the button that was on the left is on the right.
    expect(configs[5]!.findings[0]!.bounds![0]).toBeGreaterThan(540);

    // One contact sheet: every configuration side by side, at one height.
    const image = (r.raw.content as { type: string; data?: string; mimeType?: string }[]).find(
      (c) => c.type === 'image',
    )!;
    expect(image.mimeType).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(image.data!, 'base64')).metadata();
    expect(meta.height).toBe(764);
    expect(meta.width).toBeGreaterThan(6 * 300);

    expect(await onDevice()).toBe(original);
    expect(
      (await world.call('get_device_info', { device_serial: serial })).structured['droidbus_changes'],
    ).toBeNull();
  }, 120_000);

  it('needs both the small phone and the larger font, and starts the screen asked for afresh under each', async () => {
    // The device shows the login screen; the check starts the home screen under each configuration.
    await world.shell(serial, `am start -W -n ${SAMPLE_PACKAGE}/.LoginActivity`);
    const r = await world.call('check_layout', {
      device_serial: serial,
      activity: `${SAMPLE_PACKAGE}/.HomeActivity`,
      configs: [
        { name: 'small', size: '720x1280', density: 320 },
        { name: 'font 1.3', font_scale: 1.3 },
        { name: 'both', size: '720x1280', density: 320, font_scale: 1.3 },
      ],
    });
    expect(r.isError, r.text).toBe(false);
    const configs = r.structured['configs'] as { findings: Finding[] }[];
    expect(configs.map((c) => c.findings.map((f) => `${f.kind} ${f.resource_id}`))).toEqual([
      [],
      [],
      [],
      [`text_cut ${SAMPLE_PACKAGE}:id/open_details`],
    ]);
    const bad = await world.call('check_layout', {
      device_serial: serial,
      activity: `${SAMPLE_PACKAGE}/.HomeActivity`,
      deep_link: 'droidbus://home',
    });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('activity or deep_link, not both');
  }, 60_000);

  it("refuses a configuration the device cannot show, or a device another session's changes hold, and changes nothing", async () => {
    const original = await onDevice();
    const bad = await world.call('check_layout', {
      device_serial: serial,
      configs: [{ name: 'tiny', density: 900 }],
    });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('density 900 is outside 120–640 dpi');
    expect(await onDevice()).toBe(original);

    const env = { ...(world.server.env as Record<string, string>), DROIDBUS_HOME: world.home };
    const other = await startMcp(['--toolsets', 'core,device-settings'], { env });
    try {
      const set = await other.client.callTool({
        name: 'set_display_config',
        arguments: { device_serial: serial, font_scale: 1.15 },
      });
      expect(set.isError).not.toBe(true);
      const busy = await world.call('check_layout', { device_serial: serial });
      expect(busy.isError).toBe(true);
      expect(busy.text).toContain('display configuration is changed by session');
      expect(await onDevice()).toContain('\n1.15\n');
    } finally {
      await other.close();
    }
  }, 60_000);
});
