import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LogcatParser, parseLogcat } from './logcat-parse.js';
import type { LogEntry, LogLevel } from './logcat-types.js';
import { fixture, fixtureBytes } from './test-fixtures.js';

function levels(entries: LogEntry[], headersOnly = false): Partial<Record<LogLevel, number>> {
  const out: Partial<Record<LogLevel, number>> = {};
  for (const e of entries) {
    if (!headersOnly || !e.cont) {
      out[e.level] = (out[e.level] ?? 0) + 1;
    }
  }
  return out;
}

const YEAR = { year: 2024 };

describe('threadtime', () => {
  it('reads every line of an API 25 boot log with its level counts', () => {
    const { entries, stats } = parseLogcat(fixture('threadtime-api25.txt'), YEAR);
    expect(stats.format).toBe('threadtime');
    expect(stats.lines).toBe(81);
    expect(stats.separators).toBe(1);
    expect(entries).toHaveLength(80);
    expect(levels(entries)).toEqual({ I: 24, V: 18, D: 31, E: 3, W: 4 });
    expect(stats.garbage + stats.unparsed + stats.truncated).toBe(0);
  });

  it('splits time, ids, level, padded tag and message', () => {
    const { entries } = parseLogcat(fixture('threadtime-api25.txt'), YEAR);
    const first = entries[0] as LogEntry;
    expect(first).toMatchObject({
      pid: 1303,
      tid: 1303,
      level: 'I',
      tag: 'vold',
      message: 'Vold 3.0 (the awakening) firing up',
      buffer: 'system',
    });
    expect(first.ts).toBe(new Date(2024, 4, 17, 9, 26, 57, 485).getTime());
    // An empty message after the tag padding, and a message that starts with spaces.
    expect(entries.find((e) => e.message === '' && e.level === 'V')).toBeDefined();
    expect(entries.some((e) => e.message === '    --android-dump')).toBe(true);
    expect(entries.find((e) => e.tag === 'VoldCryptCmdListener')?.message).toBe(
      'cryptfs mountdefaultencrypted',
    );
  });

  it('marks lines of one multi-line record as continuations', () => {
    const { entries } = parseLogcat(fixture('threadtime-api25.txt'), YEAR);
    const blkid = entries.findIndex((e) => e.message === '/system/bin/blkid');
    expect(entries[blkid]?.cont).toBe(false);
    expect(entries[blkid + 1]).toMatchObject({ message: '    -c', cont: true });
  });

  it('reads the -v uid form (uid, pid, tid)', () => {
    const { entries } = parseLogcat(fixture('threadtime-uid-signal.txt'), YEAR);
    expect(entries[0]).toMatchObject({ pid: 722, tid: 2964, level: 'I', tag: 'ActivityManager' });
    expect(entries.find((e) => e.tag === 'AndroidRuntime')).toMatchObject({
      pid: 6308,
      tid: 6354,
      level: 'E',
    });
  });

  it('reads lines without a tag (kernel) and tags that look like syntax', () => {
    const { entries } = parseLogcat(fixture('tricky-tags.txt'), YEAR);
    expect(entries.map((e) => e.tag)).toEqual([
      'Comma,Tag',
      'p/RegexishButInvalid(/',
      'RegexishButInvalid(',
      '/RegexishButInvalid(/',
      '`WifiProJNI',
      '`QosMonitor`',
    ]);
    const kernel = parseLogcat(
      '06-17 02:19:14.616     0     0 I         : c0      0 Booting Linux on physical CPU 0x0\n',
      YEAR,
    );
    expect(kernel.entries[0]).toMatchObject({
      pid: 0,
      tid: 0,
      tag: '',
      message: 'c0      0 Booting Linux on physical CPU 0x0',
    });
  });

  it('follows -D dividers and counts a line cut after the level as truncated', () => {
    const { entries, stats } = parseLogcat(fixture('threadtime-dividers.txt'), YEAR);
    expect(stats.separators).toBe(4);
    expect(entries.map((e) => e.buffer)).toEqual([
      'main',
      'main',
      'system',
      'main',
      'main',
      'main',
      'main',
      'main',
      'main',
      'main',
      'kernel',
    ]);
    expect(entries.find((e) => e.tag === 'android.hardware.power.stats@1.0-service-mock')?.message).toBe(
      'Failed to getEnergyData',
    );
    expect(stats.truncated).toBe(1);
  });

  it('reads year, epoch, usec and zone variants', () => {
    const text = [
      '2024-05-17 09:26:57.485  1303  1303 I vold    : with year',
      '1715938017.485  1303  1303 I vold    : epoch',
      '05-17 09:26:57.485123  1303  1303 I vold    : usec',
      '05-17 09:26:57.485 +0200  1303  1303 I vold    : zone',
      '   123.456  1303  1303 I vold    : monotonic',
    ].join('\n');
    const { entries } = parseLogcat(text, YEAR);
    expect(entries.map((e) => e.message)).toEqual(['with year', 'epoch', 'usec', 'zone', 'monotonic']);
    expect(entries[0]?.ts).toBe(new Date(2024, 4, 17, 9, 26, 57, 485).getTime());
    expect(entries[1]?.ts).toBe(1715938017485);
    expect(entries[4]?.ts).toBe(0);
  });
});

