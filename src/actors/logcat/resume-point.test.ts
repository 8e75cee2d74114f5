import { describe, expect, it } from 'vitest';
import { CrashGroups } from './crash-group.js';
import { LogStore } from './log-store.js';
import { LogcatPipeline } from './logcat-pipeline.js';
import {
  afterNewestOld,
  afterResumePoint,
  entryKey,
  resumePointOf,
  threadtimeLineKey,
  type LineDecision,
} from './resume-point.js';
import { fixture } from './test-fixtures.js';

/** The fixture streamed from `device` into a store, as a device's stream stores it. */
function stored(name: string, device = 'emulator-5554'): LogStore {
  const store = new LogStore();
  const pipe = new LogcatPipeline({ device, store, groups: new CrashGroups(), parser: { year: 2024 } });
  pipe.push(Buffer.from(fixture(name)));
  pipe.end();
  return store;
}

const linesOf = (name: string): string[] =>
  fixture(name)
    .split(/\r?\n/)
    .filter((l) => l !== '');

/** Runs a stream's first lines through `decide` as DeviceStream does: what is kept. */
function kept(decide: (line: string) => LineDecision, lines: string[]): string[] {
  const out: string[] = [];
  let done = false;
  for (const line of lines) {
    const d: LineDecision = done ? 'done' : decide(line);
    done = d === 'done';
    if (d !== 'drop') {
      out.push(line);
    }
  }
  return out;
}

describe('the resume point of a device', () => {
  it('is the newest stored line’s time, printed as threadtime printed it, with the lines stored at it', () => {
    // A real API 25 emulator's boot log (tests/fixtures/logcat/SOURCES.md).
    const lines = linesOf('threadtime-api25.txt');
    const last = lines[lines.length - 1]!;
    const point = resumePointOf(stored('threadtime-api25.txt'), 'emulator-5554');
    expect(point?.since).toBe(last.slice(0, 18));
    const atSince = lines.filter((l) => l.startsWith(point!.since));
    expect([...point!.seen.values()].reduce((a, n) => a + n, 0)).toBe(atSince.length);
    for (const line of atSince) {
      expect(point!.seen.has(threadtimeLineKey(line)), line).toBe(true);
    }
  });

  it('keys a stored line as its printed line is keyed, odd tags included', () => {
    for (const name of ['tricky-tags.txt', 'threadtime-api25.txt']) {
      const store = stored(name);
      const printed = linesOf(name).filter((l) => !l.startsWith('--------- '));
      expect(store.size, name).toBe(printed.length);
      printed.forEach((line, i) => expect(entryKey(store.at(i)!), line).toBe(threadtimeLineKey(line)));
    }
  });

  it('is null for a device the store holds nothing of', () => {
    expect(resumePointOf(stored('threadtime-api25.txt'), 'emulator-5556')).toBeNull();
  });
});

describe('a resumed stream’s first lines', () => {
  it('drop what the store has (the one line logd may give before the time, and those at it), keep separators and every new line', () => {
    const lines = linesOf('threadtime-api25.txt');
    const point = resumePointOf(stored('threadtime-api25.txt'), 'emulator-5554')!;
    // What `logcat -T since` prints: a divider, at most one entry before the time (LogReader's
    // start search), the entries at the time, then what came after.
    const atSince = lines.filter((l) => l.startsWith(point.since));
    const before = lines.filter((l) => !l.startsWith('--------- ') && l.slice(0, 18) < point.since).at(-1)!;
    const fresh = `${point.since}  1697  1697 I PackageManager: a new line in the same millisecond`;
    const later = '05-17 09:27:02.700  1697  1697 I PackageManager: later';
    const printed = ['--------- beginning of main', before, ...atSince, fresh, later];
    expect(kept(afterResumePoint(point), printed)).toEqual(['--------- beginning of main', fresh, later]);
  });

  it('keeps every line once two in a row are older than the resume point (a device clock that went back)', () => {
    const point = { since: '12-31 23:59:59.990', seen: new Map<string, number>() };
    const lines = [
      '12-31 23:59:59.980  1697  1697 I Tag     : the one line logd may give before the time',
      '01-01 00:00:00.005  1697  1697 I Tag     : after the year turned',
      '01-01 00:00:00.010  1697  1697 I Tag     : and on',
    ];
    expect(kept(afterResumePoint(point), lines)).toEqual(lines.slice(1));
  });

  it('keeps a line logged again at the same millisecond once more than the store has it', () => {
    const point = { since: '05-17 09:27:02.602', seen: new Map([['16971697WPackageManager:x', 1]]) };
    const line = '05-17 09:27:02.602  1697  1697 W PackageManager: x';
    expect(kept(afterResumePoint(point), [line, line])).toEqual([line]);
  });

  it('from now, drop the one old line logcat -T 1 prints first', () => {
    const lines = linesOf('threadtime-api25.txt').slice(0, 4);
    expect(kept(afterNewestOld(), lines)).toEqual([lines[0], lines[2], lines[3]]);
  });
});
