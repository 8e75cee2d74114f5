import { describe, expect, it } from 'vitest';
import { CrashDetector, type DetectedCrash } from './crash-detect.js';
import { emptyNativeTrace, parseTombstone } from './crash-trace.js';
import { LogEnricher } from './logcat-enrich.js';
import { parseLogcat } from './logcat-parse.js';
import { PidMap } from './pid-map.js';
import type { Crash, LogEntry } from './logcat-types.js';
import { fixture, fixtureBytes } from './test-fixtures.js';

function entriesOf(text: string | Buffer): LogEntry[] {
  return parseLogcat(text, { year: 2024 }).entries;
}

/** Enriches and feeds entries; returns crashes finished while feeding and those only `flush` finished. */
function detect(entries: LogEntry[]): { during: Crash[]; all: Crash[] } {
  const pids = new PidMap();
  const enricher = new LogEnricher({ pids });
  const detector = new CrashDetector({ device: 'emulator-5554', pids, now: () => 1 });
  const out: DetectedCrash[] = [];
  for (const e of entries) {
    enricher.enrich(e);
    detector.feed(e, out);
  }
  const during = out.map((d) => d.crash);
  detector.flush(out);
  expect(detector.pending).toBe(0);
  return { during, all: out.map((d) => d.crash) };
}

function only(crashes: Crash[], kind: Crash['kind']): Crash {
  const found = crashes.filter((c) => c.kind === kind);
  expect(found).toHaveLength(1);
  return found[0] as Crash;
}

describe('Java crashes', () => {
  it('reads an obfuscated FATAL EXCEPTION with its process, exception and frames', () => {
    const { all } = detect(entriesOf(fixture('threadtime-kivy-crash.txt')));
    const c = only(all, 'java');
    expect(c).toMatchObject({
      device: 'emulator-5554',
      package: 'com.google.android.googlequicksearchbox',
      process: 'com.google.android.googlequicksearchbox:search',
      pid: 3427,
      tid: 3427,
      thread: 'main',
      exception: 'java.lang.IllegalStateException',
      message: null,
      causes: [],
    });
    expect(c.frames).toHaveLength(8);
    expect(c.frames[0]).toBe('com.google.common.base.bb.p(PG:1)');
    expect(c.frames[5]).toBe('j$.util.Optional.ifPresent(Unknown Source:4)');
    expect(c.lines[0]).toBe('FATAL EXCEPTION: main');
    expect(c.lines).toHaveLength(11);
    expect(c.ts).toBe(new Date(2024, 5, 23, 21, 11, 3, 816).getTime());
  });

  it('reads brief-format crashes with a nested exception in the message', () => {
    const c = only(detect(entriesOf(fixture('brief-signal-3276-crash.txt'))).all, 'java');
    expect(c.exception).toBe('java.lang.RuntimeException');
    expect(c.message).toBe(
      'Unable to instantiate application org.thoughtcrime.securesms.ApplicationContext: java.lang.IllegalStateException: Unable to get package info for org.thoughtcrime.securesms; is package not installed?',
    );
    expect(c.package).toBe('org.thoughtcrime.securesms');
    expect(c.frames.at(-1)).toBe('java.lang.reflect.Method.invoke(Native Me');
  });

  it('reads a Studio 1.x paste whose trace lines are indented continuations', () => {
    const c = only(detect(entriesOf(fixture('studio-old-exoplayer-crash.txt'))).all, 'java');
    expect(c.exception).toBe('java.lang.NoSuchMethodError');
    expect(c.message).toBe('com.google.android.exoplayer.demo.SampleChooserActivity$SampleAdapter.addAll');
    expect(c.frames).toHaveLength(14);
    expect(c.frames[0]).toBe(
      'com.google.android.exoplayer.demo.SampleChooserActivity.onCreate(SampleChooserActivity.java:52)',
    );
  });

  it('names the package from the pid map when the Process line is cut short', () => {
    const c = only(detect(entriesOf(fixture('threadtime-uid-signal.txt'))).all, 'java');
    expect(c).toMatchObject({
      pid: 6308,
      thread: 'MessageRetrievalService',
      package: 'org.thoughtcrime.securesms',
      exception: null,
    });
  });

  it('closes the block as soon as its process logs under another tag', () => {
    const lines = fixture('threadtime-kivy-crash.txt').split('\n').slice(2, 13);
    lines.push('06-23 21:11:03.820  3427  3427 I Process : Sending signal. PID: 3427 SIG: 9');
    const { during } = detect(entriesOf(lines.join('\n')));
    expect(during.map((c) => c.kind)).toEqual(['java']);
    expect(during[0]?.frames).toHaveLength(8);
  });

  it('keeps one crash across a 4 KiB record split with other processes in between', () => {
    const lines = fixture('threadtime-kivy-crash.txt').split('\n').slice(2, 13);
    const noise = fixture('threadtime-api25.txt').split('\n').slice(1, 6);
    // The second record of the same message starts at a later time, as logd splits long messages.
    const tail = lines.slice(8).map((l) => l.replace('21:11:03.816', '21:11:03.817'));
    const { all } = detect(entriesOf([...lines.slice(0, 8), ...noise, ...tail].join('\n')));
    expect(only(all, 'java').frames).toHaveLength(8);
  });

  it('starts a new crash when the same process logs another FATAL EXCEPTION', () => {
    const lines = fixture('threadtime-kivy-crash.txt').split('\n').slice(2, 13);
    const { all } = detect(entriesOf([...lines, ...lines].join('\n')));
    expect(all.map((c) => [c.kind, c.frames.length])).toEqual([
      ['java', 8],
      ['java', 8],
    ]);
  });

  it('marks the lines of a crash so queries can find them', () => {
    const entries = entriesOf(fixture('threadtime-kivy-crash.txt'));
    detect(entries);
    const runtime = entries.filter((e) => e.tag === 'AndroidRuntime');
    expect(runtime.every((e) => e.crash === 'java' && e.category === 'crash')).toBe(true);
  });
});