describe('brief, time, tag', () => {
  it('reads brief with padded pids and a cut last line', () => {
    const { entries, stats } = parseLogcat(fixture('brief-signal-4402.txt'));
    expect(stats.format).toBe('brief');
    expect(entries).toHaveLength(22);
    expect(levels(entries)).toEqual({ I: 11, W: 8, D: 3 });
    expect(entries[0]).toMatchObject({
      level: 'I',
      tag: 'Process',
      pid: 27209,
      message: 'Sending signal. PID: 27209 SIG: 9',
      ts: 0,
    });
    expect(entries.find((e) => e.message === 'Validating map...')?.tag).toBe('Atlas');
    expect(entries.at(-1)?.message).toBe('Before Android 4.1, method int a');
  });

  it('reads CRLF brief logs and the /dev/log buffer names of old devices', () => {
    const { entries } = parseLogcat(fixtureBytes('brief-galaxy-nexus.txt'));
    expect(entries).toHaveLength(9);
    expect(entries.every((e) => !e.message.endsWith('\r'))).toBe(true);
    expect(entries[0]).toMatchObject({ level: 'W', tag: 'ActivityManager', pid: 380, buffer: 'system' });
  });

  it('reads the DDMS time export with its colon after the time', () => {
    const { entries, stats } = parseLogcat(fixture('time-ddms-firebase.txt'), YEAR);
    expect(stats.format).toBe('time');
    expect(entries).toHaveLength(62);
    expect(levels(entries)).toEqual({ D: 10, W: 31, I: 17, E: 2, V: 2 });
    expect(entries[0]).toMatchObject({
      level: 'D',
      tag: 'AOC',
      pid: 1054,
      message: 'A3:MSG: window_orientation.c, 697: [WO] Proposed rotation: 1, flat angle threshold: 40',
    });
  });

  it('reads time with spaces inside the pid parentheses', () => {
    const { entries } = parseLogcat(fixture('time-telecom.txt'), YEAR);
    expect(entries.map((e) => [e.tag, e.pid])).toEqual([
      ['Telecom', 1894],
      ['BackupManagerConstants', 1894],
      ['LoadedApk', 1894],
      ['LoadedApk', 1894],
    ]);
  });

  it('reads `L Tag: msg` lines pasted without time and ids', () => {
    const { entries, stats } = parseLogcat(fixture('tag-droidify-anr.txt'));
    expect(stats.format).toBe('tag');
    expect(entries).toHaveLength(17);
    expect(entries[1]).toMatchObject({ level: 'E', tag: 'ActivityManager', message: 'PID: 17681', pid: -1 });
    expect(stats.unparsed).toBe(1); // the cut `E ActivityMan`
  });
});

