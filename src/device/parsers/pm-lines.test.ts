import { describe, expect, it } from 'vitest';
import { pmValues } from './pm-lines.js';

describe('pm output', () => {
  it("gives each package: line's value, skipping other lines", () => {
    // `pm path` of a split app (base and a config split) on an Android 14 phone, with a CRLF shell.
    const out =
      'package:/data/app/~~Ab3==/com.example-Cd4==/base.apk\r\npackage:/data/app/~~Ab3==/com.example-Cd4==/split_config.arm64_v8a.apk\r\n\r\n';
    expect(pmValues(out)).toEqual([
      '/data/app/~~Ab3==/com.example-Cd4==/base.apk',
      '/data/app/~~Ab3==/com.example-Cd4==/split_config.arm64_v8a.apk',
    ]);
    expect(pmValues('WARNING: linker: something\npackage:com.android.chrome\n')).toEqual([
      'com.android.chrome',
    ]);
  });
});
