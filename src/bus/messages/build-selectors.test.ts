import { describe, expect, it } from 'vitest';
import { runnerArgsOf, TEST_SELECTOR_RE } from './build.js';

describe("run_tests' test selectors", () => {
  it('become AndroidJUnitRunner arguments: class, notClass, package, notPackage', () => {
    expect(
      runnerArgsOf([
        'com.example.LoginTest#signIn',
        'com.example.HomeTest',
        '-com.example.SlowTest',
        'com.example.login.*',
        '-com.example.login.legacy.*',
      ]),
    ).toEqual({
      class: 'com.example.LoginTest#signIn,com.example.HomeTest',
      notClass: 'com.example.SlowTest',
      package: 'com.example.login',
      notPackage: 'com.example.login.legacy',
    });
    expect(runnerArgsOf([])).toEqual({});
  });

  it('refuse what is not a test name: options, shell words, Gradle flags', () => {
    for (const bad of [
      '-e debug true',
      'com.x.Test; reboot',
      '--tests',
      'com.x.*.Foo',
      'com.x.Test#a#b',
      '$(id)',
      '',
    ]) {
      expect(TEST_SELECTOR_RE.test(bad), bad).toBe(false);
    }
  });
});
