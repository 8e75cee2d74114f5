/**
 * Simulated TCP devices through the real adb client and a private adb server: what a person or
 * droidbus sees when it talks to `droidbus sim` devices.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, utimes, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeApk } from '../../src/util/apk.js';
import { ADB_BINARY, startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';
import { lastRead } from '../helpers/until.js';

let server: AdbServer;
let farm: SimFarm;
let work: string;
let serial: string;

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'droidbus-sim-adb-'));
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 2, commandLog: join(work, 'commands.jsonl') });
  serial = farm.devices[0]!.serial;
});

afterAll(async () => {
  await farm?.stop();
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

/** The entries `adb ls DIR` prints (sync LIST): name → { mode, size, mtime }. */
async function syncList(dir: string): Promise<Map<string, { mode: number; size: number; mtime: number }>> {
  const listed = await server.adb(['-s', serial, 'ls', dir]);
  expect(listed.code).toBe(0);
  const entries = new Map<string, { mode: number; size: number; mtime: number }>();
  for (const line of listed.stdout.split('\n')) {
    const m = /^([0-9a-f]{8}) ([0-9a-f]{8}) ([0-9a-f]{8}) (.+)$/.exec(line);
    if (m) {
      entries.set(m[4]!, {
        mode: parseInt(m[1]!, 16),
        size: parseInt(m[2]!, 16),
        mtime: parseInt(m[3]!, 16),
      });
    }
  }
  return entries;
}

