import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { camelParts, checkGradleTask } from './task-policy.js';

const STRICT = { allowUnrestricted: false };

const cap = (w: string): string => (w[0] as string).toUpperCase() + w.slice(1);

/** A camel-case word Gradle would see as one part. */
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);

/** A blocked task name as words: a blocked prefix then a tail, or a head, an infix and a tail. */
const blockedWords: fc.Arbitrary<string[]> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(['publish'], ['promote'], ['upload'], ['uninstall'], ['close', 'and', 'release']),
      fc.array(word, { maxLength: 3 }),
    )
    .map(([p, tail]) => [...p, ...tail]),
  fc
    .tuple(
      fc.array(word, { minLength: 1, maxLength: 2 }),
      fc.constantFrom(['play', 'store'], ['to', 'maven', 'central']),
      fc.array(word, { maxLength: 2 }),
    )
    .map(([head, inf, tail]) => [...head, ...inf, ...tail]),
);

const joinCamel = (words: string[]): string => words.map((w, i) => (i === 0 ? w : cap(w))).join('');

/**
 * What a user could type that Gradle resolves to that name: the name itself in any case (Gradle
 * retries case-insensitively), or an abbreviation with a non-empty prefix of every word (Gradle's
 * camel-case matcher), possibly upper-cased; behind any project path.
 */
const requestFor = (words: string[]): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.constantFrom('exact', 'lower', 'upper', 'abbrev', 'abbrevUpper', 'kebab'),
      fc.array(fc.integer({ min: 1, max: 8 }), { minLength: words.length, maxLength: words.length }),
      fc.constantFrom('', ':', ':app:', 'app:', ':feature:login:', ':a:b:c:'),
    )
    .map(([how, lengths, prefix]) => {
      const name = joinCamel(words);
      const abbrev = joinCamel(words.map((w, i) => w.slice(0, lengths[i])));
      const forms: Record<string, string> = {
        exact: name,
        lower: name.toLowerCase(),
        upper: name.toUpperCase(),
        abbrev,
        abbrevUpper: abbrev.toUpperCase(),
        kebab: words.map((w, i) => w.slice(0, lengths[i])).join('-'),
      };
      return prefix + (forms[how] as string);
    });

describe('Gradle task policy', () => {
  it('nothing blocked slips through by abbreviation, case, kebab-case or project path', () => {
    fc.assert(
      fc.property(blockedWords.chain(requestFor), (task) => {
        const r = checkGradleTask(task, STRICT);
        expect(r.ok, task).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('the documented abbreviations are refused: pR, pRB, uA, :app:pRB, publ, cARR, aPSR, xTMC', () => {
    for (const t of [
      'pR',
      'pRB',
      'uA',
      ':app:pRB',
      'publ',
      'cARR',
      'CR',
      'aPSR',
      'xTMC',
      'PUBLISH',
      'publishToMavenLocal',
      'uninstallAll',
      'promoteArtifact',
      'uploadCrashlyticsMappingFileRelease',
    ]) {
      expect(checkGradleTask(t, STRICT).ok, t).toBe(false);
    }
  });

  it('everyday build, install and test tasks are allowed', () => {
    for (const t of [
      'assembleDebug',
      ':app:assembleDemoDebug',
      'installDebug',
      'testDebugUnitTest',
      'connectedAndroidTest',
      'connectedDebugAndroidTest',
      'lint',
      'lintDebug',
      'bundleRelease',
      'clean',
      'build',
      'check',
      'aD',
      'iD',
      'tDUT',
      'assemblePlayDebug',
      'prepareKotlinBuildScriptModel',
      'properties',
      'dependencies',
      'signingReport',
      'app:tasks',
      'updateDebugScreenshotTest',
    ]) {
      expect(checkGradleTask(t, STRICT), t).toEqual({ ok: true });
    }
  });

  it('unrestricted mode allows blocked names but never an option or a malformed name', () => {
    expect(checkGradleTask('publishReleaseBundle', { allowUnrestricted: true })).toEqual({ ok: true });
    expect(checkGradleTask('--init-script=/tmp/x.gradle', { allowUnrestricted: true }).ok).toBe(false);
    expect(checkGradleTask('-q', { allowUnrestricted: true }).ok).toBe(false);
    expect(checkGradleTask('assembleDebug --offline', { allowUnrestricted: true }).ok).toBe(false);
  });

  it('refuses options, bad characters, empty segments and over-long names, with a reason', () => {
    const cases: unknown[] = [
      '-PsomeProp=1',
      '--offline',
      '',
      ':',
      'app::assemble',
      'a;b',
      'a b',
      'x/y',
      'ä',
      ':app:-x',
      'a'.repeat(201),
      42,
      null,
    ];
    for (const t of cases) {
      const r = checkGradleTask(t, STRICT);
      expect(r.ok, String(t)).toBe(false);
      expect(!r.ok && r.reason.length).toBeGreaterThan(10);
    }
    const refused = checkGradleTask('pRB', STRICT);
    expect(!refused.ok && refused.reason).toContain('allowUnrestrictedGradle');
  });

  it('any string outside the task charset is refused, whatever the mode', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => /[^A-Za-z0-9_.:-]/.test(s)),
        fc.boolean(),
        (s, allowUnrestricted) => {
          expect(checkGradleTask(s, { allowUnrestricted }).ok).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('splits names into the parts Gradle abbreviates', () => {
    expect(camelParts('publishReleaseBundle')).toEqual(['publish', 'release', 'bundle']);
    expect(camelParts('pRB')).toEqual(['p', 'r', 'b']);
    expect(camelParts('PRB')).toEqual(['p', 'r', 'b']);
    expect(camelParts('close-and_release.x')).toEqual(['close', 'and', 'release', 'x']);
  });
});
