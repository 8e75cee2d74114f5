import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEVICE_READS, DEVICE_WRITE_VERBS } from '../../src/adb/device-reads.js';
import { ROOT } from '../helpers/paths.js';
import { sourceFiles } from '../helpers/source-files.js';

/** Where droidbus talks to devices for its tools (the simulator and test tools are not it). */
const AREAS = ['actors', 'adb', 'mcp', 'host', 'project', 'store'].map((a) => path.join(ROOT, 'src', a));
const CATALOGUE = path.join(ROOT, 'src', 'adb', 'device-reads.ts');

/** The simple commands of a `sh` template literal's text (interpolations become `X`). */
function simpleCommands(template: string): string[] {
  return template
    .replace(/\$\{[^}]*\}/g, 'X')
    .replace(/'[^']*'/g, 'Q')
    .split(/;|&&|\|\||\|/)
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

/** Commands that only shape output between reads (or a lone argument of a command built in parts). */
const GLUE = /^(?:echo|printf|grep)\b|^X$/;

describe('the device-read catalogue', () => {
  it('is where every read command an actor runs comes from: each sh`` literal is a write or glue', () => {
    const uncovered: string[] = [];
    for (const file of AREAS.flatMap(sourceFiles)) {
      if (file === CATALOGUE) {
        continue;
      }
      // Code only: doc comments name commands in backquotes too.
      const text = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const m of text.matchAll(/\bsh`((?:[^`\\]|\\.)*)`/g)) {
        for (const command of simpleCommands(m[1]!)) {
          const write = DEVICE_WRITE_VERBS.some((v) => command === v || command.startsWith(`${v} `));
          if (!write && !GLUE.test(command)) {
            uncovered.push(`${path.relative(ROOT, file)}: ${command}`);
          }
        }
      }
    }
    // A read belongs in src/adb/device-reads.ts (then `droidbus device record` records it); a
    // command that changes the device belongs in DEVICE_WRITE_VERBS.
    expect(uncovered).toEqual([]);
  });

  it('names each read once', () => {
    const names = DEVICE_READS.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.every((n) => /^[a-z0-9-]+$/.test(n))).toBe(true);
  });

  it('has no command that is both a read and a write', () => {
    for (const r of DEVICE_READS) {
      const line = r.argv.map((a) => (typeof a === 'string' ? a : 'X')).join(' ');
      expect(
        DEVICE_WRITE_VERBS.some((v) => line === v || line.startsWith(`${v} `)),
        line,
      ).toBe(false);
    }
  });
});
