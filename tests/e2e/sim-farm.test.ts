/**
 * The `droidbus sim` command as a whole: many devices, stopping, auth modes, usage errors.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADB_BINARY, freePort, run, startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { CLI_PATH, startSimFarm } from '../helpers/sim-farm.js';
import { lastRead } from '../helpers/until.js';

let server: AdbServer;

beforeAll(async () => {
  server = await startAdbServer();
});

afterAll(async () => {
  await server?.stop();
});

/** Resident memory of a process in MB, from /proc (Linux only). */
function rssMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

describe('droidbus sim', () => {
  it('runs 64 devices that adb lists, and SIGTERM leaves none of them listed', async () => {
    const farm = await startSimFarm(server, { devices: 60, emulators: 4, readyTimeoutMs: 120_000 });
    expect(farm.devices).toHaveLength(64);
    expect(new Set(farm.devices.map((d) => d.serial)).size).toBe(64);
    const listed = await server.adb(['devices', '-l']);
    for (const d of farm.devices) {
      expect(listed.stdout).toMatch(new RegExp(`^${d.serial}\\s+device .*model:`, 'm'));
    }
    const rss = rssMb(farm.process.pid!);
    if (rss !== undefined) {
      // The budget for the whole farm at idle (issue 3): under 300 MB.
      expect(rss).toBeLessThan(300);
    }
    expect(await farm.stop()).toBe(0);
    const after = (await server.adb(['devices'])).stdout;
    for (const d of farm.devices) {
      expect(after).not.toContain(d.serial);
    }
  });

  it('with --auth unauthorized the device is listed as unauthorized and refuses commands', async () => {
    const farm = await startSimFarm(server, { devices: 1, auth: 'unauthorized' });
    try {
      const serial = farm.devices[0]!.serial;
      expect((await server.adb(['devices'])).stdout).toMatch(new RegExp(`^${serial}\\tunauthorized$`, 'm'));
      const shell = await server.adb(['-s', serial, 'shell', 'echo', 'hi']);
      expect(shell.code).not.toBe(0);
      expect(shell.stderr).toContain('unauthorized');
    } finally {
      await farm.stop();
    }
  });

  it('with --auth any the device goes through AUTH and comes online', async () => {
    const farm = await startSimFarm(server, { devices: 1, auth: 'any' });
    try {
      const result = await server.adb(['-s', farm.devices[0]!.serial, 'shell', 'echo', 'hi']);
      expect(result).toMatchObject({ code: 0, stdout: 'hi\n' });
    } finally {
      await farm.stop();
    }
  });

  it('starts an adb server with the SDK adb when none answers on the port, and says so on stderr', async () => {
    const port = await freePort();
    const env = { ...server.env, ANDROID_ADB_SERVER_PORT: String(port) };
    const child = spawn(process.execPath, [CLI_PATH, 'sim', '--json', '--devices', '1'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await lastRead(
        () => stdout,
        (out) => out.includes('{"ready":true}') || child.exitCode !== null,
        30_000,
      );
      expect(stdout).toContain('{"ready":true}');
      expect(stderr).toContain(`started one with`);
      const serial = (JSON.parse(stdout.split('\n')[0]!) as { serial: string }).serial;
      const listed = await run(ADB_BINARY, ['-P', String(port), 'devices'], env);
      expect(listed.stdout).toMatch(new RegExp(`^${serial}\\tdevice$`, 'm'));
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await run(ADB_BINARY, ['-P', String(port), 'kill-server'], env);
    }
  });

  it('an unknown flag is a usage error with exit code 2', async () => {
    const result = await run(process.execPath, [CLI_PATH, 'sim', '--devcies', '2'], server.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--devcies');
  });
});
