import { describe, expect, it } from 'vitest';
import { CrashDetector, type DetectedCrash } from './crash-detect.js';
import {
  crashGroupId,
  crashSignature,
  CrashGroups,
  takeRoundRobin,
  nativeFrameKey,
  normalizeAnrReason,
} from './crash-group.js';
import { LogEnricher } from './logcat-enrich.js';
import { parseLogcat } from './logcat-parse.js';
import { PidMap } from './pid-map.js';
import type { Crash } from './logcat-types.js';
import { fixture } from './test-fixtures.js';
import { SAMPLE_CRASH_TRACE } from '../../sim/index.js';

function crashesOf(text: string, device = 'emulator-5554'): Crash[] {
  const pids = new PidMap();
  const enricher = new LogEnricher({ pids });
  const detector = new CrashDetector({ device, pids });
  const out: DetectedCrash[] = [];
  for (const e of parseLogcat(text, { year: 2024 }).entries) {
    enricher.enrich(e);
    detector.feed(e, out);
  }
  detector.flush(out);
  return out.map((d) => d.crash);
}

const KIVY_JAVA = fixture('threadtime-kivy-crash.txt').split('\n').slice(2, 13).join('\n');
const EXO = fixture('studio-old-exoplayer-crash.txt');

describe('crash groups', () => {
  it('files thirty identical crashes under one group with count 30', () => {
    const groups = new CrashGroups();
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++) {
      for (const c of crashesOf(KIVY_JAVA)) {
        ids.add(groups.add(c).id);
      }
    }
    expect(ids.size).toBe(1);
    const g = groups.get([...ids][0] ?? '');
    expect(g).toMatchObject({
      count: 30,
      kind: 'java',
      packages: ['com.google.android.googlequicksearchbox'],
      devices: ['emulator-5554'],
    });
    // Blamed on the app's own frame under com.google.android (the package's parent its classes are
    // under), not on Guava's checkState above it.
    expect(g?.title).toBe(
      'java.lang.IllegalStateException at com.google.android.apps.search.googleapp.search.m.u(PG:1)',
    );
  });

  it('keeps a group when only framework line numbers differ, and splits it when the app code differs', () => {
    const groups = new CrashGroups({ ownPrefixes: ['com.google.android.exoplayer'] });
    const base = groups.add(crashesOf(EXO)[0] as Crash).id;
    const framework = EXO.replace('ActivityThread.java:1660', 'ActivityThread.java:3449').replace(
      'Looper.java:130',
      'Looper.java:223',
    );
    expect(groups.add(crashesOf(framework)[0] as Crash).id).toBe(base);
    const own = EXO.replace('SampleChooserActivity.java:52', 'SampleChooserActivity.java:57');
    expect(groups.add(crashesOf(own)[0] as Crash).id).not.toBe(base);
    expect(groups.get(base)?.count).toBe(2);
  });

  it('uses the root cause and the top framework methods when no frame is the app’s own', () => {
    const c = crashesOf(EXO)[0] as Crash;
    expect(crashSignature(c).signature).toBe(
      'java|java.lang.NoSuchMethodError|com.google.android.exoplayer.demo.SampleChooserActivity.onCreate|android.app.Instrumentation.callActivityOnCreate|android.app.ActivityThread.performLaunchActivity',
    );
    expect(crashSignature(c, ['com.google.android.exoplayer']).signature).toBe(
      'java|java.lang.NoSuchMethodError|com.google.android.exoplayer.demo.SampleChooserActivity.onCreate(SampleChooserActivity.java:52)',
    );
  });

  it('groups by the deepest cause', () => {
    const base = crashesOf(KIVY_JAVA)[0] as Crash;
    const wrapped: Crash = {
      ...base,
      exception: 'java.lang.RuntimeException',
      causes: [
        {
          exception: 'java.lang.IllegalStateException',
          message: null,
          frames: base.frames,
          more: 0,
          suppressed: [],
        },
      ],
      frames: ['android.app.ActivityThread.main(ActivityThread.java:1)'],
    };
    expect(crashSignature(wrapped).signature).toBe(crashSignature(base).signature);
  });

  it('makes short ids that stay the same from run to run', () => {
    expect(crashGroupId('java|java.lang.IllegalStateException|com.example.Foo.bar(Foo.kt:12)')).toBe(
      crashGroupId('java|java.lang.IllegalStateException|com.example.Foo.bar(Foo.kt:12)'),
    );
    expect(crashGroupId('native|SIGSEGV|libfoo.so(bar)')).toMatch(/^[0-9a-f]{12}$/);
    // Pinned: a change to the id scheme would regroup every stored crash.
    expect(crashGroupId('java|java.lang.IllegalStateException|')).toBe('2e7fd0e6bd37');
  });

  it('strips addresses and offsets from native frames', () => {
    expect(
      nativeFrameKey(
        '#00 pc 0000000000051698  /apex/com.android.runtime/lib64/bionic/libc.so (abort+168) (BuildId: b94752b6809cd7518c3c28ff9d195306)',
      ),
    ).toEqual({
      key: 'libc.so(abort)',
      path: '/apex/com.android.runtime/lib64/bionic/libc.so',
    });
    expect(nativeFrameKey('#01 pc 001976ab  /system/lib/libhoudini.so').key).toBe('libhoudini.so');
    expect(
      nativeFrameKey(
        '#06 pc 0000000000045cfc  /data/app/~~x==/app-y==/lib/arm64/libvortekrenderer.so (BuildId: 4406b5f4)',
      ).key,
    ).toBe('libvortekrenderer.so');
  });

  it('groups native crashes on the app’s own libraries, whatever the addresses', () => {
    const tomb = fixture('tombstone-vortek.txt');
    const frames = tomb
      .split('\n')
      .filter((l) => /^\s+#\d+ pc /.test(l))
      .map((l) => l.trim());
    const crash = (fs: string[]): Crash => ({
      ...(crashesOf(fixture('studio-old-houdini-native.txt'))[0] as Crash),
      package: 'app.gamenative',
      signal: 'SIGABRT',
      frames: fs,
    });
    const a = crashSignature(crash(frames));
    expect(a.signature).toBe(
      'native|SIGABRT|libvortekrenderer.so(ShaderInspector_inspectShaderStages)|libvortekrenderer.so|libvortekrenderer.so',
    );
    const moved = frames.map((f) =>
      f.replace(/pc [0-9a-f]+/, 'pc 00000000deadbeef').replace('+952)', '+960)'),
    );
    expect(crashSignature(crash(moved)).signature).toBe(a.signature);
  });

  it('groups ANRs by package, component and reason wording, not by ids or wait times', () => {
    const [first] = crashesOf(fixture('tag-droidify-anr.txt'));
    const again = crashesOf(
      fixture('tag-droidify-anr.txt').replace('61a981d', '7c0e2f4').replace('Waited 5001ms', 'Waited 5003ms'),
    );
    expect(crashSignature(first as Crash).signature).toBe(crashSignature(again[0] as Crash).signature);
    expect(crashSignature(first as Crash).signature).toBe(
      'anr|com.looker.droidify|com.looker.droidify/.MainActivity|Input dispatching timed out',
    );
    expect(normalizeAnrReason('executing service com.example/.SyncService')).toBe(
      'executing service com.example/.SyncService',
    );
    expect(
      normalizeAnrReason('Broadcast of Intent { act=android.intent.action.SCREEN_OFF flg=0x50200010 }'),
    ).toBe('Broadcast of Intent { act=android.intent.action.SCREEN_OFF flg=# }');
  });

  it('lists groups newest first, filtered, and stays bounded', () => {
    const groups = new CrashGroups({ maxGroups: 2 });
    const kivy = crashesOf(KIVY_JAVA, 'a');
    const exo = crashesOf(EXO, 'b');
    const anr = crashesOf(fixture('tag-droidify-anr.txt'), 'b');
    for (const c of [...kivy, ...exo, ...anr]) {
      c.received_at = 0;
      groups.add(c);
    }
    expect(groups.size).toBe(2);
    expect(groups.list({ device: 'a' })).toEqual([]);
    expect(groups.list({ kind: 'anr' }).map((g) => g.packages)).toEqual([['com.looker.droidify']]);
    expect(groups.list({ limit: 1 })).toHaveLength(1);
  });
});

