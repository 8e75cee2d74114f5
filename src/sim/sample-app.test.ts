import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  SAMPLE_CRASH_RETRACED,
  SAMPLE_CRASH_TRACE,
  SAMPLE_MAPPING,
  SAMPLE_MAP_HASH,
  SAMPLE_MAP_ID,
  SAMPLE_VARIANTS,
  sampleJavaCrashLines,
  sampleNativeCrashLines,
} from './sample-app.js';

describe('sample app data', () => {
  it('the pg_map_hash is the sha256 of everything after the hash line, as R8 verifies it', () => {
    const marker = SAMPLE_MAPPING.indexOf('# pg_map_hash: SHA-256 ');
    const lineEnd = SAMPLE_MAPPING.indexOf('\n', marker);
    const headerHash = SAMPLE_MAPPING.slice(marker, lineEnd).split(' ').pop();
    const computed = createHash('sha256')
      .update(SAMPLE_MAPPING.slice(lineEnd + 1), 'utf8')
      .digest('hex');
    expect(headerHash).toBe(computed);
    expect(SAMPLE_MAP_HASH).toBe(computed);
  });

  it('the pg_map_id is the first seven hex digits of the hash and the frames name it', () => {
    expect(SAMPLE_MAP_ID).toMatch(/^[0-9a-f]{7}$/);
    expect(SAMPLE_MAPPING).toContain(`# pg_map_id: ${SAMPLE_MAP_ID}\n`);
    const obfuscated = SAMPLE_CRASH_TRACE.filter((l) => l.includes('r8-map-id-'));
    expect(obfuscated.length).toBeGreaterThan(3);
    for (const line of obfuscated) {
      expect(line).toContain(`(r8-map-id-${SAMPLE_MAP_ID}:`);
    }
  });

  it('the mapping header lists the compiler, map version, id and hash in R8 order', () => {
    const header = SAMPLE_MAPPING.split('\n').slice(0, 7);
    expect(header[0]).toBe('# compiler: R8');
    expect(header[1]).toMatch(/^# compiler_version: \d+\.\d+\.\d+$/);
    expect(header[2]).toBe('# min_api: 24');
    expect(header).toContain('# {"id":"com.android.tools.r8.mapping","version":"2.2"}');
    expect(header[5]).toMatch(/^# pg_map_id: /);
    expect(header[6]).toMatch(/^# pg_map_hash: SHA-256 [0-9a-f]{64}$/);
  });

  it('every obfuscated class the crash names is in the mapping', () => {
    for (const cls of ['a.a', 'a.b', 'a.c', 'a.d']) {
      expect(SAMPLE_MAPPING).toMatch(new RegExp(` -> ${cls.replace('.', '\\.')}:\\n`));
    }
  });

  it('the cause ends with a "... N more" count equal to the frames shared with the enclosing trace', () => {
    const causeAt = SAMPLE_CRASH_TRACE.findIndex((l) => l.startsWith('Caused by:'));
    const outer = SAMPLE_CRASH_TRACE.slice(1, causeAt);
    const causeFrames = SAMPLE_CRASH_TRACE.slice(causeAt + 1, -1);
    const more = Number(/\.\.\. (\d+) more/.exec(SAMPLE_CRASH_TRACE.at(-1) ?? '')?.[1]);
    // The full cause trace is its own frames followed by the omitted common tail of the outer one.
    expect(outer.slice(outer.length - more)).toHaveLength(more);
    expect(outer[outer.length - more - 1]).not.toBe(causeFrames.at(-1));
    expect(SAMPLE_CRASH_RETRACED.at(-1)).toBe(SAMPLE_CRASH_TRACE.at(-1));
  });

  it('variants combine the flavor suffix before the build type suffix', () => {
    expect(SAMPLE_VARIANTS.map((v) => [v.name, v.applicationId, v.minified])).toEqual([
      ['demoDebug', 'com.droidbus.sample.demo.debug', false],
      ['demoRelease', 'com.droidbus.sample.demo', true],
      ['fullDebug', 'com.droidbus.sample.debug', false],
      ['fullRelease', 'com.droidbus.sample', true],
    ]);
  });

  it('the java crash lines start with the AndroidRuntime header naming the process', () => {
    const lines = sampleJavaCrashLines(4242, 'com.droidbus.sample.demo');
    expect(lines.slice(0, 2)).toEqual([
      'FATAL EXCEPTION: main',
      'Process: com.droidbus.sample.demo, PID: 4242',
    ]);
  });

  it('the native crash backtrace names the sample library under the installed APK', () => {
    const lines = sampleNativeCrashLines({
      pid: 77,
      apkDir: '/data/app/~~x==/com.droidbus.sample-y==',
      fingerprint: 'droidbus/sim/sim:14/UP1A/1:userdebug/test-keys',
      timestamp: '2024-05-14 10:21:33.123456789+0000',
    });
    expect(lines).toContain('pid: 77, tid: 77, name: droidbus.sample  >>> com.droidbus.sample <<<');
    expect(
      lines.some((l) =>
        /#00 pc [0-9a-f]{16} {2}\/data\/app\/.*\/lib\/arm64\/libsample-native\.so \(/.test(l),
      ),
    ).toBe(true);
  });
});
