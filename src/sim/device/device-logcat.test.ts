import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { writeApk } from '../../util/apk.js';
import { sampleDexMarker, SAMPLE_CRASH_TRACE } from '../sample-app.js';
import type { ShellIo, SimDevice } from '../device-api.js';
import { runOn } from './collect-io.js';
import type { MemFs } from './fs.js';
import { until as poll } from '../../../tests/helpers/until.js';
import { createSimDevice } from '../control/index.js';
import { lastRead } from '../../../tests/helpers/until.js';
import { testIdentity } from '../../../tests/helpers/sim-identity.js';

const identity = testIdentity(7004);

let dev: SimDevice;
function device(logcatRate = 0): SimDevice {
  dev = createSimDevice({ identity, logcatRate, dumpLatencyMs: 5 });
  return dev;
}
afterEach(() => dev?.close());

/** Starts a long-running command and lets the test watch its output as it arrives. */
function start(d: SimDevice, line: string): { output: () => string; stop: () => Promise<number> } {
  let out = '';
  const ctl = new AbortController();
  const io: ShellIo = {
    stdout: (c) => {
      out += typeof c === 'string' ? c : new TextDecoder().decode(c);
      return Promise.resolve();
    },
    stderr: () => Promise.resolve(),
    stdin: (async function* () {})(),
    signal: ctl.signal,
  };
  const done = d.run(line, io);
  return {
    output: () => out,
    stop: () => {
      ctl.abort();
      return done;
    },
  };
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  await poll('the condition', () => (check() ? true : undefined), ms, { everyMs: 5 });
}

/** The device's file system as `adb root` sees it (permission bits no longer apply). */
function asRoot(d: SimDevice): MemFs {
  const fs = d.fs as MemFs;
  fs.superuser = true;
  return fs;
}

