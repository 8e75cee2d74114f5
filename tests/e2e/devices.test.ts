import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp } from '../helpers/mcp-client.js';
import { startSimFarm } from '../helpers/sim-farm.js';
import { eventually, startDeviceWorld } from '../helpers/device-world.js';
import type { DeviceWorld } from '../helpers/device-world.js';

// list_devices and get_device_info, and device actors following devices, through the real adb server.

let world: DeviceWorld;

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 8, emulators: 1, dumpLatencyMs: 400 });
});
afterAll(async () => world.stop());

interface Entry {
  serial: string;
  state: string;
  connection: string;
  model: string | null;
  hint: string | null;
}

describe('devices', () => {
  it('lists every device with its model and how it is connected', async () => {
    const r = await world.call('list_devices');
    const devices = r.structured['devices'] as Entry[];
    expect(devices).toHaveLength(9);
    expect(r.structured['online']).toBe(9);
    const emulator = devices.find((d) => d.serial.startsWith('emulator-'));
    expect(emulator?.connection).toBe('emulator');
    const tcp = devices.find((d) => d.serial.startsWith('127.0.0.1:'));
    expect(tcp?.connection).toBe('tcp');
    expect(devices.every((d) => d.model !== null && d.hint === null)).toBe(true);
    expect(r.text).toMatch(/^9 of 9 devices online/);
  });

  it('lists an unauthorized device with its state and what the user must do', async () => {
    const locked = await startSimFarm(world.server, { devices: 1, auth: 'unauthorized' });
    try {
      const entry = await eventually(async () => {
        const r = await world.call('list_devices');
        // adb shows the device `offline` for a moment while it authenticates.
        return (r.structured['devices'] as Entry[]).find(
          (d) => d.serial === locked.devices[0]!.serial && d.state !== 'offline',
        );
      });
      expect(entry.state).toBe('unauthorized');
      expect(entry.hint).toContain('Allow USB debugging');
      const refused = await world.call('get_device_info', { device_serial: entry.serial });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('unauthorized');
    } finally {
      await locked.stop();
    }
  });

  it("reads a device's facts in one call", async () => {
    const serial = world.serials[0]!;
    await world.shell(serial, 'am start -W -n com.droidbus.sample/.LoginActivity');
    const r = await world.call('get_device_info', { device_serial: serial });
    expect(r.isError).toBe(false);
    const props = (name: string) => world.shell(serial, `getprop ${name}`).then((s) => s.trim());
    expect(r.structured).toMatchObject({
      serial,
      model: await props('ro.product.model'),
      android_version: await props('ro.build.version.release'),
      sdk: Number(await props('ro.build.version.sdk')),
      shell_v2: true,
      foreground: { package: 'com.droidbus.sample', activity: 'com.droidbus.sample.LoginActivity' },
    });
    expect((r.structured['screen'] as { width: number }).width).toBeGreaterThan(0);
  });

  it('captures eight devices at once in about the time of one', async () => {
    const t1 = performance.now();
    await world.call('get_ui_hierarchy', { device_serial: world.serials[0]! });
    const one = performance.now() - t1;
    const t8 = performance.now();
    const all = await Promise.all(
      world.serials.slice(0, 8).map((s) => world.call('get_ui_hierarchy', { device_serial: s })),
    );
    const eight = performance.now() - t8;
    expect(all.every((r) => !r.isError)).toBe(true);
    // A generous bound: the figure itself is measured by bench/ui.ts.
    expect(eight).toBeLessThan(one * 3 + 1_000);
  });

  it('stops serving a device that goes away and serves it again when it comes back', async () => {
    const serial = world.serials[7]!;
    expect((await world.call('get_device_info', { device_serial: serial })).isError).toBe(false);
    await world.server.adb(['disconnect', serial]);
    const gone = await eventually(async () => {
      const r = await world.call('get_device_info', { device_serial: serial });
      return r.isError ? r : undefined;
    });
    expect(gone.text).toMatch(/not connected|no longer connected/);
    await world.server.adb(['connect', serial]);
    const back = await eventually(async () => {
      const r = await world.call('get_device_info', { device_serial: serial });
      return r.isError ? undefined : r;
    });
    expect(back.structured['serial']).toBe(serial);
  });

  it('uses the only online device when device_serial is left out', async () => {
    const solo = await startDeviceWorld({ devices: 1 });
    try {
      const r = await solo.call('get_device_info');
      expect(r.structured['serial']).toBe(solo.serials[0]);
    } finally {
      await solo.stop();
    }
  });

  it('starts an adb server when none runs, and says so on stderr', async () => {
    const { freePort, run, ADB_BINARY } = await import('../helpers/adb-server.js');
    const port = await freePort();
    const mcp = await startMcp([], {
      env: {
        ...(world.server.env as Record<string, string>),
        ANDROID_ADB_SERVER_PORT: String(port),
        DROIDBUS_HOME: world.home,
      },
    });
    try {
      const r = await mcp.client.callTool({ name: 'list_devices', arguments: {} });
      expect(
        (r.structuredContent as { adb_server: { up: boolean; address: string } }).adb_server,
      ).toMatchObject({ up: true, address: `127.0.0.1:${port}` });
      expect(mcp.stderr()).toContain('droidbus started one');
    } finally {
      await mcp.close();
      await run(ADB_BINARY, ['-P', String(port), 'kill-server'], world.server.env);
    }
  });
});