describe('long', () => {
  it('reads records with multi-line messages, one entry per message line', () => {
    const { entries, stats } = parseLogcat(fixture('long-emulator-api31.txt'), YEAR);
    expect(stats.format).toBe('long');
    expect(stats.separators).toBe(3);
    expect(levels(entries, true)).toEqual({ D: 14, I: 5, W: 22, V: 3, E: 2 });
    const strict = entries.filter((e) => e.tag === 'StrictMode');
    expect(strict[0]?.cont).toBe(false);
    expect(strict[1]?.message).toMatch(/^java\.lang\.IllegalAccessException: /);
    expect(strict[2]).toMatchObject({
      message: '\tat android.os.StrictMode.assertConfigurationContext(StrictMode.java:2296)',
      cont: true,
      pid: 2750,
      tid: 2750,
    });
    expect(entries.find((e) => e.tag === 'logd')).toMatchObject({ pid: 0, tid: 0, buffer: 'kernel' });
  });

  it('reads compact headers and out-of-order times', () => {
    const compact = parseLogcat(fixture('long-compact-adreno.txt'), YEAR);
    expect(compact.entries.map((e) => [e.tag, e.pid, e.tid, e.message])).toEqual([
      ['Adreno', 14142, 14167, 'QUALCOMM build                   : 2371bd1, I8ebe47d372'],
      ['Adreno', 14142, 14167, 'Build Date                       : 03/12/18'],
    ]);
    const lmk = parseLogcat(fixture('long-lowmemorykiller.txt'), YEAR).entries;
    expect(lmk.map((e) => e.tag)).toEqual(['lowmemorykiller', 'lowmemorykiller', 'auditd']);
    expect((lmk[2]?.ts ?? 0) < (lmk[1]?.ts ?? 0)).toBe(true);
    expect(parseLogcat(fixture('long-carhal.txt'), YEAR).entries.map((e) => e.tag)).toEqual([
      'CarDrivingState',
      'chatty',
      'GnssLocationProvider',
      'GnssLocationProvider',
    ]);
  });
});

describe('Android Studio copies', () => {
  it('reads the old pid-tid/package form and its unknown-package marker', () => {
    const { entries, stats } = parseLogcat(fixture('studio-old-cupcake.txt'), YEAR);
    expect(stats.format).toBe('studio');
    expect(entries).toHaveLength(29);
    expect(levels(entries)).toEqual({ I: 10, W: 2, E: 1, D: 12, V: 4 });
    expect(entries[0]).toMatchObject({ pid: 546, tid: 546, package: null, tag: 'vold' });
    expect(entries.find((e) => e.pid === 613)?.package).toBe('com.android.phone');
    expect(entries.find((e) => e.pid === 573 && e.tag === 'AlarmManagerService')?.package).toBeNull(); // system_process
  });

  it('reads indented continuation lines as part of the entry above', () => {
    const { entries } = parseLogcat(fixture('studio-old-matisse-anr.txt'), YEAR);
    expect(entries).toHaveLength(20);
    expect(entries.every((e) => e.tag === 'ActivityManager' && e.pid === 369 && e.tid === 392)).toBe(true);
    expect(entries[1]).toMatchObject({ message: 'PID: 1866', cont: true });
    expect(entries[5]?.message).toBe(
      '  6.2% 369/system_server: 6.2% user + 0% kernel / faults: 4392 minor 303 major',
    );
  });

  it('reads Studio 1.x lines that end the tag with a small colon', () => {
    const { entries } = parseLogcat(fixture('studio-old-exoplayer-crash.txt'), YEAR);
    expect(entries[0]).toMatchObject({
      tag: 'AndroidRuntime',
      level: 'E',
      message: 'FATAL EXCEPTION: main',
      pid: 6953,
    });
    expect(entries[2]?.message).toBe(
      '        at com.google.android.exoplayer.demo.SampleChooserActivity.onCreate(SampleChooserActivity.java:52)',
    );
  });

  it('reads the Logcat window form: columns, shortened tags, process lines', () => {
    const { entries, stats } = parseLogcat(fixture('studio-new-ohmybread.txt'), YEAR);
    expect(stats.format).toBe('studio-new');
    expect(stats.separators).toBe(3);
    expect(levels(entries.filter((e) => e.tag !== ''))).toEqual({ E: 10, D: 12, I: 5, W: 7 });
    expect(entries[0]).toMatchObject({
      pid: 1249,
      tid: 1321,
      tag: 'BufferQueueDebug',
      package: null,
      level: 'E',
    });
    expect(entries.find((e) => e.tag === 'Compatibil...geReporter')).toMatchObject({
      package: 'br.com.ohmybread',
      pid: 2155,
    });
    expect(entries.find((e) => e.tag === '')).toMatchObject({
      pid: 2155,
      package: 'br.com.ohmybread',
      message: 'PROCESS STARTED (2155) for package br.com.ohmybread',
    });
    // Messages that begin with spaces keep them.
    expect(entries.some((e) => e.message === '  plugin 1: [libMEOW_gift.so]:')).toBe(true);
  });

  it('counts orphan continuation lines before the first entry as unparsed', () => {
    const { entries, stats } = parseLogcat(fixture('studio-new-deltachat-anr.txt'), YEAR);
    expect(stats.unparsed).toBe(3);
    expect(entries.map((e) => e.message)).toEqual([
      '[Application Not Responding: chat.delta#0] disconnect: not connected (req=1)',
      'ANR in chat.delta (chat.delta/org.thoughtcrime.securesms.RoutingActivity)',
      'PID: 25062',
      'Reason: Input dispatching timed out (Waiting because no window has focus but there is a focused application that may eventually add a window when it finishes starting up.)',
      'Load: 11.07 / 10.82 / 11.04',
    ]);
    expect(entries[0]?.package).toBeNull(); // `pid-3315`
  });
});