describe('logcat', () => {
  it('prints threadtime lines as liblog formats them, with the buffer divider first', async () => {
    const d = device();
    await runOn(d, 'log -p w -t MyTag hello world');
    const out = (await runOn(d, 'logcat -d')).stdout;
    expect(out).toMatch(
      /^--------- beginning of main\n\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} {1,5}\d+ {1,5}\d+ W MyTag   : hello world\n$/,
    );
  });

  it('supports the brief, time, process, tag, raw and long formats and the year modifier', async () => {
    const d = device();
    await runOn(d, 'log -p e -t T hi');
    const v = async (f: string): Promise<string> =>
      (await runOn(d, `logcat -d -v ${f}`)).stdout.split('\n').slice(1).join('\n');
    expect(await v('brief')).toMatch(/^E\/T {7}\( {0,4}\d+\): hi\n$/);
    expect(await v('time')).toMatch(/^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} E\/T {7}\( {0,4}\d+\): hi\n$/);
    expect(await v('process')).toMatch(/^E\( {0,4}\d+\) hi {2}\(T\)\n$/);
    expect(await v('tag')).toBe('E/T       : hi\n');
    expect(await v('raw')).toBe('hi\n');
    expect(await v('long')).toMatch(
      /^\[ \d\d-\d\d \d\d:\d\d:\d\d\.\d{3} {1,5}\d+: {0,4}\d+ E\/T {8}\]\nhi\n\n$/,
    );
    expect(await v('year')).toMatch(/^\d{4}-\d\d-\d\d /);
  });

  it('filters by tag specs, -s, --pid and -e, and counts with -t and -m', async () => {
    const d = device();
    for (const [p, tag, msg] of [
      ['i', 'A', 'one'],
      ['w', 'A', 'two'],
      ['e', 'B', 'three'],
      ['d', 'C', 'four'],
    ] as const) {
      await runOn(d, `log -p ${p} -t ${tag} ${msg}`);
    }
    const msgs = async (args: string): Promise<string[]> =>
      (await runOn(d, `logcat -d -v raw ${args}`)).stdout
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('---------'));
    expect(await msgs('-s A:W')).toEqual(['two']);
    expect(await msgs('A:I *:S')).toEqual(['one', 'two']);
    expect(await msgs('*:E')).toEqual(['three']);
    expect(await msgs('-e t.o')).toEqual(['two']);
    expect(await msgs('-t 2')).toEqual(['three', 'four']);
    expect(await msgs('-m 1')).toEqual(['one']);
    await runOn(d, 'logcat -c');
    expect(await msgs('')).toEqual([]);
  });

  it('streams new lines until the stream closes', async () => {
    const d = device();
    const stream = start(d, 'logcat -v brief -s Live');
    await runOn(d, 'sim log I Live first');
    await until(() => stream.output().includes('first'));
    await runOn(d, 'sim log W Live second');
    await until(() => stream.output().includes('W/Live    ('));
    expect(await stream.stop()).toBe(0);
  });

  it('ends a followed logcat when the pipe reader stops', async () => {
    const d = device(500);
    const r = await runOn(d, 'logcat | head -n 3');
    expect(r.stdout.split('\n').filter((l) => l !== '')).toHaveLength(3);
  });

  it('generates background lines at the configured rate', async () => {
    const d = device(400);
    const count = await lastRead(
      async () => Number((await runOn(d, 'logcat -d -b all | wc -l')).stdout.trim()),
      (n) => n >= 40,
      10_000,
      20,
    );
    expect(count).toBeGreaterThanOrEqual(40);
  });

  it('logs a Java crash with the obfuscated trace and its Caused by chain in the crash buffer', async () => {
    const d = device();
    await runOn(d, 'am start -n com.droidbus.sample/.HomeActivity');
    const pid = (await runOn(d, 'pidof com.droidbus.sample')).stdout.trim();
    await runOn(d, 'sim crash com.droidbus.sample java');
    const lines = (await runOn(d, 'logcat -d -b crash -v raw')).stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      '--------- beginning of crash',
      'FATAL EXCEPTION: main',
      `Process: com.droidbus.sample, PID: ${pid}`,
    ]);
    expect(lines.slice(3, 3 + SAMPLE_CRASH_TRACE.length)).toEqual([...SAMPLE_CRASH_TRACE]);
    expect((await runOn(d, 'logcat -d -b crash')).stdout).toContain(
      ` ${pid} E AndroidRuntime: \tat a.a.b(r8-map-id-`,
    );
  });

  it('logs an ANR block and records it for exit-info', async () => {
    const d = device();
    await runOn(d, 'am start -n com.droidbus.sample/.HomeActivity');
    await runOn(d, 'sim crash com.droidbus.sample anr');
    const out = (await runOn(d, 'logcat -d -b system -s ActivityManager')).stdout;
    expect(out).toMatch(
      /E ActivityManager: ANR in com\.droidbus\.sample \(com\.droidbus\.sample\/\.HomeActivity\)\n.*E ActivityManager: PID: \d+\n.*E ActivityManager: Reason: Input dispatching timed out/,
    );
    expect(out).toContain('E ActivityManager: Load: 2.31 / 1.85 / 1.42');
    expect(out).toMatch(/E ActivityManager: CPU usage from 0ms to 5312ms later/);
    expect((await runOn(d, 'dumpsys activity exit-info')).stdout).toContain('reason=6 (ANR)');
  });

  it('logs a native crash as libc, crash_dump and DEBUG tombstone lines', async () => {
    const d = device();
    await runOn(d, 'sim crash com.droidbus.sample native');
    const all = (await runOn(d, 'logcat -d -b all')).stdout;
    expect(all).toMatch(
      /F libc {4}: Fatal signal 11 \(SIGSEGV\), code 1 \(SEGV_MAPERR\), fault addr 0x0 in tid \d+/,
    );
    expect(all).toContain('F DEBUG   : *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***');
    expect(all).toMatch(
      /F DEBUG {3}: pid: \d+, tid: \d+, name: droidbus\.sample {2}>>> com\.droidbus\.sample <<</,
    );
    expect(all).toMatch(
      /F DEBUG {3}: {7}#00 pc 0000000000001a2c {2}\/data\/app\/~~.*\/lib\/arm64\/libsample-native\.so/,
    );
  });

  it('a debug build crashes with its own frames, a minified one with R8-obfuscated frames', async () => {
    const d = device();
    const build = (marker: string): Uint8Array =>
      writeApk({
        packageName: 'com.droidbus.sample.demo.debug',
        versionCode: 1,
        versionName: '1.0',
        minSdk: 24,
        targetSdk: 35,
        activities: [{ name: 'com.droidbus.sample.LoginActivity', launcher: true, exported: true }],
        dexMarker: marker,
      });
    d.fs.write('/data/local/tmp/debug.apk', build(sampleDexMarker(false, 24)), 0o100644, 0);
    expect((await runOn(d, 'pm install -r -t /data/local/tmp/debug.apk')).stdout).toBe('Success\n');
    await runOn(d, 'sim crash com.droidbus.sample.demo.debug java');
    const debug = (await runOn(d, 'logcat -d -b crash')).stdout;
    expect(debug).toContain('\tat com.droidbus.sample.data.CartRepository.totalFor(CartRepository.kt:25)');
    expect(debug).not.toContain('r8-map-id');
    await runOn(d, 'logcat -c -b crash');
    // The preinstalled release build of the sample app is minified.
    await runOn(d, 'sim crash com.droidbus.sample java');
    const release = (await runOn(d, 'logcat -d -b crash')).stdout;
    expect(release).toContain('at a.a.b(r8-map-id-');
    expect(release).not.toContain('CartRepository');
  });

  it('replays a recorded log in mixed formats as if it happened now', async () => {
    const d = device();
    const recorded = [
      '--------- beginning of crash',
      '05-14 10:21:33.123  4242  4242 E AndroidRuntime: FATAL EXCEPTION: main',
      '05-14 10:21:33.123  4242  4242 E AndroidRuntime: Process: com.example.app, PID: 4242',
      '05-14 10:21:33.123  4242  4242 E AndroidRuntime: java.lang.NullPointerException',
      'I/ActivityManager(  585): Start proc com.example.app',
      '2024-05-14 10:21:34.000  4242-4250  OkHttp                  com.example.app                      D  --> GET https://x',
      '[ 05-14 10:21:35.000  4242: 4243 W/Chatty   ]',
      'first long line',
      '',
    ].join('\r\n');
    d.fs.write('/data/local/tmp/rec.log', new TextEncoder().encode(recorded), 0o100644, 0);
    expect((await runOn(d, 'sim logcat replay /data/local/tmp/rec.log')).stdout).toBe('replayed 6 entries\n');
    const out = (await runOn(d, 'logcat -d -b all -v brief')).stdout;
    expect(out).toContain('E/AndroidRuntime( 4242): FATAL EXCEPTION: main');
    expect(out).toContain('I/ActivityManager(  585): Start proc com.example.app');
    expect(out).toContain('D/OkHttp  ( 4242): --> GET https://x');
    expect(out).toContain('W/Chatty  ( 4242): first long line');
    const year = new Date().getFullYear();
    expect((await runOn(d, 'logcat -d -b crash -v year')).stdout).toContain(`${year}-`);
  });

  it('keeps the spacing of the stamps it replays, so the lines of one call keep one time', async () => {
    const d = device();
    const recorded = [
      '05-14 10:21:33.100   585   601 E ActivityManager: ANR in com.example.app (com.example.app/.Main)',
      '05-14 10:21:33.100   585   601 E ActivityManager: PID: 4242',
      '05-14 10:21:33.100   585   601 E ActivityManager: Reason: Input dispatching timed out',
      '05-14 10:21:35.600  4242  4242 I example : after',
      '',
    ].join('\n');
    d.fs.write('/data/local/tmp/anr.log', new TextEncoder().encode(recorded), 0o100644, 0);
    await runOn(d, 'sim logcat replay /data/local/tmp/anr.log');
    const lines = (await runOn(d, 'logcat -d -b all -v threadtime')).stdout
      .split('\n')
      .filter((l) => /ANR in|PID: 4242|Reason:|after$/.test(l));
    const ms = lines.map((l) => {
      const [, h, m, sec] = /(\d\d):(\d\d):(\d\d\.\d{3})/.exec(l)!;
      return (Number(h) * 3600 + Number(m) * 60 + Number(sec)) * 1000;
    });
    expect(lines).toHaveLength(4);
    expect(new Set(ms.slice(0, 3)).size).toBe(1);
    expect(Math.round(ms[3]! - ms[0]!)).toBe(2500);
  });

  it('gives the lines of one call in an unstamped (brief) log one time', async () => {
    const d = device();
    const recorded = [
      'E/ActivityManager(  585): ANR in com.example.app',
      'E/ActivityManager(  585): PID: 4242',
      'I/example ( 4242): next',
      '',
    ].join('\n');
    d.fs.write('/data/local/tmp/brief.log', new TextEncoder().encode(recorded), 0o100644, 0);
    await runOn(d, 'sim logcat replay /data/local/tmp/brief.log');
    const times = (await runOn(d, 'logcat -d -b all -v epoch')).stdout
      .split('\n')
      .filter((l) => /ANR in|PID: 4242|next$/.test(l))
      .map((l) => l.trim().split(/\s+/)[0]);
    expect(times).toHaveLength(3);
    expect(times[0]).toBe(times[1]);
    expect(times[2]).not.toBe(times[1]);
  });

  it('puts a replayed tombstone in the crash buffer as crash_dump logs it, and in /data/tombstones', async () => {
    const d = device();
    const bytes = readFileSync(
      new URL('../../../tests/fixtures/logcat/tombstone-vortek.txt', import.meta.url),
    );
    d.fs.write('/data/local/tmp/tomb.txt', new Uint8Array(bytes), 0o100644, 0);
    const r = await runOn(d, 'sim logcat replay /data/local/tmp/tomb.txt');
    expect(r.stdout).toBe(
      'replayed 38 entries (a tombstone: the crash buffer and /data/tombstones/tombstone_00)\n',
    );
    const crash = (await runOn(d, 'logcat -d -b crash -v brief')).stdout;
    expect(crash).toMatch(/^F\/DEBUG {3}\(\s*\d+\): \*\*\* \*\*\* \*\*\*/m);
    expect(crash).toContain('F/DEBUG   (');
    expect(crash).toContain('): pid: 17035, tid: 18446, name: Thread-100  >>> app.gamenative <<<');
    expect((await runOn(d, 'logcat -d -b main')).stdout).toContain(
      'tombstoned: Tombstone written to: tombstone_00',
    );
    // The shell user cannot list /data/tombstones on a phone (drwxrwx--x system system); root can.
    expect((await runOn(d, 'ls /data/tombstones')).code).not.toBe(0);
    expect(Buffer.from(asRoot(d).read('/data/tombstones/tombstone_00')).equals(bytes)).toBe(true);
  });

  it('keeps a replayed ART thread dump as an ANR traces file in /data/anr, with no log lines', async () => {
    const d = device();
    const bytes = readFileSync(
      new URL('../../../tests/fixtures/logcat/traces-xcrash-104.txt', import.meta.url),
    );
    d.fs.write('/data/local/tmp/traces.txt', new Uint8Array(bytes), 0o100644, 0);
    const r = await runOn(d, 'sim logcat replay /data/local/tmp/traces.txt');
    const path = /kept as (\/data\/anr\/anr_\d{4}(?:-\d\d){5}-\d{3})\)/.exec(r.stdout)?.[1];
    expect(r.stdout.startsWith('replayed 0 entries (an ART thread dump has no log lines')).toBe(true);
    expect(Buffer.from(asRoot(d).read(path!)).equals(bytes)).toBe(true);
  });

  it('refuses a file with nothing to replay, saying what it looked for and what it found', async () => {
    const d = device();
    d.fs.write('/data/local/tmp/notes.txt', new TextEncoder().encode('shopping list\nmilk\n'), 0o100644, 0);
    const r = await runOn(d, 'sim logcat replay /data/local/tmp/notes.txt');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'sim: /data/local/tmp/notes.txt: nothing to replay: no line is in a logcat format, nor is it a tombstone or an ART thread dump (first line: "shopping list")\n',
    );
  });

  it("keeps a pre-logd capture's /dev/log dividers as dividers, choosing the buffer", async () => {
    const d = device();
    const recorded = [
      '--------- beginning of /dev/log/system',
      'I/ActivityManager(  162): Displayed com.example.app/.Main: +410ms',
      '--------- beginning of /dev/log/main',
      'D/dalvikvm( 1210): GC_CONCURRENT freed 380K, 12% free',
      '',
    ].join('\n');
    d.fs.write('/data/local/tmp/old.log', new TextEncoder().encode(recorded), 0o100644, 0);
    expect((await runOn(d, 'sim logcat replay /data/local/tmp/old.log')).stdout).toBe('replayed 2 entries\n');
    const out = (await runOn(d, 'logcat -d -b main -v brief')).stdout;
    expect(out).toContain('D/dalvikvm( 1210): GC_CONCURRENT freed 380K, 12% free');
    expect(out).not.toContain('/dev/log');
    expect((await runOn(d, 'logcat -d -b system -v brief')).stdout).toContain('I/ActivityManager(  162)');
  });

  it('reports ring buffer sizes with -g as logd sizes them, in bytes', async () => {
    const d = device();
    expect((await runOn(d, 'logcat -g')).stdout).toMatch(
      /^main: ring buffer is 256 KiB \(\d+ (?:Ki)?B consumed, \d+ (?:Ki)?B readable\), max entry is 5120 B, max payload is 4068 B\nsystem: ring buffer is 256 KiB .*\ncrash: ring buffer is 256 KiB /,
    );
    const set = await runOn(d, 'logcat -G 16M -b main');
    expect(set.code).toBe(0);
    expect((await runOn(d, 'logcat -g -b main')).stdout).toMatch(/^main: ring buffer is 16 MiB /);
    expect((await runOn(d, 'logcat -g -b system')).stdout).toMatch(/^system: ring buffer is 256 KiB /);
  });

  it("refuses a -G size outside logd's 64 KiB to 256 MiB", async () => {
    const d = device();
    const small = await runOn(d, 'logcat -G 32K');
    expect(small.code).toBe(1);
    expect(small.stderr).toContain("failed to set the 'main,system,crash' log sizes.");
    const bad = await runOn(d, 'logcat -G lots');
    expect(bad.code).toBe(1);
    expect((await runOn(d, 'logcat -g -b main')).stdout).toMatch(/^main: ring buffer is 256 KiB /);
  });

  it('drops whole oldest chunks once a buffer passes its size, and keeps every line within it', async () => {
    const d = device();
    // 40,000 distinct ~120-byte lines: 5 MB of text, far past a 256 KiB buffer even compressed.
    const lines: string[] = [];
    for (let i = 0; i < 40_000; i++) {
      lines.push(
        `05-14 10:21:33.${String(i % 1000).padStart(3, '0')}  4242  4250 I Replay  : line ${i} ${Math.sin(i).toString(36)} ${(i * 7919).toString(16)}`,
      );
    }
    d.fs.write('/data/local/tmp/big.log', new TextEncoder().encode(lines.join('\n') + '\n'), 0o100644, 0);
    await runOn(d, 'sim logcat replay /data/local/tmp/big.log');
    const kept = (await runOn(d, 'logcat -d -b main -v brief')).stdout
      .split('\n')
      .filter((l) => l.includes(' line '));
    expect(kept.length).toBeGreaterThan(1000);
    expect(kept.length).toBeLessThan(40_000);
    // What is kept is the newest lines, none missing in between.
    const first = Number(/ line (\d+) /.exec(kept[0] ?? '')?.[1]);
    expect(kept.length).toBe(40_000 - first);
    expect(kept[kept.length - 1]).toContain(' line 39999 ');
    // Uncompressed, the kept entries take more than the 256 KiB set (chunks count compressed), but
    // less than the 1.5 × 256 KiB logd allows times a generous compression ratio of 8.
    const bytes = kept.reduce(
      (n, l) => n + 30 + 3 + 'Replay'.length + l.slice(l.indexOf(': ') + 2).length,
      0,
    );
    expect(bytes).toBeGreaterThan(256 * 1024);
    expect(bytes).toBeLessThan(8 * 384 * 1024);
    // A bigger buffer keeps all of it.
    await runOn(d, 'logcat -c');
    await runOn(d, 'logcat -G 16M');
    await runOn(d, 'sim logcat replay /data/local/tmp/big.log');
    const all = (await runOn(d, 'logcat -d -b main -v brief')).stdout
      .split('\n')
      .filter((l) => l.includes(' line '));
    expect(all.length).toBe(40_000);
  });
});
