import { describe, expect, it } from 'vitest';
import { parseJavaVersion } from './health.js';

// `java -version` prints to stderr. The first sample was captured on this project's build machine
// (Debian 12, openjdk-17); the others are the banner formats the JDK vendors document for their
// releases (OpenJDK's JEP 223 version strings; Oracle JDK 8's legacy `1.8.0_nnn` form).
const SAMPLES: [string, string, number][] = [
  [
    'openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime Environment (build 17.0.15+6-Debian-1deb12u1)\nOpenJDK 64-Bit Server VM (build 17.0.15+6-Debian-1deb12u1, mixed mode, sharing)\n',
    '17.0.15',
    17,
  ],
  ['java version "1.8.0_202"\nJava(TM) SE Runtime Environment (build 1.8.0_202-b08)\n', '1.8.0_202', 8],
  [
    'openjdk version "21.0.2" 2024-01-16 LTS\nOpenJDK Runtime Environment Temurin-21.0.2+13 (build 21.0.2+13-LTS)\n',
    '21.0.2',
    21,
  ],
  ['openjdk version "11" 2018-09-25\nOpenJDK Runtime Environment 18.9 (build 11+28)\n', '11', 11],
  ['Picked up JAVA_TOOL_OPTIONS: -Dfile.encoding=UTF8\nopenjdk version "17.0.9" 2023-10-17\n', '17.0.9', 17],
];

describe('parseJavaVersion', () => {
  it.each(SAMPLES)(
    'reads the version and major number from a java -version banner (%#)',
    (output, version, major) => {
      expect(parseJavaVersion(output)).toEqual({ version, major });
    },
  );

  it('returns null when the output has no version', () => {
    expect(parseJavaVersion('Error: could not find libjava.so\n')).toBeNull();
  });
});
