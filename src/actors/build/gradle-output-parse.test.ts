import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BuildDiagnostic } from './diagnostic.js';
import { createGradleOutputParser, parseGradleOutput } from './gradle-output-parse.js';

const DIR = path.resolve(import.meta.dirname, '../../../tests/fixtures/gradle');
const fixture = (name: string): string => readFileSync(path.join(DIR, name), 'utf8');

type Expect = Partial<
  Pick<
    BuildDiagnostic,
    'severity' | 'source' | 'file' | 'line' | 'column' | 'endLine' | 'endColumn' | 'task' | 'code'
  >
> & {
  message?: string | RegExp;
};

function shape(d: BuildDiagnostic, e: Expect): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(e) as (keyof Expect)[]) {
    out[k] =
      k === 'message' && e.message instanceof RegExp
        ? e.message.test(d.message)
          ? e.message
          : d.message
        : d[k as keyof BuildDiagnostic];
  }
  return out;
}

function expectDiagnostics(name: string, expected: Expect[]): ReturnType<typeof parseGradleOutput> {
  const parsed = parseGradleOutput(fixture(name));
  expect(parsed.diagnostics.map((d, i) => shape(d, expected[i] ?? {}))).toEqual(expected);
  return parsed;
}

const TWILIO = 'D:/DevareaLocal/GIT/twilio-verify-android/buildSrc/src/main/kotlin/plugins/ktlint.gradle.kts';
const FLUTTER_MAIN =
  'C:/Users/dcbrh/AndroidStudioProjects/Soundsplore_MobileApp/android/app/src/main/kotlin/com/soundsplore/soundsplore/MainActivity.kt';

