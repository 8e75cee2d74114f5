import { describe, expect, it } from 'vitest';
import type { HealthReport } from '../bus/messages/system.js';
import { formatDoctor } from './doctor.js';

const report = (standIn: boolean): HealthReport => ({
  all_ok: true,
  project_root: '/work/shop',
  trusted: false,
  checks: {
    java: {
      ok: true,
      java_home: null,
      bin: '/usr/bin/java',
      version: '17.0.12',
      major_version: 17,
      source: 'path',
      hint: null,
      warning: null,
    },
    android_sdk: { ok: true, path: '/opt/android-sdk', source: 'ANDROID_HOME', tried: [], hint: null },
    adb: { ok: true, path: '/usr/bin/adb', version: '1.0.41', hint: null },
    gradle_wrapper: {
      ok: true,
      path: '/work/shop/gradlew',
      gradle_version: '8.11.1',
      hint: null,
      ...(standIn ? { stand_in: true } : {}),
    },
    retrace: { ok: true, engine: 'built-in', hint: null },
    network_routes: { ok: true, devices: [], hint: null },
  },
});

describe('droidbus doctor', () => {
  it('does not say all is well under a not-trusted project: it says how to trust it', () => {
    const text = formatDoctor(report(false), '/work/shop', false, false);
    expect(text).not.toMatch(/^All checks passed\.$/m);
    expect(text).toContain('All checks passed, but the project is not trusted');
    expect(text).toContain('droidbus trust "/work/shop"');
    expect(formatDoctor(report(false), '/work/shop', true, false)).toMatch(/^All checks passed\.$/m);
  });

  it('names the sample project gradlew stand-in as one, not as Gradle', () => {
    const text = formatDoctor(report(true), '/work/shop', true, false);
    expect(text).toContain('/work/shop/gradlew (the stand-in droidbus sim wrote: no real Gradle runs)');
    expect(text).not.toContain('Gradle 8.11.1');
    expect(formatDoctor(report(false), '/work/shop', true, false)).toContain('(Gradle 8.11.1)');
  });
});
