/**
 * A screen that never goes idle, end to end: the sample app's live screen (a spinning ProgressBar)
 * on a `droidbus sim` device behind the real adb server makes `uiautomator dump` wait its real
 * idle timeout (10 s, AOSP DumpCommand) and print `ERROR: could not get idle state.`; droidbus
 * answers with a tool error naming the cause, does not retry, and remembers it for a while.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';

let world: DeviceWorld;
let serial: string;

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 40, logcatRate: 0 });
  serial = world.serials[0]!;
}, 120_000);
afterAll(async () => world?.stop());

async function dumps(): Promise<number> {
  return (await world.simStats(serial)).dumps;
}

describe('a screen that never goes idle', () => {
  it('is a tool error naming the cause within the idle wait + 2 s, and is remembered until the screen changes', async () => {
    await world.shell(serial, 'am start -W -n com.droidbus.sample/.DetailActivity --es live true');
    const before = await dumps();
    const started = Date.now();
    const first = await world.call('get_ui_hierarchy', { device_serial: serial });
    const took = Date.now() - started;
    expect(first.isError).toBe(true);
    expect(first.text).toContain('never goes idle');
    expect(first.text).toContain('screenshot');
    expect(first.text).toContain('droidbus helper install');
    // One dump, no retries: 10 s of idle wait, then the answer (generous bound for a shared machine).
    expect(await dumps()).toBe(before + 1);
    expect(took).toBeGreaterThanOrEqual(9_500);
    expect(took).toBeLessThan(12_000 + 3_000);

    // Polling tools do not pay the wait again: the next read answers at once, without a dump.
    const again = Date.now();
    const second = await world.call('list_clickable_elements', { device_serial: serial });
    expect(second.isError).toBe(true);
    expect(second.text).toMatch(/never goes idle \(as its last dump found \d+ s ago/);
    expect(Date.now() - again).toBeLessThan(2_000);
    const waited = await world.call('wait_for_element', {
      device_serial: serial,
      text: 'Item 1',
      timeout_ms: 5_000,
    });
    expect(waited.isError).toBe(true);
    expect(await dumps()).toBe(before + 1);

    // A key press may change the screen: the next read dumps again (and reads the idle screen).
    const back = await world.call('send_ui_key', { device_serial: serial, key: 'BACK' });
    expect(back.isError, back.text).toBe(false);
    const after = await world.call('get_ui_hierarchy', { device_serial: serial });
    expect(after.isError, after.text).toBe(false);
    expect(await dumps()).toBeGreaterThan(before + 1);
  }, 60_000);

  it("counts the dump's idle wait against a wait's own timeout", async () => {
    await world.shell(serial, 'sim screen busy on');
    try {
      const started = Date.now();
      const r = await world.call('wait_for_element', {
        device_serial: serial,
        text: 'Nothing',
        timeout_ms: 3_000,
      });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/did not finish within the \d+ s it had/);
      // 3 s of timeout and 1.5 s of grace, not the dump's 10 s.
      expect(Date.now() - started).toBeLessThan(9_000);
    } finally {
      await world.shell(serial, 'sim screen busy off');
    }
  }, 60_000);
});
