import { describe, expect, it } from 'vitest';
import { runsDeviceTests } from './device-tests.js';

describe('runsDeviceTests', () => {
  it("knows AGP's tasks that run instrumented tests on connected devices", () => {
    for (const task of [
      'connectedAndroidTest',
      'connectedCheck',
      'deviceCheck',
      ':app:connectedDemoDebugAndroidTest',
      'connectedFullReleaseAndroidTest',
    ]) {
      expect(runsDeviceTests(task, null), task).toBe(true);
    }
    for (const task of [
      'test',
      'check',
      'assembleDemoDebug',
      ':app:compileDemoDebugAndroidTestKotlin',
      'lint',
    ]) {
      expect(runsDeviceTests(task, null), task).toBe(false);
    }
  });

  it("reads Gradle's dry run when there was one (an abbreviation names no task on its own)", () => {
    expect(
      runsDeviceTests('cDDAT', [':app:packageDemoDebugAndroidTest', ':app:connectedDemoDebugAndroidTest']),
    ).toBe(true);
    expect(runsDeviceTests('cDDAT', [':app:compileDemoDebugAndroidTestKotlin'])).toBe(false);
  });
});
