import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMappingIndex } from './mapping-index.js';
import { retraceTrace } from './retrace-trace.js';

const FIXTURES = join(import.meta.dirname, '../../../tests/fixtures/retrace');
const cases = readdirSync(FIXTURES).filter((name) => existsSync(join(FIXTURES, name, 'mapping.txt')));

describe('retrace prints what R8 retrace prints', () => {
  it('has a fixture for every construct the issue names', () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
  });

  for (const name of cases) {
    const dir = join(FIXTURES, name);
    const index = buildMappingIndex(readFileSync(join(dir, 'mapping.txt')));
    const trace = readFileSync(join(dir, 'trace.txt'), 'utf8');

    it(`${name}: the default output matches R8's`, () => {
      expect(retraceTrace(index, trace).text).toBe(readFileSync(join(dir, 'expected.txt'), 'utf8'));
    });

    const verbose = join(dir, 'expected-verbose.txt');
    if (existsSync(verbose)) {
      it(`${name}: the --verbose output matches R8's`, () => {
        expect(retraceTrace(index, trace, { verbose: true }).text).toBe(readFileSync(verbose, 'utf8'));
      });
    }
  }
});
