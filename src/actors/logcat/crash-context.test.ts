import { describe, expect, it } from 'vitest';
import { crashContext } from './crash-context.js';
import { CrashGroups } from './crash-group.js';
import { LogStore } from './log-store.js';
import { LogcatPipeline } from './logcat-pipeline.js';
import { fixture } from './test-fixtures.js';

function load(name: string, device = 'emulator-5554'): { store: LogStore; groups: CrashGroups } {
  const store = new LogStore();
  const groups = new CrashGroups();
  const pipe = new LogcatPipeline({
    device,
    store,
    groups,
    parser: { year: 2024 },
    now: () => 1_700_000_000_000,
  });
  pipe.push(Buffer.from(fixture(name)));
  pipe.end();
  return { store, groups };
}

describe('the lines around a crash', () => {
  it('keeps the lines before a crash, its own lines, its signature, and the Start proc line of its pid', () => {
    const { store, groups } = load('threadtime-uid-signal.txt');
    const [crash] = store.crashes({ device: 'emulator-5554' });
    expect(crash).toBeDefined();
    const ctx = crashContext(store, groups, {
      serial: 'emulator-5554',
      seq: crash!.seq,
      group_id: crash!.group_id!,
      pid: 6308,
      package: 'org.thoughtcrime.securesms',
      before: 100,
      max_lines: 400,
    });
    expect(ctx.found).toBe(true);
    expect(ctx.kind).toBe('java');
    expect(ctx.before).toHaveLength(7);
    expect(ctx.before[0]).toContain('ActivityManager: START u0');
    expect(ctx.lines[0]).toBe(
      '01-17 18:56:55.034  6308  6354 E AndroidRuntime: FATAL EXCEPTION: MessageRetrievalService',
    );
    expect(ctx.lines).toHaveLength(crash!.lines.length);
    expect(ctx.signature).toBe(groups.get(crash!.group_id!)?.signature);
    expect(ctx.process_start).toEqual({ seq: 3, ts: expect.any(Number), time: '2024-01-17 18:56:51.037' });
    expect(ctx.time).toBe('2024-01-17 18:56:55.034');
  });

  it('keeps at most `before` lines, and finds no process start for another pid', () => {
    const { store, groups } = load('threadtime-uid-signal.txt');
    const [crash] = store.crashes({ device: 'emulator-5554' });
    const ctx = crashContext(store, groups, {
      serial: 'emulator-5554',
      seq: crash!.seq,
      group_id: crash!.group_id!,
      pid: 9999,
      package: null,
      before: 2,
      max_lines: 1,
    });
    expect(ctx.before).toHaveLength(2);
    expect(ctx.lines).toHaveLength(1);
    expect(ctx.process_start).toBeNull();
  });

  it('answers found: false for a crash the store no longer holds, or on another device', () => {
    const { store, groups } = load('threadtime-uid-signal.txt');
    const [crash] = store.crashes({ device: 'emulator-5554' });
    const params = {
      serial: 'emulator-5554',
      seq: crash!.seq,
      group_id: crash!.group_id!,
      pid: 6308,
      package: null,
      before: 100,
      max_lines: 400,
    };
    expect(crashContext(store, groups, { ...params, serial: 'emulator-5556' }).found).toBe(false);
    expect(crashContext(store, groups, { ...params, seq: 10_000 }).found).toBe(false);
    store.clear();
    expect(crashContext(store, groups, params).found).toBe(false);
  });
});
