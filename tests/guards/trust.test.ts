import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';
import { sourceFiles } from '../helpers/source-files.js';

describe('trust is granted only by the user', () => {
  it('no MCP tool, bus message or actor can grant or revoke trust', () => {
    // Only the CLI (src/cli/trust.ts) and the host's page may call these or write the list.
    const writers = /\b(trustProject|untrustProject)\b|trusted_projects\s*(=[^=]|\.(push|splice|unshift))/;
    for (const area of ['mcp', 'bus', 'actors']) {
      for (const file of sourceFiles(path.join(ROOT, 'src', area))) {
        expect(writers.test(readFileSync(file, 'utf8')), path.relative(ROOT, file)).toBe(false);
      }
    }
  });
});
