import { describe, expect, it } from 'vitest';
import { CrashGroups } from './crash-group.js';
import { LogStore } from './log-store.js';
import { LogcatPipeline } from './logcat-pipeline.js';
import { fixture, fixtureBytes } from './test-fixtures.js';

function setup(device = 'emulator-5554'): { store: LogStore; groups: CrashGroups; pipe: LogcatPipeline } {
  const store = new LogStore();
  const groups = new CrashGroups();
  return {
    store,
    groups,
    pipe: new LogcatPipeline({ device, store, groups, parser: { year: 2024 }, now: () => 1_700_000_000_000 }),
  };
}

describe('LogcatPipeline', () => {
  it('stores a streamed log and files its crashes with their lines stamped', () => {
    const { store, groups, pipe } = setup();
    const bytes = fixtureBytes('threadtime-kivy-crash.txt');
    const pushed = pipe.push(bytes.subarray(0, 700)).entries + pipe.push(bytes.subarray(700)).entries;
    const end = pipe.end();
    expect(pushed + end.entries).toBe(13);
    expect(store.size).toBe(13);
    expect(end.crashes.map((c) => c.kind).sort()).toEqual(['java', 'native']);
    const java = store.crashes({ device: 'emulator-5554' }).find((c) => c.kind === 'java');
    expect(java?.group_id).toMatch(/^[0-9a-f]{12}$/);
    expect(java?.seq).toBe(3);
    expect(store.at(2)).toMatchObject({
      crash: 'java',
      crash_group: java?.group_id,
      package: 'com.google.android.googlequicksearchbox',
    });
    expect(groups.get(java?.group_id ?? '')?.latest).toBe(java);
  });

  it('groups thirty streamed repeats of one crash into one group with count 30', () => {
    const { store, groups, pipe } = setup();
    const crash = fixture('threadtime-kivy-crash.txt').split('\n').slice(2, 13).join('\n') + '\n';
    const noise = fixture('threadtime-api25.txt');
    for (let i = 0; i < 30; i++) {
      pipe.push(crash);
      pipe.push(noise);
    }
    pipe.end();
    expect(store.crashes().length).toBe(30);
    const java = groups.list({ kind: 'java' });
    expect(java).toHaveLength(1);
    expect(java[0]?.count).toBe(30);
  });

  it('finishes a crash on the timer when the process says nothing more', () => {
    const { store, pipe } = setup();
    pipe.push(fixture('threadtime-kivy-crash.txt').split('\n').slice(2, 13).join('\n') + '\n');
    expect(pipe.tick()).toEqual([]);
    expect(pipe.tick().map((c) => c.kind)).toEqual(['java']);
    expect(store.crashes()).toHaveLength(1);
  });

  it('uses a seeded process list for lines whose process never logged its start', () => {
    const { store, pipe } = setup();
    pipe.seedProcesses([{ pid: 11618, user: 'u0_a96', name: 'org.linphone.debug' }]);
    pipe.push(fixture('threadtime-linphone-native.txt'));
    const [c] = pipe.end().crashes;
    expect(c).toMatchObject({ kind: 'native', package: 'org.linphone.debug', process: 'org.linphone.debug' });
    expect(store.at(3)?.package).toBe('org.linphone.debug');
  });

  it("files a crash that waits for more (an ANR's report) when the wait ends, and says so late", async () => {
    const store = new LogStore();
    const groups = new CrashGroups();
    let release!: () => void;
    const late: string[] = [];
    const pipe = new LogcatPipeline({
      device: 'emulator-5554',
      store,
      groups,
      parser: { year: 2024 },
      beforeFiling: (crash) =>
        crash.kind === 'anr' ? new Promise<void>((resolve) => (release = resolve)) : null,
      late: (crashes) => late.push(...crashes.map((c) => c.kind)),
    });
    pipe.push(fixture('tag-droidify-anr.txt'));
    const ended = pipe.end();
    expect(ended.crashes.map((c) => c.kind)).not.toContain('anr');
    expect(store.crashes().filter((c) => c.kind === 'anr')).toEqual([]);
    release();
    await new Promise((r) => setImmediate(r));
    expect(late).toEqual(['anr']);
    const [anr] = store.crashes().filter((c) => c.kind === 'anr');
    expect(anr?.group_id).toMatch(/^[0-9a-f]{12}$/);
  });
});
