import { describe, expect, it } from 'vitest';
import { CrashGroups } from './crash-group.js';
import { LogStore } from './log-store.js';
import { queryLogs, MAX_ENTRY_COUNT } from './log-query.js';
import { LogcatQueryError } from './logcat-query.js';
import { LogcatPipeline } from './logcat-pipeline.js';
import { fixture, fixtureBytes } from './test-fixtures.js';

/** A store holding two devices' real logs: a crash log on one, a boot log on the other. */
function twoDevices(): LogStore {
  const store = new LogStore();
  const groups = new CrashGroups();
  const a = new LogcatPipeline({ device: 'emulator-5554', store, groups, parser: { year: 2024 } });
  const b = new LogcatPipeline({ device: 'R58M12345', store, groups, parser: { year: 2024 } });
  a.push(fixture('threadtime-api25.txt'));
  b.push(fixtureBytes('threadtime-kivy-crash.txt'));
  a.push(fixture('threadtime-uid-signal.txt'));
  a.end();
  b.end();
  return store;
}

describe('queryLogs', () => {
  it('returns the newest matches, oldest first, and says when older ones remain', () => {
    const store = twoDevices();
    const r = queryLogs(store, { count: 3 });
    expect(r.entries.map((e) => e.seq)).toEqual([store.size - 2, store.size - 1, store.size]);
    expect(r.has_more).toBe(true);
    const all = queryLogs(store, { count: MAX_ENTRY_COUNT });
    expect(all.entries).toHaveLength(store.size);
    expect(all.has_more).toBe(false);
  });

  it('combines min_level, tag, text, package, device and only_crashes', () => {
    const store = twoDevices();
    expect(
      queryLogs(store, { min_level: 'error' }).entries.every((e) => e.level === 'E' || e.level === 'F'),
    ).toBe(true);
    expect(
      queryLogs(store, { min_level: 'E', device_serial: 'emulator-5554' }).entries.map((e) => e.tag),
    ).toEqual(['vold', 'vold', 'vold', 'ActivityManager', 'AndroidRuntime', 'AndroidRuntime']);
    expect(queryLogs(store, { tag: 'Cryptfs', text: 'PASSWORD' }).entries.map((e) => e.message)).toEqual([
      'Password matches',
      'Password is default - restarting filesystem',
    ]);
    expect(queryLogs(store, { package: 'org.thoughtcrime.securesms' }).entries).toHaveLength(2);
    const crashes = queryLogs(store, { only_crashes: true }).entries;
    expect(new Set(crashes.map((e) => e.device))).toEqual(new Set(['emulator-5554', 'R58M12345']));
    expect(crashes.every((e) => e.crash !== null && e.crash_group !== null)).toBe(true);
  });

  it('applies a Studio query on top of the parameters', () => {
    const store = twoDevices();
    const r = queryLogs(
      store,
      { device_serial: 'R58M12345', query: 'is:crash -tag:libc level:error' },
      { mine: [] },
    );
    expect(r.entries).toHaveLength(11);
    const mine = queryLogs(
      store,
      { query: 'package:mine' },
      { mine: ['com.google.android.googlequicksearchbox'] },
    );
    expect(mine.entries).toHaveLength(11);
  });

  it('reads only what arrived after since_seq', () => {
    const store = twoDevices();
    const last = store.size;
    expect(queryLogs(store, { since_seq: last - 5 }).entries.map((e) => e.seq)).toEqual([
      last - 4,
      last - 3,
      last - 2,
      last - 1,
      last,
    ]);
    expect(queryLogs(store, { since_seq: last }).entries).toEqual([]);
  });

  it('pages back with before_seq, filters still applied', () => {
    const store = twoDevices();
    const newest = queryLogs(store, { count: 3 });
    const oldest = newest.entries[0]!.seq;
    const back = queryLogs(store, { count: 3, before_seq: oldest });
    expect(back.entries.map((e) => e.seq)).toEqual([oldest - 3, oldest - 2, oldest - 1]);
    expect(queryLogs(store, { before_seq: 1 }).entries).toEqual([]);
    const serial = newest.entries[0]!.device!;
    const mine = queryLogs(store, { device_serial: serial, before_seq: oldest, count: 10_000 });
    expect(mine.entries.length).toBeGreaterThan(0);
    expect(mine.entries.every((e) => e.device === serial && e.seq < oldest)).toBe(true);
  });

  it('rejects invalid parameters with a query error', () => {
    const store = twoDevices();
    expect(() => queryLogs(store, { min_level: 'chatty' })).toThrow(LogcatQueryError);
    expect(() => queryLogs(store, { query: 'level:' })).toThrow(/level: needs a value/);
  });
});
