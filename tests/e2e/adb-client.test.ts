import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdbClient } from '../../src/adb/client.js';
import { sh } from '../../src/adb/shell-command.js';
import { DeviceTracker } from '../../src/adb/tracker.js';
import type { AdbDeviceEntry } from '../../src/adb/device-list.js';
import { startAdbServer } from '../helpers/adb-server.js';
import type { AdbServer } from '../helpers/adb-server.js';
import { startSimFarm } from '../helpers/sim-farm.js';
import type { SimFarm } from '../helpers/sim-farm.js';
import { eventually } from '../helpers/device-world.js';

// src/adb against the real adb server and `droidbus sim` devices.

let server: AdbServer;
let farm: SimFarm;
let client: AdbClient;
let serial: string;

beforeAll(async () => {
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 2 });
  client = new AdbClient({ kind: 'tcp', host: '127.0.0.1', port: server.port, source: 'test' });
  serial = farm.devices[0]!.serial;
});
afterAll(async () => {
  await farm.stop();
  await server.stop();
});

describe('the adb server client', () => {
  it('lists the devices with their models, and their features', async () => {
    const devices = await client.devices();
    expect(devices.map((d) => d.serial).sort()).toEqual(farm.devices.map((d) => d.serial).sort());
    expect(devices.every((d) => d.state === 'device' && d.model !== null && d.transportId !== null)).toBe(
      true,
    );
    expect(await client.features(serial)).toContain('shell_v2');
  });

  it('returns exit codes and keeps stderr apart from stdout', async () => {
    const result = await client.shell(serial, sh`echo out; echo err >&2; exit 3`);
    expect(result).toEqual({ stdout: 'out\n', stderr: 'err\n', exitCode: 3 });
  });

  it('delivers any string to the device shell as exactly one argument, unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 60 }).filter((s) => !s.includes('\0')),
        async (s) => {
          const result = await client.shell(serial, sh`printf %s ${s}`);
          expect(result.stdout).toBe(s);
          expect(result.exitCode).toBe(0);
        },
      ),
      { numRuns: 150 },
    );
    expect((await client.shell(serial, sh`ls /data/local/tmp`)).stdout).not.toMatch(/pwn/);
  });

  it('moves files both ways and 3 MB of binary output byte for byte', async () => {
    const data = randomBytes(3 * 1024 * 1024);
    await client.push(serial, '/data/local/tmp/blob.bin', data, 0o640);
    const viaExec = await client.exec(serial, sh`cat /data/local/tmp/blob.bin`);
    const viaSync = await client.pull(serial, '/data/local/tmp/blob.bin');
    const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    expect(sha(viaExec)).toBe(sha(data));
    expect(sha(viaSync)).toBe(sha(data));
    const stat = await client.stat(serial, '/data/local/tmp/blob.bin');
    expect(Number(stat.size)).toBe(data.length);
  });

  it('reports a device that is not connected as such', async () => {
    await expect(client.shell('127.0.0.1:9', sh`echo hi`)).rejects.toMatchObject({
      kind: 'device_not_found',
    });
  });

  it('stops a streaming command on the device when its signal aborts', async () => {
    const controller = new AbortController();
    let bytes = 0;
    const stream = client.stream(serial, sh`logcat -v threadtime`, controller.signal);
    for await (const chunk of stream) {
      bytes += chunk.length;
      if (bytes > 100) {
        controller.abort();
      }
    }
    expect(bytes).toBeGreaterThan(100);
  });

  it('follows devices coming and going through host:track-devices', async () => {
    const lists: AdbDeviceEntry[][] = [];
    const tracker = new DeviceTracker(client, { onList: (l) => lists.push(l) });
    await tracker.start();
    try {
      const gone = farm.devices[1]!.serial;
      expect(tracker.current().map((d) => d.serial)).toContain(gone);
      await server.adb(['disconnect', gone]);
      await eventually(
        async () => (tracker.current().some((d) => d.serial === gone) ? undefined : true),
        10_000,
        'the device to go',
      );
      await server.adb(['connect', gone]);
      await eventually(
        async () =>
          tracker.current().some((d) => d.serial === gone && d.state === 'device') ? true : undefined,
        10_000,
        'the device to come back',
      );
    } finally {
      tracker.stop();
    }
    expect(lists.length).toBeGreaterThanOrEqual(3);
  });
});
