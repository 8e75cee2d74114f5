import { afterEach, describe, expect, it } from 'vitest';
import { writeApk } from '../../../util/apk.js';
import { createSimDevice } from '../../control/index.js';
import type { SimDevice } from '../../device-api.js';
import { SAMPLE_PACKAGE } from '../../sample-app.js';
import { encodeSimTests, SIM_TESTS_ENTRY, simTestsInSource, type SimTestCase } from '../../test-apk.js';
import { sampleProjectFiles } from '../../sample-project/project-files.js';
import { runOn } from '../collect-io.js';
import { testIdentity } from '../../../../tests/helpers/sim-identity.js';
import { javaHash, selectTests } from './runner-args.js';

const TESTS: SimTestCase[] = [
  {
    className: 'com.droidbus.sample.LoginActivityTest',
    method: 'packageNameIsTheSampleApp',
    usesUiAutomation: false,
  },
  {
    className: 'com.droidbus.sample.LoginActivityTest',
    method: 'signInFormIsOnScreen',
    usesUiAutomation: false,
  },
  { className: 'com.droidbus.sample.home.HomeTest', method: 'listShowsForty', usesUiAutomation: false },
  { className: 'com.droidbus.other.OtherTest', method: 'other', usesUiAutomation: false },
];
const names = (r: ReturnType<typeof selectTests>): string[] =>
  'error' in r
    ? [r.error]
    : r.tests.map((t) => `${t.className.slice(t.className.lastIndexOf('.') + 1)}#${t.method}`);

/** Installs a test APK of the sample app whose instrumentation runs `tests`. */
async function installTests(dev: SimDevice, tests: readonly SimTestCase[]): Promise<void> {
  const apk = writeApk({
    packageName: `${SAMPLE_PACKAGE}.test`,
    versionCode: 0,
    versionName: '',
    minSdk: 24,
    targetSdk: 35,
    compileSdk: 35,
    debuggable: true,
    activities: [],
    instrumentation: {
      name: 'androidx.test.runner.AndroidJUnitRunner',
      targetPackage: SAMPLE_PACKAGE,
      label: 'Tests',
    },
    extraEntries: [{ name: SIM_TESTS_ENTRY, data: encodeSimTests(tests) }],
  });
  expect((await runOn(dev, `cmd package install -S ${apk.length}`, { stdin: apk })).stdout).toContain(
    'Success',
  );
}

describe("AndroidJUnitRunner's selection arguments", () => {
  it("hashes as Java's String.hashCode does", () => {
    // Values Java prints for "".hashCode(), "abc".hashCode(), "hello".hashCode() and a long string that overflows.
    expect([javaHash(''), javaHash('abc'), javaHash('hello'), javaHash('polygenelubricants')]).toEqual([
      0, 96354, 99162322, -2147483648,
    ]);
  });

  it('selects by class, Class#method, package and their not- forms', () => {
    expect(
      names(
        selectTests(
          TESTS,
          new Map([['class', 'com.droidbus.sample.LoginActivityTest#signInFormIsOnScreen']]),
        ),
      ),
    ).toEqual(['LoginActivityTest#signInFormIsOnScreen']);
    expect(names(selectTests(TESTS, new Map([['package', 'com.droidbus.sample']])))).toEqual([
      'LoginActivityTest#packageNameIsTheSampleApp',
      'LoginActivityTest#signInFormIsOnScreen',
      'HomeTest#listShowsForty',
    ]);
    expect(
      names(
        selectTests(
          TESTS,
          new Map([
            ['package', 'com.droidbus.sample'],
            ['notPackage', 'com.droidbus.sample.home'],
          ]),
        ),
      ),
    ).toEqual(['LoginActivityTest#packageNameIsTheSampleApp', 'LoginActivityTest#signInFormIsOnScreen']);
    expect(
      names(selectTests(TESTS, new Map([['notClass', 'com.droidbus.sample.LoginActivityTest']]))),
    ).toEqual(['HomeTest#listShowsForty', 'OtherTest#other']);
    // A filter that matches nothing selects nothing.
    expect(names(selectTests(TESTS, new Map([['class', 'com.droidbus.sample.Nope']])))).toEqual([]);
  });

  it('splits into shards that together hold every test once, and refuses a bad shard', () => {
    const shards = [0, 1, 2].map((i) =>
      names(
        selectTests(
          TESTS,
          new Map([
            ['numShards', '3'],
            ['shardIndex', String(i)],
          ]),
        ),
      ),
    );
    expect(shards.flat().sort()).toEqual(names(selectTests(TESTS, new Map())).sort());
    expect(
      names(
        selectTests(
          TESTS,
          new Map([
            ['numShards', '2'],
            ['shardIndex', '2'],
          ]),
        ),
      ),
    ).toEqual(['java.lang.IllegalArgumentException: Invalid sharding parameters: numShards=2, shardIndex=2']);
  });
});

