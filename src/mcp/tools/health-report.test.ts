import { describe, expect, it } from 'vitest';
import type { HealthReport } from '../../bus/messages/system.js';
import { formatHealthReport } from './project.js';

function report(over: { root?: string | null; javaOk?: boolean; wrapperOk?: boolean } = {}): HealthReport {
  const root = over.root === undefined ? '/work/shop' : over.root;
  const javaOk = over.javaOk ?? true;
  const wrapperOk = over.wrapperOk ?? true;
  return {
    all_ok: javaOk && (root === null || wrapperOk),
    project_root: root,
    trusted: true,
    checks: {
      java: {
        ok: javaOk,
        version: javaOk ? '17.0.9' : null,
        bin: '/usr/bin/java',
        hint: javaOk ? null : 'install a JDK 17',
      } as HealthReport['checks']['java'],
      android_sdk: {
        ok: true,
        path: '/sdk',
        source: 'ANDROID_HOME',
        tried: [],
        hint: null,
      } as HealthReport['checks']['android_sdk'],
      adb: {
        ok: true,
        version: '1.0.41',
        path: '/sdk/platform-tools/adb',
        hint: null,
      } as HealthReport['checks']['adb'],
      gradle_wrapper:
        wrapperOk && root !== null
          ? { ok: true, path: `${root}/gradlew`, gradle_version: '8.9', hint: null }
          : {
              ok: false,
              path: null,
              gradle_version: null,
              hint: root === null ? 'No Android project is selected' : 'no gradlew',
            },
      retrace: { ok: true, engine: 'droidbus', hint: null },
      network_routes: { ok: true, devices: [], hint: null },
    },
  };
}

describe('formatHealthReport', () => {
  it('never heads a FAIL line with "All checks passed"', () => {
    for (const r of [
      report({ javaOk: false }),
      report({ wrapperOk: false }),
      report({ root: null, javaOk: false }),
    ]) {
      const text = formatHealthReport(r);
      expect(text).toMatch(/^FAIL /m);
      expect(text.split('\n')[0]).toMatch(/^Some checks failed \(/);
    }
  });

  it('marks the Gradle wrapper n/a, not FAIL, when no project is open, and passes', () => {
    const text = formatHealthReport(report({ root: null }));
    expect(text.split('\n')[0]).toBe('All checks passed.');
    expect(text).toMatch(/^n\/a  gradle wrapper: no project is open — No Android project is selected$/m);
    expect(text).not.toMatch(/^FAIL /m);
  });

  it('names the failed checks in the headline', () => {
    expect(formatHealthReport(report({ javaOk: false, wrapperOk: false })).split('\n')[0]).toBe(
      'Some checks failed (java, gradle wrapper).',
    );
  });
});
