import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeApk } from '../../util/apk.js';
import { apkAgpVersion } from './build-outputs.js';
import { hashBuildFiles } from './build-file-hashes.js';
import { parseTreeEntry, pickResolvedDependencies } from './dependency-report.js';
import { parseGradleOutput } from './gradle-output-parse.js';
import { inspectProject } from '../../project/project-model.js';

const DIR = path.resolve(import.meta.dirname, '../../../tests/fixtures/gradle');
const fixture = (name: string): string => readFileSync(path.join(DIR, name), 'utf8');

describe('resolved dependency versions from a Gradle dependencies report', () => {
  it('reads each tree entry as the module and the version Gradle resolved', () => {
    expect(parseTreeEntry('androidx.core:core:1.3.0 -> 1.3.1')).toEqual({
      module: 'androidx.core:core',
      version: '1.3.1',
    });
    expect(parseTreeEntry('androidx.collection:collection:1.0.0 -> 1.1.0 (*)')).toEqual({
      module: 'androidx.collection:collection',
      version: '1.1.0',
    });
    expect(parseTreeEntry('androidx.appcompat:appcompat:{strictly 1.2.0} -> 1.2.0 (c)')).toEqual({
      module: 'androidx.appcompat:appcompat',
      version: '1.2.0',
    });
    expect(parseTreeEntry('com.android.tools.build:aapt2:4.0.1-6197926')).toEqual({
      module: 'com.android.tools.build:aapt2',
      version: '4.0.1-6197926',
    });
    expect(parseTreeEntry('project :module_aliyun:AlivcMedia')).toBeNull();
    expect(parseTreeEntry('com.example:lib:1.0 FAILED')).toBeNull();
    expect(parseTreeEntry('com.example:lib:1.0 (n)')).toBeNull();
  });

  it('keeps the runtime classpath of a real report, resolved versions first, projects left out', () => {
    const { summary } = parseGradleOutput(fixture('dependencies-report.txt'));
    expect(summary.resolvedConfigurations.map((c) => c.name)).toEqual([
      '_internal_aapt2_binary',
      '_testDebugRuntimeClasspath',
    ]);
    const picked = pickResolvedDependencies(summary.resolvedConfigurations, '_testDebug');
    expect(picked?.configuration).toBe('_testDebugRuntimeClasspath');
    expect(picked?.versions['androidx.core:core']).toBe('1.3.1');
    expect(picked?.versions['androidx.constraintlayout:constraintlayout']).toBe('2.0.4');
    expect(picked?.versions['com.google.android.material:material']).toBe('1.3.0');
    expect(Object.keys(picked?.versions ?? {}).some((k) => k.includes('module_aliyun'))).toBe(false);
    expect(picked?.count).toBe(Object.keys(picked?.versions ?? {}).length);
    expect(picked?.truncated).toBe(false);
  });

  it('falls back to the first runtime classpath when the variant printed none, and to nothing without a report', () => {
    const { summary } = parseGradleOutput(fixture('dependencies-report.txt'));
    expect(pickResolvedDependencies(summary.resolvedConfigurations, 'demoDebug')?.configuration).toBe(
      '_testDebugRuntimeClasspath',
    );
    const plain = parseGradleOutput(fixture('success-deprecation.txt')).summary;
    expect(pickResolvedDependencies(plain.resolvedConfigurations, null)).toBeNull();
  });
});

describe('the AGP version an APK carries', () => {
  it("reads androidGradlePluginVersion from the APK's app-metadata.properties, and null without one", () => {
    const base = {
      packageName: 'com.example.app',
      versionCode: 3,
      versionName: '1.0',
      minSdk: 24,
      targetSdk: 35,
      activities: [{ name: 'com.example.app.MainActivity', launcher: true }],
    };
    const withMetadata = writeApk({
      ...base,
      extraEntries: [
        {
          name: 'META-INF/com/android/build/gradle/app-metadata.properties',
          data: 'appMetadataVersion=1.1\nandroidGradlePluginVersion=8.7.3\n',
        },
      ],
    });
    expect(apkAgpVersion(withMetadata)).toBe('8.7.3');
    expect(apkAgpVersion(writeApk(base))).toBeNull();
    expect(apkAgpVersion(new Uint8Array([1, 2, 3]))).toBeNull();
  });
});

describe('build file hashes', () => {
  it('hashes the settings, module build files and properties that exist, and notices a change', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'droidbus-build-files-'));
    mkdirSync(path.join(root, 'app'), { recursive: true });
    writeFileSync(path.join(root, 'settings.gradle.kts'), 'rootProject.name = "x"\ninclude(":app")\n');
    writeFileSync(path.join(root, 'app', 'build.gradle.kts'), 'plugins { id("com.android.application") }\n');
    writeFileSync(path.join(root, 'gradle.properties'), 'org.gradle.jvmargs=-Xmx2g\n');
    const project = await inspectProject(root);
    const before = await hashBuildFiles(project);
    expect(before.map((h) => h.path)).toEqual([
      'app/build.gradle.kts',
      'gradle.properties',
      'settings.gradle.kts',
    ]);
    writeFileSync(path.join(root, 'gradle.properties'), 'org.gradle.jvmargs=-Xmx4g\n');
    const after = await hashBuildFiles(project);
    const changed = after.filter((h, i) => h.sha256 !== before[i]!.sha256).map((h) => h.path);
    expect(changed).toEqual(['gradle.properties']);
    rmSync(root, { recursive: true, force: true });
  });
});
