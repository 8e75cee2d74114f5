import { describe, expect, it } from 'vitest';
import { minePackages } from './mine-packages.js';

describe('minePackages', () => {
  it('spells out each base id with every ordering of distinct suffixes, and the exact ids', () => {
    const scope = {
      bases: [{ id: 'com.droidbus.sample', suffixes: ['.demo', '.debug'] }],
      exact: ['com.droidbus.sample.staging'],
    };
    expect(minePackages(scope).sort()).toEqual([
      'com.droidbus.sample',
      'com.droidbus.sample.debug',
      'com.droidbus.sample.debug.demo',
      'com.droidbus.sample.demo',
      'com.droidbus.sample.demo.debug',
      'com.droidbus.sample.staging',
    ]);
  });

  it('never repeats a suffix and stays within its bound', () => {
    const many = { bases: [{ id: 'a.b', suffixes: ['.s1', '.s2', '.s3', '.s4', '.s5', '.s6'] }], exact: [] };
    const out = minePackages(many, 50);
    expect(out).toHaveLength(50);
    expect(out.every((p) => !/(\.s\d).*\1(?!\d)/.test(p))).toBe(true);
    expect(minePackages({ bases: [], exact: [] })).toEqual([]);
  });
});