describe('native crashes', () => {
  it('joins the libc line with its tombstone even when the pid line is cut', () => {
    const c = only(detect(entriesOf(fixture('threadtime-linphone-native.txt'))).all, 'native');
    expect(c).toMatchObject({
      pid: 11618,
      tid: 11618,
      signal: 'SIGSEGV',
      signal_number: 11,
      signal_code: '1',
      fault_addr: '0x1',
      abi: 'arm',
    });
    expect(c.lines[0]).toMatch(/^Fatal signal 11/);
    expect(c.lines.some((l) => l.startsWith('*** *** ***'))).toBe(true);
  });

  it('reads signal, code, cause and process from an A/DEBUG paste', () => {
    const c = only(detect(entriesOf(fixture('studio-old-frostwire-native.txt'))).all, 'native');
    expect(c).toMatchObject({
      package: 'com.apkmatrix.components.ultradownloader.demo',
      process: 'com.apkmatrix.components.ultradownloader.demo',
      pid: 13915,
      tid: 14110,
      thread: 'downloader.demo',
      signal: 'SIGSEGV',
      signal_code: 'SEGV_MAPERR',
      fault_addr: '0x0',
      cause: 'null pointer dereference',
      abi: 'arm64',
      frames: [],
    });
  });

  it('reads the backtrace of an Android 5 tombstone logged at I/DEBUG', () => {
    const c = only(detect(entriesOf(fixture('studio-old-houdini-native.txt'))).all, 'native');
    expect(c.package).toBe('com.hlw.movie');
    expect(c.abi).toBe('x86');
    expect(c.frames).toEqual([
      '#00 pc 00000000  <unknown>',
      '#01 pc 001976ab  /system/lib/libhoudini.so',
      '#02 pc 00000fc8  <unknown>',
      '#03 pc 0000c2ff  /system/lib/arm/l',
    ]);
  });

  it('reports a libc Fatal signal that never got a tombstone', () => {
    const c = only(detect(entriesOf(fixture('threadtime-kivy-crash.txt'))).all, 'native');
    expect(c).toMatchObject({
      pid: 2998,
      tid: 2998,
      thread: 'init',
      signal: 'SIGABRT',
      signal_code: 'SI_QUEUE',
      package: null,
      frames: [],
    });
  });
});