describe('droidbus sim devices through the real adb', () => {
  it('adb devices -l lists every device with its product, model and device name', async () => {
    const listed = await server.adb(['devices', '-l']);
    for (const d of farm.devices) {
      const line = listed.stdout.split('\n').find((l) => l.startsWith(d.serial));
      expect(line).toMatch(/\sdevice\s/);
      expect(line).toContain(`model:${d.model.replace(/[^A-Za-z0-9_]/g, '_')}`);
    }
    expect(listed.stdout).toContain('product:shiba model:Pixel_8 device:shiba');
  });

  it('adb shell echo prints the text and exits 0', async () => {
    const result = await server.adb(['-s', serial, 'shell', 'echo', 'hi']);
    expect(result).toMatchObject({ code: 0, stdout: 'hi\n' });
  });

  it('adb shell exit 3 makes adb exit with 3', async () => {
    const result = await server.adb(['-s', serial, 'shell', 'exit 3']);
    expect(result.code).toBe(3);
  });

  it('a device command writes stdout to adb stdout and stderr to adb stderr', async () => {
    const result = await server.adb(['-s', serial, 'shell', 'echo out; echo err >&2']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('out\n');
    expect(result.stderr).toBe('err\n');
  });

  it('an unknown command is "not found" with exit code 127', async () => {
    const result = await server.adb(['-s', serial, 'shell', 'frobnicate']);
    expect(result.code).toBe(127);
    expect(result.stderr).toMatch(/frobnicate: (inaccessible or )?not found/);
  });

  it('a pushed 3 MB random file comes back byte-exact through exec-out', async () => {
    const data = randomBytes(3 * 1024 * 1024);
    const local = join(work, 'random.bin');
    await writeFile(local, data);
    const pushed = await server.adb(['-s', serial, 'push', local, '/data/local/tmp/random.bin']);
    expect(pushed.code).toBe(0);
    const out = await server.adb(['-s', serial, 'exec-out', 'cat', '/data/local/tmp/random.bin']);
    expect(out.code).toBe(0);
    expect(out.stdoutBytes.length).toBe(data.length);
    expect(sha256(out.stdoutBytes)).toBe(sha256(data));
  });

  it('push then pull -a round-trips the bytes and the mtime, and the device applies adbd’s mode rule', async () => {
    const data = randomBytes(200_000);
    const local = join(work, 'roundtrip.txt');
    await writeFile(local, data);
    await chmod(local, 0o640);
    const mtime = new Date('2021-03-04T05:06:07Z');
    await utimes(local, mtime, mtime);
    expect((await server.adb(['-s', serial, 'push', local, '/data/local/tmp/roundtrip.txt'])).code).toBe(0);

    const entry = (await syncList('/data/local/tmp')).get('roundtrip.txt');
    // adbd copies the owner's permission bits to group and other: 0640 becomes 0666.
    expect(entry).toEqual({ mode: 0o100666, size: data.length, mtime: mtime.getTime() / 1000 });

    const back = join(work, 'roundtrip.back');
    expect((await server.adb(['-s', serial, 'pull', '-a', '/data/local/tmp/roundtrip.txt', back])).code).toBe(
      0,
    );
    expect(sha256(await readFile(back))).toBe(sha256(data));
    expect((await stat(back)).mtime.getTime()).toBe(mtime.getTime());
  });

  it('pulling a missing file fails with the errno text', async () => {
    const result = await server.adb(['-s', serial, 'pull', '/data/local/tmp/nope.bin', join(work, 'nope')]);
    expect(result.code).not.toBe(0);
    // adb 1.0.41 prints sync errors on stdout when it is not a terminal.
    expect(result.stdout + result.stderr).toContain("'/data/local/tmp/nope.bin': No such file or directory");
  });

  it('an unquoted ; runs the command after it and a quoted one does not', async () => {
    await server.adb(['-s', serial, 'shell', 'echo a; touch /data/local/tmp/injected']);
    await server.adb(['-s', serial, 'shell', "echo 'a; touch /data/local/tmp/quoted'"]);
    const names = await syncList('/data/local/tmp');
    expect(names.has('injected')).toBe(true);
    expect(names.has('quoted')).toBe(false);
  });

  it('adb install streams an APK to the device’s package manager', async () => {
    const apk = join(work, 'e2e-install.apk');
    await writeFile(
      apk,
      writeApk({
        packageName: 'com.example.e2einstall',
        versionCode: 7,
        versionName: '7.0',
        minSdk: 24,
        targetSdk: 34,
        activities: [{ name: '.MainActivity', launcher: true, exported: true }],
      }),
    );
    const installed = await server.adb(['-s', serial, 'install', apk]);
    expect(installed.stdout).toContain('Success');
    expect(installed.code).toBe(0);
    const packages = await server.adb(['-s', serial, 'shell', 'pm list packages']);
    expect(packages.stdout).toContain('package:com.example.e2einstall');
  });

  it('closing a streaming command on the client stops it on the device', async () => {
    const child = spawn(ADB_BINARY, ['-P', String(server.port), '-s', serial, 'shell', 'logcat -v brief'], {
      env: server.env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    // Wait until the device streams, then hang up.
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.kill('SIGTERM');
    // The device records a command when it has finished: only a stopped logcat shows up.
    const log = await lastRead(
      () => readFile(join(work, 'commands.jsonl'), 'utf8'),
      (text) => text.includes('"cmd":"logcat -v brief"'),
      10_000,
    );
    expect(log).toContain('"cmd":"logcat -v brief"');
  });

  it('a service the device does not have is refused', async () => {
    const result = await server.adb(['-s', serial, 'reboot']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('closed');
  });

  it('the command log has a JSON line per device command with its exit code and timing', async () => {
    await server.adb(['-s', serial, 'shell', 'exit 5']);
    const path = join(work, 'commands.jsonl');
    type Line = { t0: number; t1: number; dev: string; kind: string; cmd: string; code: number; out: number };
    const lines = await lastRead(
      async () =>
        (await readFile(path, 'utf8'))
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Line),
      (read) => read.some((l) => l.cmd === 'exit 5'),
      5_000,
    );
    const exit5 = lines.find((l) => l.cmd === 'exit 5');
    expect(exit5).toMatchObject({ dev: serial, kind: 'shell', code: 5, out: 0 });
    expect(exit5!.t1).toBeGreaterThanOrEqual(exit5!.t0);
    expect(exit5!.t0).toBeGreaterThan(Date.parse('2020-01-01'));
    expect(lines.find((l) => l.cmd === 'echo hi')).toMatchObject({ kind: 'shell', code: 0, out: 3 });
    expect(lines.some((l) => l.kind === 'exec' && l.cmd.startsWith('cat '))).toBe(true);
    expect(
      lines.some((l) => l.kind === 'sync' && l.cmd.startsWith('SEND /data/local/tmp/roundtrip.txt,')),
    ).toBe(true);
    expect(lines.some((l) => l.kind === 'open' && l.cmd.startsWith('reboot:') && l.code === -1)).toBe(true);
  });
});
