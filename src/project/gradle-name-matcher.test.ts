/**
 * The port held to Gradle's own spec: the cases of gradle/gradle's NameMatcherTest.groovy
 * (platforms/core-runtime/base-services/src/test/groovy/org/gradle/util/internal/), each as
 * Gradle states it, plus the selections of the droidbus issue measured against Gradle.
 */
import { describe, expect, it } from 'vitest';
import { matchName, nameMatchError } from './gradle-name-matcher.js';

/** `name` selects `match` among it and `extra`, in any order. */
function matches(name: string, match: string, extra: string[] = []): void {
  for (const items of [
    [match, ...extra],
    [...extra, match],
  ]) {
    const m = matchName(name, items);
    expect(m.selected, `${name} in [${items.join(', ')}]`).toBe(match);
    expect(m.matches).toEqual([match]);
  }
}

function doesNotMatch(name: string, items: string[]): void {
  const m = matchName(name, items);
  expect(m.selected, name).toBeNull();
  expect(m.matches, name).toEqual([]);
}

function ambiguous(name: string, items: string[], candidates: string[] = items): void {
  const m = matchName(name, items);
  expect(m.selected, name).toBeNull();
  expect(m.matches, name).toEqual([...candidates].sort());
}

describe("Gradle's NameMatcher, ported", () => {
  it('selects exact and prefix matches, in any case', () => {
    matches('name', 'name');
    matches('name', 'name', ['other']);
    matches('na', 'name', ['other']);
    matches('na', 'Name');
    matches('NA', 'name');
    matches('somena', 'someName');
    matches('somena', 'SomeName');
    matches('some na', 'Some Name');
    matches('somenamew', 'someNameWithExtra');
  });

  it('selects camel-case and kebab-case prefixes, digits as separators', () => {
    matches('sN', 'someName');
    matches('soN', 'someName');
    matches('SN', 'someName');
    matches('SN', 'SomeNameWithExtraStuff');
    matches('so_n', 'some_name');
    matches('so_n_wi_ext', 'some_Name_with_EXTRA');
    matches('so.n', 'some.name');
    matches('so n', 'some name');
    matches('ABC', 'ABC');
    matches('a9N', 'a9Name');
    matches('a9N', 'abc9Name');
    matches('a9n', 'abc9Name');
    matches('sN', 'some-name');
    matches('SN', 'some-name-with-extra-stuff');
    matches('a9N', 'abc9-name');
    matches('A9N', 'abc9-name');
    doesNotMatch('sN', ['some-Name']);
    doesNotMatch('A9N', ['abc9-Name']);
  });

  it('prefers earlier stages: exact, case-insensitive, whole camel case, case-sensitive prefix', () => {
    matches('name', 'name', ['Name', 'NAME']);
    matches('name', 'name', ['nam', 'n', 'NAM']);
    matches('someName', 'someName', ['someNameWithExtra']);
    matches('sName', 'sName', ['someName', 'sNames']);
    matches('ABC', 'ABC', ['AaBbCc']);
    matches('sName', 'sName', ['some-name', 'some-Name']);
    matches('sN', 'someName', ['someNameWithExtra']);
    matches('name', 'names', ['nameWithExtra']);
    matches('s_n', 'some_name', ['some_name_with_extra']);
    matches('sN', 'some-name', ['some-name-with-extra']);
    matches('soNa', 'someName', ['somename']);
    matches('SN', 'SomeName', ['someName']);
    matches('na1', 'name1', ['Name1', 'NAME1']);
    matches('someNameWith', 'someNameWithExtra', ['someNameOtherWithExtra']);
    matches('someNameWith', 'someNameWithExtra', ['somenamewithextra']);
    matches('sNW', 'someNameWithExtra', ['someNameOtherWithExtra']);
    matches('someNameWith', 'somenamewith', ['someNameWithExtra']);
    matches('somename', 'someName', ['someNameWithExtra']);
    matches('soNa', 'sona', ['someName']);
    matches('sN', 'some-name-with-extra', ['sand']);
    // gradle/gradle#23580: the case-sensitive prefix stage keeps the JDK's broad case-insensitive
    // class from making this ambiguous.
    matches('publishReleaseBundle', 'publishReleaseBundlePublicationToTempPublishRepository', [
      'publishReleaseObfuscatedBundlePublicationToTempPublishRepository',
    ]);
  });

  it('numbers separate camel-case words (gradle/gradle#1185)', () => {
    ambiguous('unique', ['unique1', 'uniqueA']);
    ambiguous('unique', ['unique1', 'uniquea']);
    matches('unique', 'unique', ['uniqueA']);
    matches('uni', 'unique', ['uniqueA']);
    ambiguous('uni', ['unique', 'unique2']);
  });

  it('fails on no match and on several, with Gradle’s messages', () => {
    doesNotMatch('name', []);
    doesNotMatch('name', ['na']);
    doesNotMatch('sN', ['otherName']);
    doesNotMatch('soN', ['saName']);
    doesNotMatch('', ['something']);
    doesNotMatch('name\\othername', ['other']);
    ambiguous('sN', ['someName', 'soNa', 'other'], ['someName', 'soNa']);
    ambiguous('sN', ['some-name', 'someName', 'other'], ['some-name', 'someName']);
    ambiguous('someName', ['somename', 'SomeName', 'other'], ['somename', 'SomeName']);
    expect(nameMatchError('thing', 'name', 'container', matchName('name', ['other']))).toBe(
      "thing 'name' not found in container.",
    );
    expect(nameMatchError('thing', 'n', 'container', matchName('n', ['number', 'name', 'other']))).toBe(
      "thing 'n' is ambiguous in container. Candidates are: 'name', 'number'.",
    );
    expect(nameMatchError('thing', 'name', 'container', matchName('name', ['other', 'lame', 'tame']))).toBe(
      "thing 'name' not found in container. Some candidates are: 'lame', 'tame'.",
    );
    expect(matchName('NAME', ['other', 'lame', 'tame']).nearMisses).toEqual(['lame', 'tame']);
  });

  it('handles non-English names', () => {
    matches('či', 'Čitač');
    matches('яЗ', 'якесьЗавдання');
    matches('де', 'дело', ['потеха']);
    matches('ΚΕ', 'κάποια-εργασία-με-επιπλέον-δεδομένα');
  });

  it('selects the leaving tasks the issue found Gradle running', () => {
    const tasks = [
      'closeAndReleaseSonatypeStagingRepository',
      'closeSonatypeStagingRepository',
      'initializeSonatypeStagingRepository',
      'findSonatypeStagingRepository',
      'emergeUploadReleaseAab',
      'createRelease',
      'assembleDebug',
      'compileDebugKotlin',
      'clean',
    ];
    expect(matchName('CloseAnd', tasks).selected).toBe('closeAndReleaseSonatypeStagingRepository');
    // With closeSonatypeStagingRepository present its whole camel-case match wins; without it the
    // broad case-insensitive stage reaches closeAndRelease….
    expect(matchName('closeSSRep', tasks).selected).toBe('closeSonatypeStagingRepository');
    expect(matchName('closeSSRep', tasks.slice(2).concat(tasks[0]!)).selected).toBe(
      'closeAndReleaseSonatypeStagingRepository',
    );
    expect(matchName('Initialize', tasks).selected).toBe('initializeSonatypeStagingRepository');
    expect(matchName('InitSonStaRepo', tasks).selected).toBe('initializeSonatypeStagingRepository');
    expect(matchName('Fi', tasks).selected).toBe('findSonatypeStagingRepository');
    expect(matchName('em', tasks).selected).toBe('emergeUploadReleaseAab');
    expect(matchName('Cr', tasks).selected).toBe('createRelease');
    expect(matchName('aD', tasks).selected).toBe('assembleDebug');
    expect(matchName('c', tasks).selected).toBe('clean');
    expect(matchName('co', tasks).selected).toBe('compileDebugKotlin');
    ambiguous('clo', tasks, ['closeAndReleaseSonatypeStagingRepository', 'closeSonatypeStagingRepository']);
  });
});