describe('own code of a flavored, suffixed build', () => {
  const crashIn = (pkg: string, line: number): Crash =>
    crashesOf(
      [
        `03-15 10:00:00.000  4000  4000 E AndroidRuntime: FATAL EXCEPTION: main`,
        `03-15 10:00:00.000  4000  4000 E AndroidRuntime: Process: ${pkg}, PID: 4000`,
        `03-15 10:00:00.000  4000  4000 E AndroidRuntime: java.lang.NullPointerException: boom`,
        `03-15 10:00:00.000  4000  4000 E AndroidRuntime: \tat android.widget.TextView.setText(TextView.java:6368)`,
        `03-15 10:00:00.000  4000  4000 E AndroidRuntime: \tat com.example.shop.ui.CartFragment.render(CartFragment.kt:${line})`,
        `03-15 10:00:00.000  4000  4000 E AndroidRuntime: \tat com.example.shop.ui.CartFragment.onViewCreated(CartFragment.kt:40)`,
        `03-15 10:00:00.000  4000  4000 E AndroidRuntime: \tat android.os.Handler.handleCallback(Handler.java:938)`,
      ].join('\n'),
    )[0] as Crash;

  it('finds the classes under the namespace the applicationId extends, so debug and release are one group', () => {
    const release = crashSignature(crashIn('com.example.shop', 88));
    const debug = crashSignature(crashIn('com.example.shop.demo.debug', 88));
    expect(debug.signature).toBe(release.signature);
    expect(debug.title).toBe(
      'java.lang.NullPointerException at com.example.shop.ui.CartFragment.render(CartFragment.kt:88)',
    );
    // Own line numbers still tell bugs apart; the framework frame above never counts.
    expect(crashSignature(crashIn('com.example.shop.demo.debug', 91)).signature).not.toBe(debug.signature);
    expect(debug.signature).not.toContain('TextView');
  });

  it("titles an obfuscated root cause at its own first frame, not the outer exception's app frame (issue 69)", () => {
    // The sample app's R8-obfuscated crash, as the simulator logs it (src/sim/sample-app.ts).
    const text = ['FATAL EXCEPTION: main', 'Process: com.droidbus.sample, PID: 4242', ...SAMPLE_CRASH_TRACE]
      .map((m) => `12-06 18:00:00.000  4242  4242 E AndroidRuntime: ${m}`)
      .join('\n');
    const [crash] = crashesOf(text);
    expect(crash?.causes.map((c) => c.exception)).toEqual(['a.d']);
    const { title } = crashSignature(crash!);
    expect(title).toMatch(/^a\.d at a\.c\.a\(/);
    expect(title).not.toContain('HomeActivity');
  });

  it('groups ANRs whose threads were read by where the main thread is stuck, whatever the reason says (issue 69)', () => {
    const [a] = crashesOf(fixture('tag-droidify-anr.txt'));
    const [b] = crashesOf(
      fixture('tag-droidify-anr.txt').replace(
        /Input dispatching timed out[^\n]*/,
        'Broadcast of Intent { act=x }',
      ),
    );
    const report = (frames: string[]) => ({
      source: 'dropbox data_app_anr 2024-01-01 00:00:00',
      main: { name: 'main', tid: 1, state: 'Blocked', frames, waiting_to_lock: null },
      holder: null,
      deadlock: false,
    });
    const stuck = [
      'android.os.MessageQueue.next(MessageQueue.java:335)',
      'z.coz.a(ConnectionManagerImpl.java:232)',
      'z.cpe.b(ActionHandler.java:60)',
    ];
    // Without their threads the two differ by reason; with the same stuck frames they are one group.
    expect(crashSignature(a!).signature).not.toBe(crashSignature(b!).signature);
    a!.anr = report(stuck);
    b!.anr = report(stuck);
    const sa = crashSignature(a!);
    expect(sa.signature).toBe(crashSignature(b!).signature);
    expect(sa.signature).toBe(
      'anr|com.looker.droidify|z.coz.a(ConnectionManagerImpl.java:232)|z.cpe.b(ActionHandler.java:60)',
    );
    expect(sa.title).toBe(
      'ANR in com.looker.droidify/.MainActivity: main thread Blocked at z.coz.a(ConnectionManagerImpl.java:232)',
    );
    b!.anr = report(['z.cpd.a(ActionDispatcher.java:114)']);
    expect(crashSignature(b!).signature).not.toBe(sa.signature);
  });
});

describe('takeRoundRobin', () => {
  it("puts every group's newest crash before any repeat, so a cut answer names every group", () => {
    // 30 repeats of a native group logged last (newest first), one Java crash of another app before them.
    const crashes = [
      ...Array.from({ length: 30 }, (_, i) => ({ group_id: 'native', seq: 100 - i })),
      { group_id: 'java', seq: 50 },
      { group_id: null, seq: 40 },
    ];
    const ordered = takeRoundRobin(crashes, crashes.length);
    expect(ordered.slice(0, 3)).toEqual([
      { group_id: 'native', seq: 100 },
      { group_id: 'java', seq: 50 },
      { group_id: null, seq: 40 },
    ]);
    expect(ordered.slice(3).map((c) => c.seq)).toEqual(Array.from({ length: 29 }, (_, i) => 99 - i));
    expect(ordered).toHaveLength(crashes.length);
  });
});
