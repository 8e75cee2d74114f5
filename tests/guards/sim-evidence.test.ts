/**
 * The simulator is droidbus's oracle, so it must say where each behaviour comes from (issue 57):
 * every source file under src/sim names its evidence — an AOSP path, a capture in the repo, a public
 * log or document — or says `Evidence: none — …` and why it needs none (plumbing that models nothing
 * a phone does). And no file decides by API level on its own: version differences live in one cited
 * table, src/sim/device/android-versions.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';
import { sourceFiles } from '../helpers/source-files.js';

const SIM = path.join(ROOT, 'src', 'sim');

/** What counts as naming evidence: a labelled line, or a citation of a source a reader can open. */
const CITATION = new RegExp(
  [
    /\b(?:Evidence|Sources?): \S/.source,
    /\bAOSP\b/.source,
    /\b(?:frameworks|system|packages\/modules|cmds|external)\/[\w./-]+/.source,
    /\btests\/fixtures\/\S+/.source,
    /\bprofiles\/\S+/.source,
    /https?:\/\/\S+/.source,
    /\bnotes\/(?:adb|android-tools)-facts\.md/.source,
    // A source file of the platform or a tool, by name (`ActivityManagerShellCommand.java`, toybox's `ps.c`).
    /\b\w+\.(?:java|kt|cpp|cc|c|h|txt)\b/.source,
    // A specification by its name and section.
    /\bPOSIX\b|\bIEEE Std\b/.source,
  ].join('|'),
);

/** A file that models nothing says so, with a reason after the dash. */
const NONE = /Evidence: none — \S+/;

const rel = (f: string) => path.relative(ROOT, f);

describe('the simulator names its evidence', () => {
  const files = sourceFiles(SIM);

  it('reads every source file of the simulator', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.map(rel)).toContain('src/sim/device/android-versions.ts');
  });

  it('names the evidence in every file (or why it needs none)', () => {
    const silent = files.filter((f) => !CITATION.test(readFileSync(f, 'utf8'))).map(rel);
    expect(silent).toEqual([]);
  });

  it('gives a reason whenever it says a file needs none', () => {
    const bare = files
      .filter((f) => /Evidence: none/.test(readFileSync(f, 'utf8')) && !NONE.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(bare).toEqual([]);
  });

  it('decides by API level only through the table of Android versions', () => {
    const found: string[] = [];
    for (const file of files.filter((f) => !f.endsWith('android-versions.ts'))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (
            /\bsdk\b\s*(?:<|>|<=|>=|===|!==)\s*\d{2}\b|\b\d{2}\s*(?:<|>|<=|>=)\s*[\w.]*\bsdk\b/i.test(line)
          ) {
            found.push(`${rel(file)}:${i + 1} ${line.trim()}`);
          }
        });
    }
    expect(found).toEqual([]);
  });
});
