import { describe, expect, it } from 'vitest';
import { FILE_LIMIT, FUNCTION_LIMIT, measureCode } from '../helpers/code-sizes.js';
import { ROOT } from '../helpers/paths.js';

/** Issue 20's limits, kept: `npx tsx scripts/code-sizes.ts` prints the largest functions and files. */
describe('code sizes', () => {
  const sizes = measureCode(ROOT);

  it('measures the source it should (src/ and the host page)', () => {
    expect(sizes.files.some((f) => f.file === 'src/mcp/server.ts')).toBe(true);
    expect(sizes.files.some((f) => f.file === 'web/src/app.tsx')).toBe(true);
    expect(sizes.functions.find((f) => f.name === 'createMcpServer')?.lines).toBeGreaterThan(10);
  });

  it(`has no function over ${FUNCTION_LIMIT} lines`, () => {
    expect(
      sizes.functions
        .filter((f) => f.lines > FUNCTION_LIMIT)
        .map((f) => `${f.file}:${f.line} ${f.name} (${f.lines})`),
    ).toEqual([]);
  });

  it(`has no source file over ${FILE_LIMIT} lines`, () => {
    expect(sizes.files.filter((f) => f.lines > FILE_LIMIT).map((f) => `${f.file} (${f.lines})`)).toEqual([]);
  });
});