describe('robustness', () => {
  it('skips a vendor banner before the first separator', () => {
    const { entries, stats } = parseLogcat(fixtureBytes('huawei-banner.txt'), YEAR);
    expect(entries).toHaveLength(4);
    expect(stats.unparsed).toBe(2);
    expect(entries[0]).toMatchObject({ tag: 'QosMonitor', buffer: 'main' });
  });

  it('skips and counts binary garbage between lines', () => {
    const real = fixture('threadtime-api25.txt').split('\n');
    const junk = '\u0000\u0001\u00ff\u0002garbage\u0007\u0000';
    const text = [real[1], junk, real[2], String.fromCharCode(0xfffd, 0xfffd, 0x41), real[3]].join('\n');
    const { entries, stats } = parseLogcat(text, YEAR);
    expect(entries).toHaveLength(3);
    expect(stats.garbage).toBe(2);
  });

  it('strips a UTF-8 BOM and CRLF', () => {
    const body = fixture('threadtime-api25.txt').split('\n').slice(1, 4).join('\r\n');
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body, 'utf8')]);
    const { entries } = parseLogcat(bytes, YEAR);
    expect(entries.map((e) => e.message)).toEqual([
      'Vold 3.0 (the awakening) firing up',
      'Detected support for: ext4 vfat',
      "Recognized experimental block major ID 253 as virtio-blk (emulator's virtual SD card device)",
    ]);
    expect(parseLogcat('\ufeff' + body, YEAR).entries[0]?.tag).toBe('vold');
  });

  it('cuts over-long lines and keeps parsing', () => {
    const long = `05-17 09:26:57.485  1303  1303 I vold    : ${'x'.repeat(5000)}`;
    const { entries, stats } = parseLogcat(`${long}\n05-17 09:26:57.486  1303  1303 I vold    : next\n`, {
      ...YEAR,
      maxLineLength: 1000,
    });
    expect(entries).toHaveLength(2);
    expect(entries[0]?.message.length).toBeLessThan(1000);
    expect(stats.truncated).toBe(1);
  });

  it('holds a partial line until the rest arrives, even mid-character', () => {
    const text = '05-17 09:26:57.485  1303  1303 I vold    : ünïcödé ✓ 日本\n';
    const bytes = Buffer.from(text, 'utf8');
    const parser = new LogcatParser(YEAR);
    const out: LogEntry[] = [];
    for (let i = 0; i < bytes.length; i++) {
      parser.push(bytes.subarray(i, i + 1), out);
    }
    parser.end(out);
    expect(out.map((e) => e.message)).toEqual(['ünïcödé ✓ 日本']);
  });

  it('gives the same entries however the input is chunked', () => {
    const inputs = [
      'threadtime-api25.txt',
      'studio-old-matisse-anr.txt',
      'long-emulator-api31.txt',
      'brief-galaxy-nexus.txt',
    ].map(fixtureBytes);
    const strip = (es: LogEntry[]): unknown[] =>
      es.map((e) => [e.ts, e.pid, e.tid, e.level, e.tag, e.message, e.package, e.cont, e.buffer]);
    const whole = inputs.map((b) => strip(parseLogcat(b, YEAR).entries));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 }),
        fc.array(fc.integer({ min: 1, max: 4000 }), { minLength: 1, maxLength: 40 }),
        (which, cuts) => {
          const bytes = inputs[which] as Buffer;
          const parser = new LogcatParser(YEAR);
          const out: LogEntry[] = [];
          let at = 0;
          for (const c of cuts) {
            if (at >= bytes.length) {
              break;
            }
            parser.push(bytes.subarray(at, at + c), out);
            at += c;
          }
          parser.push(bytes.subarray(at), out);
          parser.end(out);
          expect(strip(out)).toEqual(whole[which]);
        },
      ),
      { numRuns: 60 },
    );
  });
});
