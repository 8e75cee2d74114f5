import { describe, expect, it } from 'vitest';
import { writeApk } from '../util/apk.js';
import { sampleProjectFiles } from './sample-project/project-files.js';
import { encodeSimTests, SIM_TESTS_ENTRY, simTestsInSource, simTestsOf } from './test-apk.js';

describe('the tests a test APK carries for the simulator', () => {
  it("reads the sample project's instrumented tests, and which use UI Automator", () => {
    const files = sampleProjectFiles();
    const source = Object.entries(files).find(([p]) => p.includes('/androidTest/'))?.[1] ?? '';
    expect(simTestsInSource(source)).toEqual([
      {
        className: 'com.droidbus.sample.LoginActivityTest',
        method: 'packageNameIsTheSampleApp',
        usesUiAutomation: false,
      },
      {
        className: 'com.droidbus.sample.LoginActivityTest',
        method: 'signInFormIsOnScreen',
        usesUiAutomation: true,
      },
    ]);
  });

  it('counts a UiDevice field for every test of its class, and an import for none', () => {
    const source = `package a.b
import androidx.test.uiautomator.UiDevice
class T {
    private val device = UiDevice.getInstance(InstrumentationRegistry.getInstrumentation())
    @Test fun one() {}
    @Test
    fun two() {}
}`;
    expect(simTestsInSource(source).map((t) => [t.method, t.usesUiAutomation])).toEqual([
      ['one', true],
      ['two', true],
    ]);
    expect(
      simTestsInSource(source.replace(/^\s*private val.*$/m, '')).map((t) => t.usesUiAutomation),
    ).toEqual([false, false]);
  });

  it('round-trips through an APK entry, and reads none from an APK without it or with garbage', () => {
    const tests = [{ className: 'a.B', method: 'c', usesUiAutomation: true }];
    const base = {
      packageName: 'a.b.test',
      versionCode: 1,
      versionName: '1',
      minSdk: 24,
      targetSdk: 35,
      activities: [],
    };
    expect(
      simTestsOf(
        writeApk({ ...base, extraEntries: [{ name: SIM_TESTS_ENTRY, data: encodeSimTests(tests) }] }),
      ),
    ).toEqual(tests);
    expect(simTestsOf(writeApk(base))).toEqual([]);
    expect(
      simTestsOf(
        writeApk({
          ...base,
          extraEntries: [{ name: SIM_TESTS_ENTRY, data: new TextEncoder().encode('{"x":') }],
        }),
      ),
    ).toEqual([]);
    expect(simTestsOf(null)).toEqual([]);
  });
});
