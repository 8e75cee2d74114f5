/**
 * The simulator's logd, grounded: `sim logcat replay` reads every format droidbus's logcat parser
 * reads and gives every line back through the real `adb logcat -d`; buffers are sized in bytes
 * (`logcat -G` honoured); a crash buffer replayed whole reaches get_crash_logs crash by crash.
 * Every log here is real captured text (tests/fixtures/logcat/SOURCES.md) or built from its lines.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';
import { tempDir } from '../helpers/paths.js';
import { lastRead } from '../helpers/until.js';

const FIXTURES = new URL('../fixtures/logcat/', import.meta.url);
const fixture = (name: string): Buffer => readFileSync(new URL(name, FIXTURES));

let world: DeviceWorld;
let serial: string;
let tmp: ReturnType<typeof tempDir>;

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 1, logcatRate: 0, dumpLatencyMs: 10 });
  serial = world.serials[0]!;
  tmp = tempDir('droidbus-replay-');
}, 120_000);

afterAll(async () => {
  await world?.stop();
  tmp?.remove();
});

async function adb(...args: string[]): Promise<string> {
  const r = await world.server.adb(['-s', serial, ...args], { timeoutMs: 60_000 });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

/** Pushes bytes to the device and replays them; the number of entries the sim read. */
async function replay(bytes: Buffer, name: string): Promise<number> {
  const file = path.join(tmp.dir, name);
  writeFileSync(file, bytes);
  await adb('push', file, `/data/local/tmp/${name}`);
  const out = await adb('shell', `sim logcat replay /data/local/tmp/${name}`);
  return Number(/replayed (\d+) entries/.exec(out)?.[1]);
}

/** The log lines `adb logcat -d` prints (dividers left out). */
async function dumped(...extra: string[]): Promise<string[]> {
  return (await adb('logcat', '-d', '-b', 'all', '-v', 'threadtime', ...extra))
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('--------- '));
}

describe('sim logcat replay', () => {
  // Entries per file, counted by hand from each capture: its log lines and continuation lines,
  // without dividers, vendor banners before the first entry, long-format headers, Android
  // Studio's PROCESS STARTED notes and the orphan lines a Studio copy starts with.
  const FORMATS: [file: string, format: string, entries: number][] = [
    ['threadtime-api25.txt', 'threadtime', 80],
    ['threadtime-uid-signal.txt', 'threadtime -v uid', 9],
    ['threadtime-dividers.txt', 'threadtime with dividers', 11],
    ['time-ddms-firebase.txt', 'time (DDMS export)', 62],
    ['time-telecom.txt', 'time, padded pids', 4],
    ['brief-galaxy-nexus.txt', 'brief, CRLF', 9],
    ['brief-signal-4402.txt', 'brief, padded tags', 22],
    ['long-emulator-api31.txt', 'long', 110],
    ['long-compact-adreno.txt', 'long without inner spaces', 2],
    ['studio-old-cupcake.txt', 'Android Studio, no year, ? package', 29],
    ['studio-old-exoplayer-crash.txt', 'Android Studio 1.x with ﹕, continuation lines', 16],
    ['studio-new-ohmybread.txt', 'Android Studio columns with the package', 34],
    ['tag-droidify-anr.txt', 'tag-only prefix (L Tag: msg)', 18],
    ['huawei-banner.txt', 'threadtime after a vendor banner, CRLF', 4],
  ];

  it.each(FORMATS)(
    'gives every entry of %s (%s) back through adb logcat -d',
    async (file, _format, entries) => {
      await adb('logcat', '-c');
      expect(await replay(fixture(file), file)).toBe(entries);
      expect(await dumped()).toHaveLength(entries);
    },
  );

  it('reads UTF-16 (as PowerShell writes a redirected log) and a UTF-8 BOM', async () => {
    const text = fixture('threadtime-api25.txt').toString('utf8');
    await adb('logcat', '-c');
    expect(
      await replay(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 'u16.txt'),
    ).toBe(80);
    const lines = await dumped();
    expect(lines).toHaveLength(80);
    expect(lines.join('\n')).not.toContain('\u0000');
    await adb('logcat', '-c');
    expect(await replay(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), 'bom.txt')).toBe(
      80,
    );
  });

  it("keeps Android Studio's package column: the process shows in ps under its pid", async () => {
    await adb('logcat', '-c');
    await replay(fixture('studio-new-ohmybread.txt'), 'studio.txt');
    // studio-new-ohmybread: br.com.ohmybread runs as pid 2155 ("PROCESS STARTED (2155)").
    expect(await adb('shell', 'ps -A')).toMatch(/\b2155\b.*br\.com\.ohmybread/);
  });
});