describe('ANRs', () => {
  it('reads process, component, pid and reason from pasted tag lines', () => {
    const c = only(detect(entriesOf(fixture('tag-droidify-anr.txt'))).all, 'anr');
    expect(c).toMatchObject({
      package: 'com.looker.droidify',
      process: 'com.looker.droidify',
      component: 'com.looker.droidify/.MainActivity',
      pid: 17681,
    });
    expect(c.message).toMatch(/^Input dispatching timed out \(61a981d /);
    expect(c.lines).toHaveLength(17);
  });

  it('reads ANRs from both Studio copy forms', () => {
    const old = only(detect(entriesOf(fixture('studio-old-matisse-anr.txt'))).all, 'anr');
    expect(old).toMatchObject({
      package: 'com.unistrong.mapoffline',
      pid: 1866,
      component: 'com.unistrong.mapoffline/com.matisse.ui.activity.matisse.MatisseActivity',
    });
    expect(old.lines).toHaveLength(20);
    const window = only(detect(entriesOf(fixture('studio-new-deltachat-anr.txt'))).all, 'anr');
    expect(window).toMatchObject({
      package: 'chat.delta',
      pid: 25062,
      component: 'chat.delta/org.thoughtcrime.securesms.RoutingActivity',
    });
    expect(window.lines).toHaveLength(4);
  });
});

describe('no false alarms', () => {
  it('finds no crash in logs that only log exceptions', () => {
    for (const name of [
      'time-ddms-firebase.txt',
      'long-emulator-api31.txt',
      'threadtime-api25.txt',
      'studio-new-ohmybread.txt',
      'time-colon-holoeverywhere-cause.txt',
    ]) {
      expect(detect(entriesOf(fixture(name))).all, name).toEqual([]);
    }
    expect(detect(entriesOf(fixtureBytes('brief-galaxy-nexus.txt'))).all).toEqual([]);
  });
});

describe('interleaving and timing', () => {
  it('separates crashes of several processes interleaved line by line', () => {
    const java = fixture('threadtime-kivy-crash.txt').split('\n').slice(2, 13);
    const native = fixture('threadtime-linphone-native.txt').split('\n');
    const anr = fixture('tag-droidify-anr.txt')
      .split('\n')
      .slice(0, 7)
      .map((l) => `06-23 21:11:03.900  1490  1512 ${l}`);
    const mixed: string[] = [];
    for (let i = 0; i < Math.max(java.length, native.length, anr.length); i++) {
      for (const src of [java, native, anr]) {
        const l = src[i];
        if (l !== undefined) {
          mixed.push(l);
        }
      }
    }
    const { all } = detect(entriesOf(mixed.join('\n')));
    expect(only(all, 'java').frames).toHaveLength(8);
    expect(only(all, 'native')).toMatchObject({ pid: 11618, signal: 'SIGSEGV' });
    expect(only(all, 'anr')).toMatchObject({ pid: 17681, package: 'com.looker.droidify' });
  });

  it('finishes a crash whose process went quiet after two ticks', () => {
    const detector = new CrashDetector();
    const out: DetectedCrash[] = [];
    for (const e of entriesOf(fixture('threadtime-kivy-crash.txt').split('\n').slice(2, 13).join('\n'))) {
      detector.feed(e, out);
    }
    expect(out).toHaveLength(0);
    detector.tick(out);
    expect(out).toHaveLength(0);
    detector.tick(out);
    expect(out.map((d) => d.crash.kind)).toEqual(['java']);
    expect(detector.pending).toBe(0);
  });

  /** Feeds lines, then `ticks` ticks (a pause of about that many seconds). */
  function feedThenPause(
    detector: CrashDetector,
    lines: string[],
    ticks: number,
    out: DetectedCrash[],
  ): void {
    for (const e of entriesOf(lines.join('\n'))) {
      detector.feed(e, out);
    }
    for (let i = 0; i < ticks; i++) {
      detector.tick(out);
    }
  }

  it('waits for a tombstone that comes 1.5 s after the libc line: one crash, with its process', () => {
    const lines = fixture('studio-old-houdini-native.txt').trimEnd().split('\n');
    const detector = new CrashDetector({ device: 'emulator-5554' });
    const out: DetectedCrash[] = [];
    feedThenPause(detector, lines.slice(0, 1), 2, out); // the libc line, then a pause that spans two ticks
    expect(out).toHaveLength(0);
    feedThenPause(detector, lines.slice(1), 2, out);
    expect(out.map((d) => [d.crash.kind, d.crash.process, d.crash.signal, d.crash.frames.length])).toEqual([
      ['native', 'com.hlw.movie', 'SIGSEGV', 4],
    ]);
    expect(detector.pending).toBe(0);
  });

  it('keeps a tombstone open across a pause before its backtrace', () => {
    const lines = fixture('studio-old-houdini-native.txt').trimEnd().split('\n');
    const backtrace = lines.findIndex((l) => l.endsWith('backtrace:'));
    const detector = new CrashDetector({ device: 'emulator-5554' });
    const out: DetectedCrash[] = [];
    feedThenPause(detector, lines.slice(0, backtrace), 2, out);
    expect(out).toHaveLength(0);
    feedThenPause(detector, lines.slice(backtrace), 2, out);
    expect(out.map((d) => d.crash.frames.length)).toEqual([4]);
  });

  it('names the process by its main thread when debuggerd printed an empty command line', () => {
    // The capture with its process name emptied: debuggerd prints `>>>  <<<` (and `Cmdline: `) when
    // /proc/PID/cmdline is empty (AOSP debuggerd/libdebuggerd/tombstone_proto_to_text.cpp).
    const text = fixture('studio-old-houdini-native.txt').replace('>>> com.hlw.movie <<<', '>>>  <<<');
    const c = only(detect(entriesOf(text)).all, 'native');
    expect(c.process).toBe('com.hlw.movie');
  });

  it("reads a file tombstone's crash from its first pid line, not the other threads dumped after it", () => {
    const text = fixture('tombstone-vortek.txt').trimEnd();
    const other =
      '--- --- --- --- --- --- --- --- --- --- --- --- --- --- --- ---\npid: 1, tid: 99, name: Other  >>> other <<<';
    const first = parseTombstone(text.split('\n'), emptyNativeTrace());
    const withOthers = parseTombstone(`${text}\n${other}`.split('\n'), emptyNativeTrace());
    expect([withOthers.pid, withOthers.tid, withOthers.process]).toEqual([
      first.pid,
      first.tid,
      first.process,
    ]);
    expect(first.pid).toBeGreaterThan(1);
  });
});
