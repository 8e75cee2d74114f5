/**
 * Overlapping `uiautomator dump` on one simulated device fails like on a real one, and the sim
 * counts it (`sim stats`), which is how droidbus's one-capture-per-device rule is checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';

let server: AdbServer;
let farm: SimFarm;

beforeAll(async () => {
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 1, dumpLatencyMs: 1500 });
});

afterAll(async () => {
  await farm?.stop();
  await server?.stop();
});

describe('uiautomator dump on a sim device', () => {
  it('two overlapping dumps: one fails with "already registered" and sim stats counts the overlap', async () => {
    const serial = farm.devices[0]!.serial;
    const dump = (): ReturnType<AdbServer['adb']> =>
      server.adb(['-s', serial, 'exec-out', 'uiautomator', 'dump', '/dev/tty']);
    const [a, b] = await Promise.all([dump(), dump()]);
    const outputs = [a.stdout + a.stderr, b.stdout + b.stderr];
    expect(outputs.filter((o) => o.includes('already registered'))).toHaveLength(1);
    expect(outputs.filter((o) => o.includes('<hierarchy'))).toHaveLength(1);

    const stats = await server.adb(['-s', serial, 'shell', 'sim', 'stats']);
    expect(stats.code).toBe(0);
    const parsed = JSON.parse(stats.stdout) as { overlapping_dumps: number; dumps: number };
    expect(parsed.overlapping_dumps).toBe(1);
    expect(parsed.dumps).toBeGreaterThanOrEqual(1);
  });
});
