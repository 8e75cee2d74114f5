import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeviceWorld } from '../helpers/device-world.js';
import type { DeviceWorld } from '../helpers/device-world.js';
import { invalidArgument } from '../helpers/tool-errors.js';

// wait_for_log: the first matching line after the call began, through the real adb server.

let world: DeviceWorld;
let serial: string;

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 1 }, ['--toolsets', 'core,ui,inspect,device-extras']);
  serial = world.serials[0]!;
});
afterAll(async () => world.stop());

describe('wait_for_log', () => {
  it('returns a line the device logs two seconds later, starting the stream itself', async () => {
    await world.shell(serial, 'log -p i -t DroidbusWait "already there before the call"');
    const logged = new Promise<void>((resolve, reject) => {
      setTimeout(() => {
        world.shell(serial, 'log -p i -t DroidbusWait "ready: 42 items"').then(() => resolve(), reject);
      }, 2_000);
    });
    const progress: number[] = [];
    const r = await world.mcp.client.callTool(
      { name: 'wait_for_log', arguments: { query: 'tag:DroidbusWait message:ready', timeout_ms: 20_000 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    await logged;
    expect(r.isError).toBeFalsy();
    const entry = (r.structuredContent as { entry: { tag: string; message: string; device: string } }).entry;
    expect(entry).toMatchObject({ tag: 'DroidbusWait', message: 'ready: 42 items', device: serial });
    expect((r.structuredContent as { elapsed_ms: number }).elapsed_ms).toBeGreaterThanOrEqual(1_500);
    expect(progress.length).toBeGreaterThan(0);
  });

  it('ignores a matching line logged before the call began', async () => {
    await world.shell(serial, 'log -p i -t DroidbusOld "old news"');
    const r = await world.mcp.client.callTool({
      name: 'wait_for_log',
      arguments: { query: 'tag:DroidbusOld', timeout_ms: 1_000 },
    });
    expect(r.isError).toBe(true);
    expect((r.content as { text: string }[])[0]!.text).toContain('No line matching');
  });

  it('stops waiting when the client cancels', async () => {
    const controller = new AbortController();
    const pending = world.mcp.client.callTool(
      { name: 'wait_for_log', arguments: { query: 'tag:NeverLogged', timeout_ms: 60_000 } },
      undefined,
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    await expect(pending).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000);
    const next = await world.call('get_logcat_stats');
    expect(next.isError).toBe(false);
  });

  it('refuses a query that does not parse with invalid_params', async () => {
    const text = await invalidArgument(
      world.mcp.client.callTool({
        name: 'wait_for_log',
        arguments: { query: 'tag~:(unclosed', timeout_ms: 1_000 },
      }),
    );
    expect(text).toContain("invalid regular expression '(unclosed' in tag~");
  });
});