describe('real Gradle failures come back as structured diagnostics', () => {
  it('Kotlin errors with file:///D:/ URIs name their file, line, column and the failed task', () => {
    const { summary } = expectDiagnostics('kotlin-buildsrc.txt', [
      {
        severity: 'error',
        source: 'kotlin',
        file: TWILIO,
        line: 30,
        column: 5,
        task: ':buildSrc:compileKotlin',
        message: 'Unresolved reference: main',
      },
      {
        severity: 'error',
        source: 'kotlin',
        file: TWILIO,
        line: 42,
        column: 5,
        task: ':buildSrc:compileKotlin',
        message: 'Unresolved reference: main',
      },
    ]);
    expect(summary).toMatchObject({
      result: 'failed',
      failedTasks: [':buildSrc:compileKotlin'],
      truncated: true,
    });
  });

  it('Kotlin errors printed before any task header get the task "What went wrong" names; BUILD FAILED in 9s is the duration', () => {
    const { summary } = expectDiagnostics('kotlin-windows-file-uri.txt', [
      {
        source: 'kotlin',
        file: FLUTTER_MAIN,
        line: 3,
        column: 8,
        task: ':app:compileDebugKotlin',
        message: 'Unresolved reference: io',
      },
      {
        source: 'kotlin',
        file: FLUTTER_MAIN,
        line: 5,
        column: 21,
        task: ':app:compileDebugKotlin',
        message: 'Unresolved reference: FlutterActivity',
      },
    ]);
    expect(summary).toMatchObject({
      result: 'failed',
      durationMs: 9000,
      truncated: false,
      failedTasks: [':app:compileDebugKotlin'],
    });
  });

  it('the older Kotlin form "File.kt: (26, 35): msg" is read, on Linux and Windows paths', () => {
    expectDiagnostics('kotlin-old-format.txt', [
      {
        file: '/home/phelipe/Documentos/temp/TestCastle/node_modules/@castleio/react-native-castle/android/src/main/java/com/reactnativecastle/CastleModule.kt',
        line: 26,
        column: 35,
        task: ':castleio_react-native-castle:compileReleaseKotlin',
        message: 'Unresolved reference: VERSION_NAME',
      },
    ]);
    const win =
      'C:\\flutter\\.pub-cache\\hosted\\pub.dartlang.org\\blue_print_pos-0.0.12\\android\\src\\main\\kotlin\\com\\ayeee\\blue_print_pos\\BluePrintPosPlugin.kt';
    const { summary } = expectDiagnostics('kotlin-old-format-windows.txt', [
      { file: win, line: 51, column: 62, message: 'Unresolved reference: R' },
      { file: win, line: 52, column: 60, message: 'Unresolved reference: currentWindowMetrics' },
      { file: win, line: 53, column: 98, message: 'Unresolved reference: Type' },
    ]);
    expect(summary.durationMs).toBe(18000);
  });

  it('Kotlin warnings are warnings', () => {
    const { diagnostics, summary } = parseGradleOutput(fixture('kotlin-warnings-old-format.txt'));
    expect(diagnostics).toHaveLength(6);
    expect(
      diagnostics.every(
        (d) => d.severity === 'warning' && d.source === 'kotlin' && d.line !== null && d.column !== null,
      ),
    ).toBe(true);
    expect(summary).toMatchObject({ result: 'unknown', errorCount: 0, warningCount: 6 });
  });

  it('javac errors take their column from the caret line and keep the symbol/location details', () => {
    expectDiagnostics('javac-info-log.txt', [
      {
        severity: 'error',
        source: 'javac',
        file: '/home/suyash/textfairy/app/src/playstore/java/com/renard/ocr/analytics/AnalyticsWithGoogle.java',
        line: 76,
        column: 50,
        task: ':app:compilePlaystoreDebugJavaWithJavac',
        message: 'cannot find symbol\nsymbol:   variable global_tracker\nlocation: class xml',
      },
    ]);
    const { summary } = expectDiagnostics('javac-windows.txt', [
      {
        file: 'D:\\React\\awesome\\android\\app\\src\\main\\java\\com\\awesome\\MainApplication.java',
        line: 19,
        column: 14,
        task: ':app:compileDebugJavaWithJavac',
        message: 'cannot find symbol\nsymbol: variable BuildConfig',
      },
    ]);
    expect(summary).toMatchObject({ durationMs: 16397, result: 'failed' });
    expectDiagnostics('javac-unit-test.txt', [
      { line: 50, column: 21, task: ':data:compileDebugUnitTestJavaWithJavac', source: 'javac' },
    ]);
  });

  it('AAPT2 AGPBI JSON and the same error repeated in "What went wrong" give one diagnostic with 1-based line and column range', () => {
    expectDiagnostics('aapt2-agpbi.txt', [
      {
        severity: 'error',
        source: 'aapt2',
        file: 'Simple-Calculator/app/src/main/res/values-he/string.xml',
        line: 13,
        column: 5,
        endColumn: 61,
        task: ':app:processDebugResources',
        message:
          /^resource attr\/איך עובד לחצן \(נקה\) \(aka com\.simplemobiletools\.calculator\.debug:attr\/.*not found\.$/,
      },
    ]);
  });

  it('AGPBI lines with escaped Windows paths and only a start line', () => {
    expectDiagnostics('aapt2-agpbi-windows.txt', [
      {
        file: 'C:\\Users\\Ry\\Documents\\GitHub\\mupen64plus-ae\\app\\src\\main\\res\\layout-land\\scan_roms_activity.xml',
        line: 71,
        column: null,
        source: 'aapt2',
      },
      {
        file: 'C:\\Users\\Ry\\Documents\\GitHub\\mupen64plus-ae\\app\\src\\main\\res\\menu\\game_activity.xml',
        line: 100,
        column: null,
        source: 'aapt2',
      },
    ]);
  });

  it('AAPT ranges line:col-line:col are read as a start and an end', () => {
    expectDiagnostics('aapt2-range-windows.txt', [
      {
        line: 104,
        column: 5,
        endLine: 108,
        endColumn: 13,
        task: ':app:processDebugResources',
        message: 'expected reference but got (raw string) #00000000.',
      },
      { line: 3, column: 5, endLine: 8, endColumn: 13, task: ':app:processDebugResources' },
    ]);
  });

  it('AGP 3.2 resource errors and the AGP version from the aapt2 download', () => {
    const { summary } = expectDiagnostics('aapt2-agp32.txt', [
      {
        source: 'aapt2',
        file: '/builds/mid-android/mid-android/app/src/main/res/layout/activity_forgot_password.xml',
        line: 12,
        task: ':app:processDebugResources',
        message:
          'resource font/proximanovasemibold (aka com.myidealdoctor.mid:font/proximanovasemibold) not found.',
      },
    ]);
    expect(summary.agpVersion).toBe('3.2.0');
  });

  it('R8 missing classes: the summary points at missing_rules.txt and each missing class is an error', () => {
    const one = expectDiagnostics('r8-missing-class.txt', [
      {
        source: 'r8',
        file: '/Users/fred/Repositories/app/android/app/build/outputs/mapping/release/missing_rules.txt',
        task: ':android:app:minifyReleaseWithR8',
      },
      {
        source: 'r8',
        file: null,
        message: /^Missing class io\.reactivexport\.annotations\.NonNull \(referenced from: /,
      },
    ]);
    expect(one.summary.reports).toEqual([
      '/Users/fred/Repositories/app/android/app/build/outputs/mapping/release/missing_rules.txt',
    ]);
    const many = parseGradleOutput(fixture('r8-missing-classes.txt'));
    expect(many.diagnostics.map((d) => d.message.match(/^Missing class (\S+)/)?.[1] ?? 'summary')).toEqual([
      'summary',
      'com.faithiot.qrcode.R$drawable',
      'com.faithiot.qrcode.R$id',
      'com.faithiot.qrcode.R$layout',
      'com.faithiot.qrcode.R$raw',
      'com.faithiot.qrcode.R$styleable',
    ]);
    expect(many.diagnostics.every((d) => d.task === ':app:minifyReleaseWithR8' && d.source === 'r8')).toBe(
      true,
    );
  });

  it("keeps a task's second failure that its located errors do not explain (a JVM-target mismatch)", () => {
    // Composed from two real outputs: kotlin-windows-file-uri.txt (two located errors, then the generic
    // "Compilation error" block), and the JVM-target failure of ko2ic/image_downloader issue #155, in
    // Gradle's "Build completed with 2 failures" form.
    const located = fixture('kotlin-windows-file-uri.txt').split('FAILURE:')[0] as string;
    const text = [
      located.trimEnd(),
      '',
      'FAILURE: Build completed with 2 failures.',
      '',
      '1: Task failed with an exception.',
      '-----------',
      '* What went wrong:',
      "Execution failed for task ':app:compileDebugKotlin'.",
      '> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction',
      '   > Compilation error. See log for more details',
      '',
      '==============================================================================',
      '',
      '2: Task failed with an exception.',
      '-----------',
      '* What went wrong:',
      "Execution failed for task ':app:compileDebugKotlin'.",
      "> Inconsistent JVM-target compatibility detected for tasks 'compileDebugJavaWithJavac' (1.8) and 'compileDebugKotlin' (17).",
      '',
      '  Consider using JVM Toolchain: https://kotl.in/gradle/jvm/toolchain',
      '  Learn more about JVM-target validation: https://kotl.in/gradle/jvm/target-validation',
      '',
      '* Try:',
      '> Run with --stacktrace option to get the stack trace.',
      '',
      'BUILD FAILED in 9s',
    ].join('\n');
    const { diagnostics } = parseGradleOutput(text);
    expect(diagnostics.map((d) => [d.source, d.line, d.message.split('\n')[0]])).toEqual([
      ['kotlin', 3, 'Unresolved reference: io'],
      ['kotlin', 5, 'Unresolved reference: FlutterActivity'],
      [
        'gradle',
        null,
        "Inconsistent JVM-target compatibility detected for tasks 'compileDebugJavaWithJavac' (1.8) and 'compileDebugKotlin' (17).",
      ],
    ]);
  });

  it('R8 missing classes it only warns about stay warnings, the bare continuation lines too', () => {
    const parsed = parseGradleOutput(fixture('r8-missing-class-warning.txt'));
    expect(
      parsed.diagnostics.map((d) => [d.severity, d.message.match(/^Missing class (\S+)/)?.[1] ?? d.file]),
    ).toEqual([
      ['warning', '/Users/mcomella/dev/fenix/app/build/outputs/mapping/nightly/missing_rules.txt'],
      ['warning', 'io.sentry.android.fragment.FragmentLifecycleIntegration'],
      ['warning', 'io.sentry.android.timber.SentryTimberIntegration'],
    ]);
    expect(parsed.diagnostics.every((d) => d.task === ':app:minifyNightlyWithR8' && d.source === 'r8')).toBe(
      true,
    );
  });

  it('KSP errors with and without a location, including a message on the following line', () => {
    expectDiagnostics('ksp-no-providers.txt', [
      {
        source: 'ksp',
        file: null,
        task: ':app:kspDebugKotlin',
        message: 'No providers found in processor classpath.',
      },
      {
        source: 'ksp',
        file: null,
        task: ':app:kspDebugKotlin',
        message: 'Error occurred in KSP, check log for detail',
      },
    ]);
    expectDiagnostics('ksp-room-missing-type.txt', [
      {
        source: 'ksp',
        file: '/home/runner/work/rikkahub/rikkahub/app/src/main/java/me/rerere/rikkahub/data/db/dao/ConversationDAO.kt',
        line: 20,
        column: null,
        task: ':app:kspReleaseKotlin',
        message:
          "[MissingType]: Element 'me.rerere.rikkahub.data.db.dao.ConversationDAO' references a type that is not present",
      },
      {
        source: 'ksp',
        file: null,
        message:
          /^androidx\.room\.RoomKspProcessor was unable to process .*\nbecause not all of its dependencies could be resolved\./,
      },
    ]);
  });

  it('kapt errors in build/tmp/kapt3/stubs keep the caret column and the Hilt explanation, reported once', () => {
    expectDiagnostics('kapt-hilt-stubs.txt', [
      {
        source: 'kapt',
        file: 'android-dagger-to-hilt/app/build/tmp/kapt3/stubs/debug/com/example/android/dagger/di/AppSubcomponents.java',
        line: 7,
        column: 14,
        message:
          /^\[Hilt\]\ncom\.example\.android\.dagger\.di\.AppSubcomponents must also be annotated with @InstallIn\./,
      },
      {
        source: 'kapt',
        file: '/home/ny/AndroidStudioProjects/DaggerHilt/android-dagger-to-hilt/app/build/tmp/kapt3/stubs/debug/com/example/android/dagger/di/StorageModule.java',
        line: 7,
        column: 17,
      },
      {
        severity: 'warning',
        file: null,
        message: /^warning: The following options were not recognized by any processor/,
      },
    ]);
  });

  it('lint errors carry their issue id; the ones listed inside "What went wrong" get the lint task', () => {
    expectDiagnostics('lint-abort.txt', [
      {
        source: 'lint',
        file: '/home/circleci/project/app/src/main/res/values/strings.xml',
        line: 174,
        code: 'MissingTranslation',
        task: ':app:lint',
      },
      {
        source: 'lint',
        line: 272,
        code: 'MissingTranslation',
        message: '"share_label" is not translated in "es" (Spanish)',
      },
    ]);
    expectDiagnostics('lint-vital.txt', [
      { source: 'lint', line: 33, task: ':app:lintVitalRelease', code: 'MissingTranslation' },
      { source: 'lint', line: 34, task: ':app:lintVitalRelease' },
    ]);
  });

  it('a lint failure with no listed errors keeps its message and the report paths', () => {
    const { summary } = expectDiagnostics('lint-old-reports.txt', [
      {
        severity: 'error',
        source: 'lint',
        file: null,
        task: ':app:lint',
        message: 'Lint found errors in the project; aborting build.',
      },
    ]);
    expect(summary.reports).toEqual([
      '/media/harryvanderwolf/64GB/software/lbdroid/HFPClient/app/build/reports/lint-results.html',
      '/media/harryvanderwolf/64GB/software/lbdroid/HFPClient/app/build/reports/lint-results.xml',
    ]);
    expect(summary).toMatchObject({ durationMs: 11352, failedTasks: [':app:lint'] });
  });

  it('configuration cache problems: one per task, the report path, and the Gradle version from the docs links', () => {
    const two = expectDiagnostics('config-cache-problems.txt', [
      {
        source: 'config-cache',
        task: ':tooling:vulcan:createFocusSettings',
        message: "invocation of 'Task.project' at execution time is unsupported.",
      },
      { source: 'config-cache', task: ':tooling:vulcan:focus' },
    ]);
    expect(two.summary.gradleVersion).toBe('7.4');
    expect(two.summary.reports[0]).toMatch(
      /^\/Users\/zsweers\/dev\/slack\/android3\/build\/reports\/configuration-cache\/.*\/configuration-cache-report\.html$/,
    );
    const one = expectDiagnostics('config-cache-one-problem.txt', [
      { source: 'config-cache', severity: 'error', task: ':composeApp:stabilityCheck' },
    ]);
    expect(one.summary.gradleVersion).toBe('8.14.3');
  });

  it('duplicate classes are reported once per pair of clashing artifacts, with a count', () => {
    const { diagnostics } = parseGradleOutput(fixture('duplicate-classes.txt'));
    expect(diagnostics.map((d) => [d.source, d.task, d.message.replace(/ \(org[^)]*\)/g, '')])).toEqual([
      [
        'duplicate-class',
        ':app:checkDebugDuplicateClasses',
        'Duplicate class kotlin.collections.jdk8.CollectionsJDK8Kt found in modules jetified-kotlin-stdlib-1.8.10 and jetified-kotlin-stdlib-jdk8-1.7.10 (and 1 more duplicate classes from the same modules)',
      ],
      [
        'duplicate-class',
        ':app:checkDebugDuplicateClasses',
        'Duplicate class kotlin.internal.jdk7.JDK7PlatformImplementations found in modules jetified-kotlin-stdlib-1.8.10 and jetified-kotlin-stdlib-jdk7-1.7.10 (and 1 more duplicate classes from the same modules)',
      ],
    ]);
    expectDiagnostics('duplicate-classes-aar.txt', [
      {
        source: 'duplicate-class',
        task: ':demo:checkDebugDuplicateClasses',
        message: /com\.duapps\.ad\.DuNativeAd found .* \(and 1 more/,
      },
    ]);
  });

  it('a successful build: result, duration and the Gradle version', () => {
    const { diagnostics, summary } = parseGradleOutput(fixture('success-deprecation.txt'));
    expect(diagnostics).toEqual([]);
    expect(summary).toMatchObject({
      result: 'success',
      durationMs: 1000,
      truncated: false,
      gradleVersion: '7.3',
      failedTasks: [],
    });
  });

  it('the AGP version from the compileSdk warning', () => {
    expect(parseGradleOutput(fixture('agp-compile-sdk-warning.txt')).summary.agpVersion).toBe('7.0.4');
  });

  it('output cut short: no BUILD line, the last task, and the exit code decides the result', () => {
    const text = fixture('cut-short-tasks.txt');
    expect(parseGradleOutput(text).summary).toMatchObject({
      result: 'unknown',
      truncated: true,
      lastTask: ':app:mergeDexDebug',
    });
    expect(parseGradleOutput(text, { exitCode: 0 }).summary.result).toBe('success');
    expect(parseGradleOutput(text, { exitCode: 137 }).summary.result).toBe('failed');
    expect(parseGradleOutput(text, { cancelled: true }).summary).toMatchObject({
      result: 'cancelled',
      truncated: true,
    });
  });

  it('a failed task line is enough to say what failed when the output stops right after it', () => {
    const { summary } = parseGradleOutput(
      '> Task :app:preBuild UP-TO-DATE\n> Task :app:compileDebugKotlin FAILED\n',
    );
    expect(summary).toMatchObject({
      result: 'failed',
      failedTasks: [':app:compileDebugKotlin'],
      truncated: true,
    });
  });
});

describe('parser behaviour', () => {
  it('an error without a location keeps its "What went wrong" message, with the build file line from "* Where:"', () => {
    const { diagnostics } = parseGradleOutput(
      [
        'FAILURE: Build failed with an exception.',
        '',
        '* Where:',
        "Build file '/work/app/build.gradle' line: 12",
        '',
        '* What went wrong:',
        "A problem occurred evaluating project ':app'.",
        '> Could not find method implementatoin() for arguments [androidx.core:core-ktx:1.12.0] on object of type org.gradle.api.internal.artifacts.dsl.dependencies.DefaultDependencyHandler.',
        '',
        '* Try:',
        'BUILD FAILED in 2s',
      ].join('\n'),
    );
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        source: 'gradle',
        file: '/work/app/build.gradle',
        line: 12,
        message:
          "A problem occurred evaluating project ':app'.\nCould not find method implementatoin() for arguments [androidx.core:core-ktx:1.12.0] on object of type org.gradle.api.internal.artifacts.dsl.dependencies.DefaultDependencyHandler.",
      }),
    ]);
  });

  it('feeding the output in arbitrary chunks gives the same diagnostics and summary as feeding it whole', () => {
    const names = readdirSync(DIR).filter((f) => f.endsWith('.txt'));
    const texts = names.map((n) => fixture(n));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: texts.length - 1 }),
        fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 30 }),
        (i, sizes) => {
          const text = texts[i] as string;
          const whole = parseGradleOutput(text);
          const p = createGradleOutputParser();
          let pos = 0;
          let k = 0;
          while (pos < text.length) {
            const n = sizes[k++ % sizes.length] as number;
            p.pushChunk(text.slice(pos, pos + n));
            pos += n;
          }
          p.end({ exitCode: null });
          expect(p.diagnostics()).toEqual(whole.diagnostics);
          expect(p.summary()).toEqual(whole.summary);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('diagnostics come out as soon as the line that completes them arrives, with the current task', () => {
    const p = createGradleOutputParser();
    expect(p.pushLine('> Task :app:compileDebugKotlin')).toEqual([]);
    expect(p.currentTask).toBe(':app:compileDebugKotlin');
    const got = p.pushLine('e: file:///p/A.kt:1:2 Boom');
    expect(got).toEqual([
      expect.objectContaining({
        file: '/p/A.kt',
        line: 1,
        column: 2,
        task: ':app:compileDebugKotlin',
        outputLine: 2,
      }),
    ]);
    // A javac error is complete only when the next non-detail line shows up.
    expect(p.pushLine('/p/B.java:3: error: nope')).toEqual([]);
    expect(p.pushLine('    foo();')).toEqual([]);
    expect(p.pushLine('    ^')).toEqual([]);
    expect(p.pushLine('1 error')).toEqual([
      expect.objectContaining({ file: '/p/B.java', line: 3, column: 5 }),
    ]);
  });

  it('CRLF line endings, ANSI colours and Flutter timestamps do not hide diagnostics', () => {
    const { diagnostics } = parseGradleOutput(
      '\x1b[31me: file:///p/A.kt:4:1 Red\x1b[0m\r\n[  +12 ms] e: /p/B.kt: (5, 6): Old\r\n',
    );
    expect(diagnostics.map((d) => [d.file, d.line, d.column, d.message])).toEqual([
      ['/p/A.kt', 4, 1, 'Red'],
      ['/p/B.kt', 5, 6, 'Old'],
    ]);
  });

  it('a build script error (file:///…/build.gradle.kts:12:5: message) keeps its location', () => {
    const { diagnostics } = parseGradleOutput(
      'e: file:///w/app/build.gradle.kts:12:5: Unresolved reference: implementatio',
    );
    expect(diagnostics.map((d) => [d.file, d.line, d.column, d.message])).toEqual([
      ['/w/app/build.gradle.kts', 12, 5, 'Unresolved reference: implementatio'],
    ]);
  });

  it("each failed test is an error with its task and the first lines of its trace (AGP's connected runner)", () => {
    // A public CI log of an app's connectedDebugAndroidTest (a Compose assertion, tab-indented trace).
    const { diagnostics } = parseGradleOutput(
      [
        '> Task :app:connectedDebugAndroidTest',
        'Starting 4 tests on emulator-5554 - 14',
        '',
        'emulator-5554 - 14 Tests 1/4 completed. (0 skipped) (0 failed)',
        '',
        '> Task :app:connectedDebugAndroidTest',
        '',
        'com.pavithran.paisa.LoggingFlowTest > inputFieldClearsAfterLogging[emulator-5554 - 14] FAILED ',
        "\tjava.lang.AssertionError: Failed to assert the following: (EditableText = '')",
        '\tSemantics of the node:',
        'Tests on emulator-5554 - 14 failed: There was 1 failure(s).',
        '',
        'Finished 4 tests on emulator-5554 - 14',
        '',
        '> Task :app:connectedDebugAndroidTest FAILED',
      ].join('\n'),
    );
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        source: 'test',
        task: ':app:connectedDebugAndroidTest',
        message:
          "com.pavithran.paisa.LoggingFlowTest > inputFieldClearsAfterLogging[emulator-5554 - 14] FAILED\njava.lang.AssertionError: Failed to assert the following: (EditableText = '')\nSemantics of the node:",
        outputLine: 8,
      }),
    ]);
  });

  it('a failed unit test keeps its trace and no frame of it reads as another diagnostic', () => {
    // Gradle's default test logging: the exception and its frames indented by four spaces.
    const frames = Array.from(
      { length: 30 },
      (_, i) => `        at com.example.Foo.step${i}(Foo.kt:${i + 1})`,
    );
    const { diagnostics } = parseGradleOutput(
      [
        '> Task :app:testDebugUnitTest',
        '',
        'com.example.CartTest > totalOfAnEmptyCartIsZero FAILED',
        '    java.lang.AssertionError at CartTest.kt:12',
        ...frames,
        '',
        '2 tests completed, 1 failed',
        '',
        '> Task :app:testDebugUnitTest FAILED',
      ].join('\n'),
    );
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ source: 'test', task: ':app:testDebugUnitTest' });
    expect(diagnostics[0]!.message.split('\n')).toEqual([
      'com.example.CartTest > totalOfAnEmptyCartIsZero FAILED',
      'java.lang.AssertionError at CartTest.kt:12',
      ...frames.slice(0, 5).map((f) => f.trim()),
    ]);
  });

  it('failing unit tests keep the What went wrong message and the report path', () => {
    const { diagnostics, summary } = parseGradleOutput(
      [
        '> Task :app:testDebugUnitTest FAILED',
        '',
        '* What went wrong:',
        "Execution failed for task ':app:testDebugUnitTest'.",
        '> There were failing tests. See the report at: file:///w/app/build/reports/tests/testDebugUnitTest/index.html',
        '',
        '* Try:',
      ].join('\n'),
    );
    expect(diagnostics).toEqual([
      expect.objectContaining({
        source: 'gradle',
        task: ':app:testDebugUnitTest',
        message:
          'There were failing tests. See the report at: file:///w/app/build/reports/tests/testDebugUnitTest/index.html',
      }),
    ]);
    expect(summary.reports).toEqual(['/w/app/build/reports/tests/testDebugUnitTest/index.html']);
  });

  it('file URIs with escaped characters are decoded', () => {
    const { diagnostics } = parseGradleOutput('e: file:///Users/me/My%20App/A.kt:1:1 x');
    expect(diagnostics[0]?.file).toBe('/Users/me/My App/A.kt');
  });

  it('keeps at most the configured number of diagnostics and counts the rest', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `e: /p/A.kt: (${i + 1}, 1): e${i}`).join('\n');
    const { diagnostics, summary } = parseGradleOutput(lines, { maxDiagnostics: 10 });
    expect(diagnostics).toHaveLength(10);
    expect(summary.droppedDiagnostics).toBe(40);
  });

  it('APK and mapping paths the output mentions are collected', () => {
    const { summary } = parseGradleOutput(
      [
        '✓ Built build/app/outputs/flutter-apk/app-release.apk (18.2MB)',
        'R8 mapping: /w/app/build/outputs/mapping/release/mapping.txt',
      ].join('\n'),
    );
    expect(summary.apks).toEqual(['build/app/outputs/flutter-apk/app-release.apk']);
    expect(summary.mappingFiles).toEqual(['/w/app/build/outputs/mapping/release/mapping.txt']);
  });

  it('garbage input never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (s) => {
        expect(() => parseGradleOutput(s)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
