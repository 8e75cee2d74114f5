import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  camelParts,
  checkGradleTask,
  resolveTaskName,
  standardTaskNames,
  taskNameOfLine,
} from './task-policy.js';
import { settingsSchema } from '../../store/settings.js';

const STRICT = { allowUnrestricted: false };
/** A typical app's tasks as the build actor knows them: AGP's per-variant tasks of its variants. */
const KNOWN = {
  allowUnrestricted: false,
  knownTasks: standardTaskNames(['debug', 'release', 'demoDebug', 'demoRelease']),
};

const cap = (w: string): string => (w[0] as string).toUpperCase() + w.slice(1);

/** A camel-case word Gradle would see as one part. */
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);

/** A refused task name as words: a leaving verb anywhere, or release as the verb. */
const blockedWords: fc.Arbitrary<string[]> = fc.oneof(
  fc
    .tuple(
      fc.array(word, { maxLength: 2 }),
      fc.constantFrom(['publish'], ['promote'], ['upload'], ['uninstall'], ['deploy'], ['distribute']),
      fc.array(word, { maxLength: 2 }),
    )
    .map(([head, verb, tail]) => [...head, ...verb, ...tail]),
  fc
    .tuple(
      fc.constantFrom(
        ['release'],
        ['close', 'and', 'release'],
        ['github', 'release'],
        ['jreleaser', 'full', 'release'],
      ),
      fc.array(word, { maxLength: 3 }),
    )
    .map(([p, tail]) => [...p, ...tail]),
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
  it('nothing refused slips through by abbreviation, case, kebab-case or project path, task names known or not', () => {
    fc.assert(
      fc.property(
        blockedWords.chain((words) => requestFor(words).map((task) => ({ task, name: joinCamel(words) }))),
        ({ task, name }) => {
          expect(checkGradleTask(task, STRICT).ok, task).toBe(false);
          // With the project's tasks known, an abbreviation may select one of them; then Gradle, which
          // also has the refused task, finds it ambiguous and runs neither.
          if (checkGradleTask(task, KNOWN).ok) {
            const last = task.split(':').pop()!;
            expect(resolveTaskName(last, [...KNOWN.knownTasks, name]).kind, `${task} → ${name}`).toBe('many');
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('the documented abbreviations and the tasks of the issue are refused', () => {
    for (const t of [
      'pR',
      'pRB',
      'uA',
      ':app:pRB',
      'publ',
      'cARR',
      'CR',
      'aPSR',
      'aDUR',
      'appDistributionUploadRelease',
      'releaseSonatypeStagingRepository',
      'jreleaserDeploy',
      'githubRelease',
      'PUBLISH',
      'publishToMavenLocal',
      'uninstallAll',
      'promoteArtifact',
      'uploadCrashlyticsMappingFileRelease',
    ]) {
      expect(checkGradleTask(t, STRICT).ok, t).toBe(false);
    }
    for (const t of [
      'publishReleaseBundle',
      'appDistributionUploadRelease',
      'aDUR',
      'uploadCrashlyticsMappingFileRelease',
      'githubRelease',
      'jreleaserDeploy',
    ]) {
      expect(checkGradleTask(t, KNOWN).ok, t).toBe(false);
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
      expect(checkGradleTask(t, KNOWN), t).toEqual({ ok: true });
    }
    // Full names are judged as themselves even when no task list is known; abbreviations need one.
    for (const t of [
      'assembleDebug',
      'bundleRelease',
      'lintDebug',
      'installDebug',
      'connectedAndroidTest',
      'signingReport',
    ]) {
      expect(checkGradleTask(t, STRICT), t).toEqual({ ok: true });
    }
    expect(checkGradleTask('aD', STRICT).ok).toBe(false);
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
    // The setting's key as settings.json spells it (the store's schema), where it lives.
    expect(!refused.ok && refused.reason).toContain('"allow_unrestricted_gradle": true under "mcp"');
    expect(
      settingsSchema.parse({ mcp: { allow_unrestricted_gradle: true } }).mcp.allow_unrestricted_gradle,
    ).toBe(true);
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
  it("reads the common plugins' tasks by intent: what leaves the machine is refused, the rest runs", () => {
    // Task names from each plugin's documentation: maven-publish (Gradle), Triple-T's Play
    // Publisher, Firebase App Distribution and Crashlytics, gradle-nexus publish-plugin, JReleaser,
    // breadmoirai github-release, Bintray, JFrog Artifactory, Sentry, and AGP's own tasks.
    const refused = [
      'publish',
      'publishToMavenLocal',
      'publishReleasePublicationToMavenRepository',
      'publishAllPublicationsToMavenCentralRepository',
      'publishReleaseBundle',
      'publishBundle',
      'publishListing',
      'promoteReleaseArtifact',
      'uploadReleasePrivateBundle',
      'appDistributionUploadRelease',
      'appDistributionAddTesters',
      'uploadCrashlyticsMappingFileRelease',
      'uploadCrashlyticsSymbolFileRelease',
      'publishToSonatype',
      'closeSonatypeStagingRepository',
      'releaseSonatypeStagingRepository',
      'closeAndReleaseSonatypeStagingRepository',
      'jreleaserDeploy',
      'jreleaserRelease',
      'jreleaserFullRelease',
      'jreleaserUpload',
      'jreleaserAnnounce',
      'githubRelease',
      'bintrayUpload',
      'artifactoryPublish',
      'artifactoryDeploy',
      'uploadSentryProguardMappingsRelease',
      'uninstallDebug',
      'release',
    ];
    const allowed = [
      'assembleRelease',
      'bundleRelease',
      'lintRelease',
      'testReleaseUnitTest',
      'minifyReleaseWithR8',
      'generatePomFileForReleasePublication',
      'generateMetadataFileForReleasePublication',
      'injectCrashlyticsMappingFileIdRelease',
      'bootstrapListing',
      'sentryBundleSourcesRelease',
      'jreleaserConfig',
      'processReleaseManifest',
      'installRelease',
      'assembleFullRelease',
    ];
    for (const t of refused) {
      const r = checkGradleTask(t, KNOWN);
      expect(r.ok, t).toBe(false);
      expect((r as { blocked?: true }).blocked, t).toBe(true);
    }
    for (const t of allowed) {
      expect(checkGradleTask(t, KNOWN), t).toEqual({ ok: true });
      expect(checkGradleTask(t, STRICT), t).toEqual({ ok: true });
    }
  });

  it('learns task names from Gradle output lines', () => {
    expect(taskNameOfLine('> Task :app:compileDemoDebugKotlin UP-TO-DATE')).toBe('compileDemoDebugKotlin');
    expect(taskNameOfLine('> Task clean')).toBe('clean');
    expect(taskNameOfLine('assembleDebug - Assembles main output for variant debug')).toBe('assembleDebug');
    expect(taskNameOfLine('app:publishReleaseBundle - Uploads App Bundle for release.')).toBe(
      'publishReleaseBundle',
    );
    expect(taskNameOfLine('BUILD SUCCESSFUL in 3s')).toBe(null);
  });
});
