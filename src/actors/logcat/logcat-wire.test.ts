import { describe, expect, it } from 'vitest';
import { CrashGroups } from './crash-group.js';
import { LogStore } from './log-store.js';
import { LogcatPipeline } from './logcat-pipeline.js';
import type { LogEntry } from './logcat-types.js';
import { crashSummary, fitCrashes, fitEntries, toWireCrash, toWireEntry } from './logcat-wire.js';
import { fixture } from './test-fixtures.js';

function read(name: string): { store: LogStore; groups: CrashGroups } {
  const store = new LogStore();
  const groups = new CrashGroups();
  const pipe = new LogcatPipeline({ device: 'emulator-5554', store, groups, parser: { year: 2024 } });
  pipe.push(fixture(name));
  pipe.end();
  return { store, groups };
}

function entries(store: LogStore): LogEntry[] {
  return Array.from({ length: store.size }, (_, i) => store.at(i)!);
}

describe('entries on the wire', () => {
  it('carry the device time, the parsed fields, and json or launch only when a line has them', () => {
    const { store } = read('threadtime-kivy-crash.txt');
    const wire = toWireEntry(store.at(2)!);
    expect(wire).toMatchObject({
      seq: 3,
      time: '2024-06-23 21:11:03.816',
      pid: 3427,
      level: 'E',
      tag: 'AndroidRuntime',
      message: 'FATAL EXCEPTION: main',
      crash: 'java',
    });
    expect(wire.crash_group).toMatch(/^[0-9a-f]{12}$/);
    expect('json' in wire).toBe(false);
    expect('launch' in wire).toBe(false);
  });

  it('keep the newest entries that fit the budget and count the older ones cut', () => {
    const { store } = read('threadtime-api25.txt');
    const all = entries(store);
    expect(fitEntries(all).cut).toBe(0);
    // A budget of what the newest ten cost as JSON keeps about ten, the newest, and counts the rest.
    const budget = JSON.stringify(all.slice(-10).map(toWireEntry)).length;
    const fitted = fitEntries(all, budget);
    expect(fitted.kept.length).toBeGreaterThanOrEqual(8);
    expect(fitted.kept.length).toBeLessThanOrEqual(14);
    expect(fitted.kept.map((e) => e.seq)).toEqual(all.slice(-fitted.kept.length).map((e) => e.seq));
    expect(fitted.cut).toBe(all.length - fitted.kept.length);
    expect(JSON.stringify(fitted.kept).length).toBeLessThanOrEqual(budget * 1.4);
    // One entry always goes out, however small the budget.
    expect(fitEntries(all, 1).kept).toHaveLength(1);
  });
});

describe('crashes on the wire', () => {
  it('carry the whole trace as logcat printed it, with the parsed frames', () => {
    const { store, groups } = read('threadtime-kivy-crash.txt');
    const java = store.crashes().find((c) => c.kind === 'java')!;
    const wire = toWireCrash(java, groups.get(java.group_id!));
    expect(wire.trace.split('\n')).toEqual(java.lines);
    expect(wire.trace.split('\n')[0]).toBe('FATAL EXCEPTION: main');
    expect(wire.frames).toHaveLength(8);
    expect(wire.time).toBe('2024-06-23 21:11:03.816');
    expect(wire).toMatchObject({ kind: 'java', group_id: java.group_id, causes: [], truncated: false });
  });

  it('summarize a Java crash by its exception, message and the frame its group blames', () => {
    const { store, groups } = read('threadtime-kivy-crash.txt');
    const java = store.crashes().find((c) => c.kind === 'java')!;
    expect(crashSummary(java, groups.get(java.group_id!))).toBe(
      'java.lang.IllegalStateException at com.google.android.apps.search.googleapp.search.m.u(PG:1) (com.google.android.googlequicksearchbox)',
    );
    const native = store.crashes().find((c) => c.kind === 'native')!;
    expect(crashSummary(native, groups.get(native.group_id!))).toMatch(/^SIGABRT/);
  });

  it('stop adding crashes once the trace budget is spent, keeping at least one', () => {
    const { store, groups } = read('threadtime-kivy-crash.txt');
    const list = store.crashes();
    expect(list).toHaveLength(2);
    const groupOf = (id: string | null) => (id !== null ? groups.get(id) : undefined);
    expect(fitCrashes(list, groupOf).cut).toBe(0);
    const tight = fitCrashes(list, groupOf, 10);
    expect(tight.kept).toHaveLength(1);
    expect(tight.cut).toBe(1);
  });
});