describe('am instrument on a sim device', () => {
  let dev: SimDevice | undefined;
  afterEach(() => {
    dev?.close();
    dev = undefined;
  });

  it('runs only the selected test and logs its start and end under TestRunner, as androidx.test does', async () => {
    dev = createSimDevice({ identity: testIdentity(5554), logcatRate: 0, dumpLatencyMs: 5 });
    await installTests(dev, TESTS);
    await runOn(dev, 'logcat -c');
    const run = await runOn(
      dev,
      `am instrument -w -r -e class com.droidbus.sample.home.HomeTest#listShowsForty ${SAMPLE_PACKAGE}.test/androidx.test.runner.AndroidJUnitRunner`,
    );
    expect(run.stdout).toContain('INSTRUMENTATION_STATUS: numtests=1\n');
    expect(run.stdout).toContain('INSTRUMENTATION_STATUS: test=listShowsForty\n');
    expect(run.stdout).not.toContain('test=packageNameIsTheSampleApp');
    expect(run.stdout).toMatch(/OK \(1 test\)/);
    const log = (await runOn(dev, "logcat -d -s 'TestRunner:*'")).stdout;
    const lines = log.split('\n').filter((l) => l.includes('TestRunner'));
    expect(lines.map((l) => l.replace(/^.*TestRunner\s*:\s*/, ''))).toEqual([
      'run started: 1 test',
      'started: listShowsForty(com.droidbus.sample.home.HomeTest)',
      'finished: listShowsForty(com.droidbus.sample.home.HomeTest)',
      'run finished: 1 test, 0 failed, 0 ignored',
    ]);

    const none = await runOn(
      dev,
      `am instrument -w -r -e class com.droidbus.sample.Nope ${SAMPLE_PACKAGE}.test/androidx.test.runner.AndroidJUnitRunner`,
    );
    expect(none.stdout).toMatch(/OK \(0 tests\)/);
  });
});

describe('a test that sleeps a fixed time and then checks a view', () => {
  let dev: SimDevice | undefined;
  afterEach(() => {
    dev?.close();
    dev = undefined;
  });

  it('races the enter transition: fails some runs, the same ones on a fresh device, and never with animations off', async () => {
    const source = sampleProjectFiles()['app/src/androidTest/java/com/droidbus/sample/WelcomeTest.kt']!;
    const tests = simTestsInSource(source, 'WelcomeTest.kt');
    expect(tests).toEqual([
      {
        className: 'com.droidbus.sample.WelcomeTest',
        method: 'welcomeShowsAfterSignIn',
        usesUiAutomation: false,
        fixedWait: { ms: 300, file: 'WelcomeTest.kt', line: 23 },
      },
    ]);
    const outcomes = async (): Promise<string> => {
      dev = createSimDevice({
        identity: testIdentity(5554, { model: 'Pixel 9' }),
        logcatRate: 0,
        dumpLatencyMs: 5,
      });
      await installTests(dev, tests);
      let marks = '';
      for (let i = 0; i < 20; i++) {
        const out = (
          await runOn(
            dev,
            `am instrument -w -r ${SAMPLE_PACKAGE}.test/androidx.test.runner.AndroidJUnitRunner`,
          )
        ).stdout;
        marks += out.includes('INSTRUMENTATION_STATUS_CODE: -2') ? 'F' : '.';
        if (out.includes('INSTRUMENTATION_STATUS_CODE: -2')) {
          expect(out).toContain('NoMatchingViewException: No views in hierarchy found matching');
          expect(out).toContain(
            'at com.droidbus.sample.WelcomeTest.welcomeShowsAfterSignIn(WelcomeTest.kt:23)',
          );
        }
      }
      return marks;
    };
    const first = await outcomes();
    expect(first).toBe('FF.F.......F........');
    dev!.close();
    expect(await outcomes()).toBe(first);
    await runOn(dev!, 'settings put global transition_animation_scale 0');
    const out = (
      await runOn(dev!, `am instrument -w -r ${SAMPLE_PACKAGE}.test/androidx.test.runner.AndroidJUnitRunner`)
    ).stdout;
    expect(out).toMatch(/OK \(1 test\)/);
  });
});
