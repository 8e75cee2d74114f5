import { describe, expect, it } from 'vitest';
import { exitInfoSupported } from './app-dumps.js';
import { fixture } from './test-fixtures.js';

describe('exitInfoSupported', () => {
  it('is true from Android 11 (API 30) on, for a real exit-info dump', () => {
    expect(exitInfoSupported(30, fixture('dumpsys-exit-info-firetv.txt'))).toBe(true);
    expect(exitInfoSupported(35, '')).toBe(true);
  });

  it('is false below API 30, and whenever the device refuses the command', () => {
    expect(exitInfoSupported(29, '')).toBe(false);
    // What ActivityManagerShellCommand answers for a sub-command it does not have.
    expect(
      exitInfoSupported(null, 'Bad activity command, or no activities match: exit-info\nUse -h for help.\n'),
    ).toBe(false);
  });

  it('trusts the dump when the SDK level is unknown', () => {
    expect(exitInfoSupported(null, fixture('dumpsys-exit-info-firetv.txt'))).toBe(true);
  });
});
