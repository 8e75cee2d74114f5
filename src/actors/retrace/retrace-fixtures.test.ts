import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMappingIndex } from './mapping-index.js';
import { retraceTrace } from './retrace-trace.js';

const FIXTURES = join(import.meta.dirname, '../../../tests/fixtures/retrace');
const R8_SUITE = join(FIXTURES, 'r8');

const casesIn = (dir: string): string[] =>
  readdirSync(dir).filter((name) => existsSync(join(dir, name, 'mapping.txt')));

function checkCase(dir: string, name: string): void {
  const index = buildMappingIndex(readFileSync(join(dir, 'mapping.txt')));
  const trace = readFileSync(join(dir, 'trace.txt'), 'utf8');

  it(`${name}: the default output matches`, () => {
    expect(retraceTrace(index, trace).text).toBe(readFileSync(join(dir, 'expected.txt'), 'utf8'));
  });

  const verbose = join(dir, 'expected-verbose.txt');
  if (existsSync(verbose)) {
    it(`${name}: the --verbose output matches`, () => {
      expect(retraceTrace(index, trace, { verbose: true }).text).toBe(readFileSync(verbose, 'utf8'));
    });
  }
}

describe("R8's retrace test suite, every case (tests/fixtures/retrace/r8)", () => {
  const cases = casesIn(R8_SUITE);
  it('holds the whole suite (65 StackTraceForTest cases; SOURCES.md names the 4 left out)', () => {
    expect(cases.length).toBe(65);
  });
  for (const name of cases) {
    checkCase(join(R8_SUITE, name), name);
  }
});

describe('constructed cases (ProGuard format, logcat, map ids)', () => {
  for (const name of casesIn(FIXTURES)) {
    checkCase(join(FIXTURES, name), name);
  }
});
