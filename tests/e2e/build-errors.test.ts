/**
 * Real Gradle failures (tests/fixtures/gradle, see its SOURCES.md) replayed by the sample project's
 * gradlew stand-in (SIM_GRADLE_REPLAY) through the built `droidbus mcp`: the errors come back from
 * get_build_errors with their file, line and column, parsed in the build actor as the output streamed.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp } from '../helpers/mcp-client.js';
import { ROOT, tempDir } from '../helpers/paths.js';
import { setTrust, textOf, writeSample } from '../helpers/build-project.js';

const home = tempDir('droidbus-build-errors-home-');
const work = tempDir('droidbus-build-errors-');
const project = path.join(work.dir, 'app');
const FIXTURES = path.join(ROOT, 'tests', 'fixtures', 'gradle');

beforeAll(async () => {
  await writeSample(project, home.dir);
  await setTrust(project, home.dir, true);
});
afterAll(() => {
  home.remove();
  work.remove();
});

interface Expected {
  source: string;
  file: string | null;
  line: number | null;
  column: number | null;
  task?: string;
  message: RegExp;
}

const CASES: [string, Expected][] = [
  [
    'kotlin-buildsrc.txt',
    {
      source: 'kotlin',
      file: 'D:/DevareaLocal/GIT/twilio-verify-android/buildSrc/src/main/kotlin/plugins/ktlint.gradle.kts',
      line: 30,
      column: 5,
      task: ':buildSrc:compileKotlin',
      message: /^Unresolved reference: main$/,
    },
  ],
  [
    'kotlin-old-format.txt',
    {
      source: 'kotlin',
      file: '/home/phelipe/Documentos/temp/TestCastle/node_modules/@castleio/react-native-castle/android/src/main/java/com/reactnativecastle/CastleModule.kt',
      line: 26,
      column: 35,
      message: /^Unresolved reference: VERSION_NAME$/,
    },
  ],
  [
    'javac-info-log.txt',
    {
      source: 'javac',
      file: '/home/suyash/textfairy/app/src/playstore/java/com/renard/ocr/analytics/AnalyticsWithGoogle.java',
      line: 76,
      column: 50,
      task: ':app:compilePlaystoreDebugJavaWithJavac',
      message: /^cannot find symbol/,
    },
  ],
  [
    'aapt2-agpbi.txt',
    {
      source: 'aapt2',
      file: 'Simple-Calculator/app/src/main/res/values-he/string.xml',
      line: 13,
      column: 5,
      task: ':app:processDebugResources',
      message: /^resource attr\/.* not found\.$/,
    },
  ],
  [
    'aapt2-range-windows.txt',
    {
      source: 'aapt2',
      file: expect.stringMatching(/\.xml$/) as unknown as string,
      line: 104,
      column: 5,
      task: ':app:processDebugResources',
      message: /^expected reference but got \(raw string\) #00000000\.$/,
    },
  ],
  [
    'kapt-hilt-stubs.txt',
    {
      source: 'kapt',
      file: 'android-dagger-to-hilt/app/build/tmp/kapt3/stubs/debug/com/example/android/dagger/di/AppSubcomponents.java',
      line: 7,
      column: 14,
      message: /^\[Hilt\]/,
    },
  ],
  [
    'r8-missing-class.txt',
    // An error without a location keeps its message.
    { source: 'r8', file: null, line: null, column: null, message: /^Missing class io\.reactivexport\./ },
  ],
];

describe('recorded Gradle failures replayed through run_gradle_task', () => {
  it.each(CASES)('%s comes back from get_build_errors with its location', async (fixture, expected) => {
    const session = await startMcp(['--project', project], {
      env: {
        DROIDBUS_HOME: home.dir,
        SIM_GRADLE_REPLAY: path.join(FIXTURES, fixture),
        SIM_GRADLE_DURATION_MS: '50',
      },
    });
    try {
      const run = await session.client.callTool({
        name: 'run_gradle_task',
        arguments: { task: 'assembleDebug' },
      });
      // Some posts were cut before Gradle's BUILD FAILED line, so the replay may exit 0: diagnostics
      // are parsed whatever the exit code.
      expect(textOf(run)).toMatch(/^BUILD (FAILED|SUCCESSFUL) — task 'assembleDebug'/);
      expect((run.structuredContent as { error_count: number }).error_count).toBeGreaterThan(0);
      const errors = await session.client.callTool({ name: 'get_build_errors', arguments: {} });
      const list = (errors.structuredContent as { errors: Record<string, unknown>[] }).errors;
      const { message, ...located } = expected;
      const hit = list.find(
        (d) =>
          d['source'] === expected.source &&
          d['line'] === expected.line &&
          (expected.file === null ? d['file'] === null : true) &&
          message.test(String(d['message'])),
      );
      expect(hit, JSON.stringify(list, null, 1)).toMatchObject({ severity: 'error', ...located });
      expect(textOf(errors)).toContain(
        expected.file === null ? String(hit?.['message']).split('\n')[0] : `:${expected.line}`,
      );
    } finally {
      await session.close();
    }
  });
});
