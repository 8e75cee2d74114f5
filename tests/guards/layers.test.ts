import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';
import { sourceFiles } from '../helpers/source-files.js';

const SRC = path.join(ROOT, 'src');

/** The top-level src/ folders a file imports from. */
function importedAreas(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const areas: string[] = [];
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
    const target = path.resolve(path.dirname(file), m[1]!);
    const rel = path.relative(SRC, target);
    if (!rel.startsWith('..')) {
      areas.push(rel.split(path.sep)[0]!);
    }
  }
  return areas;
}

describe('layers: mcp → bus ← actors', () => {
  const files = sourceFiles(SRC);
  const areaOf = (file: string) => path.relative(SRC, file).split(path.sep)[0]!;

  it('keeps actors from importing the MCP layer or the host', () => {
    for (const file of files.filter((f) => areaOf(f) === 'actors')) {
      expect(importedAreas(file), path.relative(ROOT, file)).not.toContain('mcp');
      expect(importedAreas(file), path.relative(ROOT, file)).not.toContain('host');
    }
  });

  it('keeps the MCP layer from reaching into actors: it sends bus messages', () => {
    for (const file of files.filter((f) => areaOf(f) === 'mcp')) {
      expect(importedAreas(file), path.relative(ROOT, file)).not.toContain('actors');
    }
  });

  it('keeps the bus free of actors, MCP and host code', () => {
    for (const file of files.filter((f) => areaOf(f) === 'bus')) {
      const areas = importedAreas(file);
      for (const forbidden of ['actors', 'mcp', 'host']) {
        expect(areas, path.relative(ROOT, file)).not.toContain(forbidden);
      }
    }
  });

  it('keeps the libraries (adb, device, project, store, util) free of actors, MCP and host code', () => {
    for (const file of files.filter((f) =>
      ['adb', 'device', 'project', 'store', 'util'].includes(areaOf(f)),
    )) {
      const areas = importedAreas(file);
      for (const forbidden of ['actors', 'mcp', 'host']) {
        expect(areas, path.relative(ROOT, file)).not.toContain(forbidden);
      }
    }
  });
});
