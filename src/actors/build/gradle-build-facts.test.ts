import { describe, expect, it } from 'vitest';
import {
  matchResultLine,
  noteVersions,
  parseGradleDuration,
  type VersionFacts,
} from './gradle-build-facts.js';

describe('Gradle build facts', () => {
  it('reads every duration form Gradle prints, old and new', () => {
    expect(parseGradleDuration('12s')).toBe(12_000);
    expect(parseGradleDuration('1m 25s')).toBe(85_000);
    expect(parseGradleDuration('1h 2m 3s')).toBe(3_723_000);
    expect(parseGradleDuration('651ms')).toBe(651);
    expect(parseGradleDuration('16.397 secs')).toBe(16_397);
    expect(parseGradleDuration('1 mins 36.227 secs')).toBe(96_227);
    expect(parseGradleDuration('soon')).toBeNull();
  });

  it('reads the result lines, including cancellation', () => {
    expect(matchResultLine('BUILD SUCCESSFUL in 2m 3s')).toEqual({ result: 'success', durationMs: 123_000 });
    expect(matchResultLine('BUILD FAILED')).toEqual({ result: 'failed', durationMs: null });
    expect(matchResultLine('Build cancelled.')).toEqual({ result: 'cancelled', durationMs: null });
    expect(matchResultLine('BUILD SUCCESSFUL-ish')).toBeNull();
  });

  it('a stated Gradle version wins over one read from a docs link; AGP comes from the lines that name it', () => {
    const f: VersionFacts = { gradleVersion: null, gradleVersionCertain: false, agpVersion: null };
    noteVersions(
      'See https://docs.gradle.org/8.5/userguide/command_line_interface.html#sec:command_line_warnings',
      f,
    );
    expect(f.gradleVersion).toBe('8.5');
    noteVersions('Welcome to Gradle 8.14.3!', f);
    noteVersions('See https://docs.gradle.org/7.0/userguide/x.html', f);
    expect(f).toMatchObject({ gradleVersion: '8.14.3', gradleVersionCertain: true });
    noteVersions('> Failed to apply plugin. Android Gradle plugin 8.2.0 requires Java 17 to run.', f);
    expect(f.agpVersion).toBe('8.2.0');
    const g: VersionFacts = { gradleVersion: null, gradleVersionCertain: false, agpVersion: null };
    noteVersions('AAPT2 aapt2-7.0.4-7396180-windows Daemon #0: Unexpected error during link', g);
    noteVersions(
      'Unzipping /home/runner/.gradle/wrapper/dists/gradle-7.6-bin/9l9t/gradle-7.6-bin.zip to /home/runner',
      g,
    );
    expect(g).toMatchObject({ agpVersion: '7.0.4', gradleVersion: '7.6' });
  });
});