describe('logd buffers in bytes', () => {
  /**
   * A 1.6 MB threadtime log built from the real lines of the captures, each made unique; with
   * `noise`, each line also carries 24 random bytes in hex, which no compressor can shrink.
   */
  function bigLog(noise: boolean): { text: string; lines: number } {
    const real = [
      'threadtime-api25.txt',
      'threadtime-dividers.txt',
      'threadtime-kivy-crash.txt',
      'huawei-banner.txt',
    ]
      .flatMap((f) => fixture(f).toString('utf8').split(/\r?\n/))
      .filter((l) => /^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} +\d+ +\d+ [VDIWEF] /.test(l))
      // Main-buffer lines only: each buffer is pruned on its own, so a mix would keep gaps.
      .filter((l) => !/ (?:AndroidRuntime|ActivityManager|ActivityTaskManager|DEBUG) *: /.test(l));
    const out: string[] = [];
    let bytes = 0;
    for (let i = 0; bytes < 1.6 * 1024 * 1024; i++) {
      const line = `${real[i % real.length]!}${noise ? ` ${randomBytes(24).toString('hex')}` : ''} #${i}`;
      out.push(line);
      bytes += line.length + 1;
    }
    return { text: out.join('\n') + '\n', lines: out.length };
  }

  it('a 1.6 MB log arrives whole after logcat -G 16M', async () => {
    const log = bigLog(false);
    await adb('logcat', '-c');
    await adb('logcat', '-G', '16M');
    expect(await adb('logcat', '-g', '-b', 'main')).toMatch(/^main: ring buffer is 16 MiB/);
    expect(await replay(Buffer.from(log.text), 'big.txt')).toBe(log.lines);
    expect(await dumped()).toHaveLength(log.lines);
  });

  it('a 256 KiB logd keeps more log than 256 KiB, as real ones report ("256 KiB (3 MiB consumed)")', async () => {
    const log = bigLog(false);
    await adb('logcat', '-c');
    await adb('logcat', '-G', '256K');
    await replay(Buffer.from(log.text), 'big.txt');
    const kept = await dumped();
    expect(kept.length).toBeGreaterThan(0);
    // The buffer counts its chunks compressed: at most 1.5 × 256 KiB of them, more readable text.
    const sizes = await adb('logcat', '-g', '-b', 'main');
    const m = /\((\d+) (Ki)?B consumed, (\d+) (Ki|Mi)?B readable\)/.exec(sizes);
    expect(m, sizes).not.toBeNull();
    expect(Number(m![1]) * (m![2] ? 1024 : 1)).toBeLessThanOrEqual(384 * 1024);
    expect(Number(m![3]) * (m![4] === 'Mi' ? 1024 * 1024 : m![4] === 'Ki' ? 1024 : 1)).toBeGreaterThan(
      256 * 1024,
    );
    const numbers = kept.map((l) => Number(/ #(\d+)$/.exec(l)?.[1]));
    expect(numbers[numbers.length - 1]).toBe(log.lines - 1);
    expect(numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1)).toBe(true);
  });

  it('a 256 KiB logd drops the oldest lines of a log that does not compress, and keeps the newest whole', async () => {
    const log = bigLog(true);
    await adb('logcat', '-c');
    await adb('logcat', '-G', '256K');
    await replay(Buffer.from(log.text), 'noise.txt');
    const kept = await dumped();
    expect(kept.length).toBeLessThan(log.lines);
    // The newest lines, none missing: the last one is the file's last, and the numbers run on.
    const numbers = kept.map((l) => Number(/ #(\d+)$/.exec(l)?.[1]));
    expect(numbers[numbers.length - 1]).toBe(log.lines - 1);
    expect(numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1)).toBe(true);
    // Text kept: more than 256 KiB (1.5 × the size, chunks compressed a little), under 1 MiB.
    const bytes = kept.reduce((n, l) => n + l.length, 0);
    expect(bytes).toBeGreaterThan(256 * 1024);
    expect(bytes).toBeLessThan(1024 * 1024);
  });
});

describe('a crash buffer replayed whole', () => {
  /** The real Java crashes of three captures, each repeated 12 times by new processes. */
  function crashBuffer(): string {
    const kivy = fixture('threadtime-kivy-crash.txt')
      .toString('utf8')
      .split('\n')
      .filter((l) => l.includes('AndroidRuntime'));
    const signal = fixture('brief-signal-3276-crash.txt').toString('utf8').split('\n').slice(0, -1); // the capture's last line is cut mid-frame
    const exo = fixture('studio-old-exoplayer-crash.txt').toString('utf8').split('\n');
    const out = ['--------- beginning of crash'];
    for (let k = 0; k < 12; k++) {
      out.push(...kivy.map((l) => l.replaceAll('3427', String(13427 + k))));
      out.push(...signal.map((l) => l.replaceAll('30012', String(20012 + k))));
      out.push(...exo.map((l) => l.replace('6953-6953', `${6953 + k}-${6953 + k}`)));
    }
    return out.join('\n') + '\n';
  }

  it('gives get_crash_logs every one of 36 crashes, the repeats of each process in one group', async () => {
    await adb('logcat', '-c');
    await replay(Buffer.from(crashBuffer()), 'crashes.txt');
    // The stream reads the device's whole buffer first: the replayed crashes.
    await world.call('start_logcat', { device_serial: serial, from_now: false });
    const r = await lastRead(
      () => world.call('get_crash_logs', { device_serial: serial, count: 200 }),
      (v) => (v.structured['total'] as number) >= 36,
      30_000,
      200,
    );
    expect(r.structured['total']).toBe(36);
    // One answer holds what fits 40,000 characters; before_seq pages back through the rest.
    type Crash = { group_id: string; pid: number; seq: number; exception: string | null };
    const crashes: Crash[] = [];
    const groupsById = new Map<string, { id: string; count: number; title: string }>();
    for (let page = r; ;) {
      const got = page.structured['crashes'] as Crash[];
      crashes.push(...got);
      for (const g of page.structured['groups'] as { id: string; count: number; title: string }[]) {
        groupsById.set(g.id, g);
      }
      if (got.length === 0 || crashes.length >= 36) {
        break;
      }
      expect(page.text.length).toBeLessThanOrEqual(40_000);
      page = await world.call('get_crash_logs', {
        device_serial: serial,
        count: 200,
        before_seq: got.at(-1)!.seq,
      });
    }
    expect(crashes).toHaveLength(36);
    expect(new Set(crashes.map((c) => c.seq)).size).toBe(36);
    const groups = [...groupsById.values()];
    expect(groups).toHaveLength(3);
    expect(groups.map((g) => g.count)).toEqual([12, 12, 12]);
    expect(new Set(crashes.map((c) => c.pid)).size).toBe(36);
    expect(groups.map((g) => g.title).join('\n')).toMatch(/IllegalStateException/);
    expect(groups.map((g) => g.title).join('\n')).toMatch(/RuntimeException/);
    expect(groups.map((g) => g.title).join('\n')).toMatch(/NoSuchMethodError/);
  });

  it("keeps a replayed ANR's lines together, so get_crash_logs reads its package, pid and reason", async () => {
    await adb('logcat', '-c');
    await world.call('start_logcat', { device_serial: serial, from_now: false });
    expect(await replay(fixture('studio-new-deltachat-anr.txt'), 'anr.txt')).toBeGreaterThan(0);
    const r = await lastRead(
      () => world.call('get_crash_logs', { device_serial: serial, package: 'chat.delta' }),
      (v) => (v.structured['total'] as number) >= 1,
      30_000,
      200,
    );
    const [anr] = r.structured['crashes'] as { kind: string; pid: number; summary: string }[];
    expect(anr).toMatchObject({ kind: 'anr', pid: 25062 });
    expect(anr!.summary).toContain('Input dispatching timed out');
  });

  it('gives get_crash_logs a replayed tombstone as the native crash it records', async () => {
    await adb('logcat', '-c');
    await world.call('start_logcat', { device_serial: serial, from_now: false });
    await replay(fixture('tombstone-vortek.txt'), 'tombstone.txt');
    const r = await lastRead(
      () => world.call('get_crash_logs', { device_serial: serial, package: 'app.gamenative' }),
      (v) => (v.structured['total'] as number) >= 1,
      30_000,
      200,
    );
    const [crash] = r.structured['crashes'] as {
      kind: string;
      pid: number;
      signal: string | null;
      abort_message: string | null;
    }[];
    expect(crash).toMatchObject({ kind: 'native', pid: 17035 });
    expect(crash!.signal).toContain('SIGABRT');
    expect(crash!.abort_message).toContain('Scudo ERROR: corrupted chunk header');
  });
});
