/**
 * Simulated emulators: `emulator-N` serials announced to a private adb server, and the console on
 * port N that `adb emu` talks to (with the auth token from the private HOME, as real adb does).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';
import { lastRead } from '../helpers/until.js';

let server: AdbServer;
let farm: SimFarm;

beforeAll(async () => {
  server = await startAdbServer();
  farm = await startSimFarm(server, { emulators: 2 });
});

afterAll(async () => {
  await farm?.stop();
  await server?.stop();
});

async function listed(): Promise<string> {
  return (await server.adb(['devices'])).stdout;
}

describe('droidbus sim emulators', () => {
  it('are listed as emulator-N with the console on N and adb on N+1', async () => {
    expect(farm.devices).toHaveLength(2);
    for (const d of farm.devices) {
      expect(d.serial).toBe(`emulator-${d.console_port}`);
      expect(d.port).toBe(d.console_port! + 1);
      expect(await listed()).toMatch(new RegExp(`^${d.serial}\\tdevice$`, 'm'));
    }
  });

  it('run shell commands like any device', async () => {
    const result = await server.adb(['-s', farm.devices[0]!.serial, 'shell', 'echo', 'from-emulator']);
    expect(result).toMatchObject({ code: 0, stdout: 'from-emulator\n' });
  });

  it('adb emu avd name prints the AVD name', async () => {
    const result = await server.adb(['-s', farm.devices[0]!.serial, 'emu', 'avd', 'name']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Pixel_8_API_34\r\nOK\r\n');
  });

  it('adb emu geo fix is accepted and a bad location is refused', async () => {
    const ok = await server.adb(['-s', farm.devices[0]!.serial, 'emu', 'geo', 'fix', '-122.084', '37.422']);
    expect(ok.stdout).toBe('OK\r\n');
    const bad = await server.adb(['-s', farm.devices[0]!.serial, 'emu', 'geo', 'fix', 'north', 'pole']);
    expect(bad.stdout).toMatch(/^KO: /);
  });

  it('an unknown console command answers KO', async () => {
    const result = await server.adb(['-s', farm.devices[0]!.serial, 'emu', 'frobnicate']);
    expect(result.stdout).toMatch(/^KO: unknown command/);
  });

  it('adb emu kill makes the emulator disappear and leaves the others', async () => {
    const [victim, survivor] = farm.devices;
    const result = await server.adb(['-s', victim!.serial, 'emu', 'kill']);
    expect(result.code).toBe(0);
    const now = await lastRead(listed, (l) => !l.includes(victim!.serial), 10_000);
    expect(now).not.toContain(victim!.serial);
    expect(now).toMatch(new RegExp(`^${survivor!.serial}\\tdevice$`, 'm'));
  });
});
