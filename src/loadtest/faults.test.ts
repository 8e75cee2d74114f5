import { describe, expect, it } from 'vitest';
import { classify, plannedFaults, type Injected } from './faults.js';
import type { CallSpan } from './recorder.js';

function fault(kind: Injected['report']['fault'], start: number, end: number, affected: string[]): Injected {
  return {
    report: {
      fault: kind,
      target: kind,
      at_s: start / 1000,
      down_ms: 0,
      recovered: true,
      recovery_ms: end - start,
      note: null,
    },
    affected,
    start,
    end,
    wallStart: start,
    wallEnd: end,
    logcat: null,
  };
}

function call(
  tool: string,
  serial: string | null,
  start: number,
  end: number,
  code: string | null,
): CallSpan {
  return { tool, serial, start, end, code, text: code === null ? null : `${tool} failed` };
}

describe('the fault report', () => {
  it('gives a failure to the fault it was in flight for, else to the one it started under; others are unexplained', () => {
    const drop = fault('device-drop', 10, 20, ['a']);
    const kill = fault('host-kill', 30, 40, ['a', 'b']);
    const spans = [
      call('screenshot', 'a', 8, 12, 'DEVICE_OFFLINE'), // in flight at the drop
      call('screenshot', 'a', 14, 15, 'DEVICE_OFFLINE'), // started while it lasted
      call('screenshot', 'b', 14, 15, 'DEVICE_OFFLINE'), // another device: the drop does not explain it
      call('run_gradle_task', null, 15, 35, 'UNAVAILABLE'), // outlived the drop, failed at the host kill
      call('list_devices', null, 31, 32, 'UNAVAILABLE'),
      call('screenshot', 'a', 41, 42, 'TIMEOUT'), // after both recovered
      call('screenshot', 'b', 25, 26, null),
    ];
    const { reports, unexplained } = classify([drop, kill], spans);
    expect(reports[0]).toMatchObject({
      in_flight: 1,
      failed_in_flight: 1,
      failed_during: 1,
      failed_by_code: { DEVICE_OFFLINE: 2 },
    });
    expect(reports[1]).toMatchObject({
      in_flight: 1,
      failed_in_flight: 1,
      failed_during: 1,
      failed_by_code: { UNAVAILABLE: 2 },
    });
    expect(reports[1]!.failed_examples['UNAVAILABLE']).toBe('run_gradle_task: run_gradle_task failed');
    expect(unexplained.map((s) => `${s.tool}@${s.start}`)).toEqual(['screenshot@14', 'screenshot@41']);
  });

  it('plans one injection per killed worker thread', () => {
    expect(plannedFaults(['device-drop', 'worker-kill'])).toEqual([
      { kind: 'device-drop' },
      { kind: 'worker-kill', worker: 'devices#0' },
      { kind: 'worker-kill', worker: 'logcat#0' },
    ]);
  });
});
