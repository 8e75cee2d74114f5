import { describe, expect, it } from 'vitest';
import { UsageError } from './command.js';
import { parseLoadtestArgs } from './loadtest.js';
import { assignDevices } from '../loadtest/run-loadtest.js';

describe('droidbus loadtest arguments', () => {
  it('fills in defaults and keeps the mix in its canonical order', () => {
    const { options, compare } = parseLoadtestArgs(['--sim', '--mix', 'logcat,ui', '--duration', '60']);
    expect(compare).toBe(false);
    expect(options).toMatchObject({
      devices: 2,
      sessions: 2,
      durationS: 60,
      sim: true,
      attached: false,
      inline: false,
      mix: ['ui', 'logcat'],
      dumpLatencyMs: 700,
      logcatRate: 200,
      buildMs: 10_000,
      rssIntervalMs: 1_000,
    });
  });

  it('refuses unknown mix parts, bad numbers, sim options without --sim, and --inline with --compare', () => {
    expect(() => parseLoadtestArgs(['--mix', 'ui,dance'])).toThrow(UsageError);
    expect(() => parseLoadtestArgs(['--devices', '0'])).toThrow(/--devices must be a whole number/);
    expect(() => parseLoadtestArgs(['--duration', '2.5'])).toThrow(UsageError);
    expect(() => parseLoadtestArgs(['--logcat-rate', '100'])).toThrow(/need --sim/);
    expect(() => parseLoadtestArgs(['--inline', '--compare'])).toThrow(/leave out --inline/);
  });
});

describe('device shares', () => {
  it('splits devices evenly between sessions', () => {
    expect(assignDevices(['a', 'b', 'c', 'd', 'e'], 2)).toEqual([
      ['a', 'c', 'e'],
      ['b', 'd'],
    ]);
  });

  it('gives each session one shared device when sessions outnumber devices', () => {
    expect(assignDevices(['a', 'b'], 3)).toEqual([['a'], ['b'], ['a']]);
  });
});
