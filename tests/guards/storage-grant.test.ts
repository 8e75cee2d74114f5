import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_TOOLS } from '../../src/mcp/registry.js';
import { toolListing } from '../../src/mcp/tool-listing.js';
import { ROOT } from '../helpers/paths.js';
import { sourceFiles } from '../helpers/source-files.js';

// Only the user, at a terminal, opens device folders to the file tools: no MCP path may grant it.

const SRC = path.join(ROOT, 'src');

const rel = (file: string): string => path.relative(ROOT, file).split(path.sep).join('/');

describe('device storage can only be allowed by the user (CLI or the host page)', () => {
  const files = sourceFiles(SRC);

  it('calls allowDeviceDir and revokeDeviceDir only from `droidbus storage` and the host page (which refuses agents)', () => {
    const callers = files
      .filter((f) => /\b(allowDeviceDir|revokeDeviceDir)\b/.test(readFileSync(f, 'utf8')))
      .map(rel)
      .sort();
    expect(callers).toEqual([
      'src/cli/storage.ts',
      'src/host/ui/page-requests.ts',
      'src/store/device-storage.ts',
    ]);
  });

  it('touches the device_storage setting only in the store', () => {
    const writers = files
      .filter((f) => readFileSync(f, 'utf8').includes('device_storage'))
      .map(rel)
      .sort();
    expect(writers).toEqual(['src/store/device-storage.ts', 'src/store/settings.ts']);
  });

  it('has no tool, and no tool parameter, that could grant a folder', () => {
    for (const tool of ALL_TOOLS) {
      expect(tool.name).not.toMatch(/storage|allow|grant_folder/);
      const props = Object.keys(
        (toolListing(tool).inputSchema as { properties?: Record<string, unknown> }).properties ?? {},
      );
      for (const prop of props) {
        expect(`${tool.name}.${prop}`).not.toMatch(/allow(ed)?_(folder|dir|path|storage)/);
      }
    }
  });
});
