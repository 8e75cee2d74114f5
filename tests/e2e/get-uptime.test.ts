import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';

// get_uptime end to end (the add-a-tool recipe's example, docs/ARCHITECTURE.md): SDK client → built
// `droidbus mcp` → real adb server → `droidbus sim`, checked against the device's own /proc/uptime.

let world: DeviceWorld;

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 1 });
});
afterAll(async () => {
  await world?.stop();
});

describe('get_uptime', () => {
  it("answers the device's uptime and boot time, as /proc/uptime has them", async () => {
    const serial = world.serials[0]!;
    const before = Number((await world.shell(serial, 'cat /proc/uptime')).split(' ')[0]) * 1000;
    const r = await world.call('get_uptime', { device_serial: serial });
    const after = Number((await world.shell(serial, 'cat /proc/uptime')).split(' ')[0]) * 1000;
    expect(r.isError).toBe(false);
    const up = r.structured as { uptime_ms: number; booted_at: string; device_serial: string };
    expect(up.device_serial).toBe(serial);
    expect(up.uptime_ms).toBeGreaterThanOrEqual(Math.floor(before));
    expect(up.uptime_ms).toBeLessThanOrEqual(Math.ceil(after) + 10);
    // The boot time is the host's clock minus the uptime: within the calls' spread of now - uptime.
    expect(Math.abs(Date.now() - Date.parse(up.booted_at) - up.uptime_ms)).toBeLessThan(
      after - before + 5_000,
    );
    expect(r.text).toContain(`booted ${up.booted_at}`);
  });

  it('refuses a device it does not know', async () => {
    const r = await world.call('get_uptime', { device_serial: 'emulator-5998' });
    expect(r.isError).toBe(true);
    expect((r.structured as { error: { code: string } }).error.code).toMatch(/not_found|device_offline/);
  });
});
