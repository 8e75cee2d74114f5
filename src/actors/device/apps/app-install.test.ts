import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLastUpdateMs, recordedLine } from './app-install.js';

describe('install records', () => {
  it("reads the package's lastUpdateTime from a real dumpsys package, in the host's zone as retrace does", () => {
    const dump = readFileSync(
      new URL('../../../../tests/fixtures/logcat/dumpsys-package-samsung.txt', import.meta.url),
      'utf8',
    );
    expect(parseLastUpdateMs(dump)).toBe(new Date(2008, 11, 31, 16, 0, 0).getTime());
    expect(parseLastUpdateMs('Unable to find package: com.x')).toBeNull();
  });

  it('ends an install with a Recorded line naming the build, or saying none matched', () => {
    const base = {
      id: 'i1',
      device: 'emulator-5554',
      package: 'com.example.app.debug',
      apk_path: '/p/app/build/outputs/apk/debug/app-debug.apk',
      apk_sha256: 'ab'.repeat(32),
      apk_size: 10,
      version_code: 7,
      version_name: '1.0',
      build_id: 'b123456',
      module: ':app',
      variant: 'debug',
      project_root: '/p',
      installed_at: '2026-01-01T00:00:00.000Z',
      device_last_update_ms: null,
      installed_by: { kind: 'cli' as const },
      recorded_by: 'standalone' as const,
    };
    expect(recordedLine(base)).toBe(
      'Recorded com.example.app.debug 1.0 (7) on emulator-5554: sha256 abababababababab…, build b123456 (:app debug).',
    );
    expect(recordedLine({ ...base, build_id: null, module: null, variant: null })).toMatch(
      /no build in droidbus's history lists this APK\.$/,
    );
  });
});
