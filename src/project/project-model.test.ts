import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findGradleRoot } from './gradle-root.js';
import { findModule, inspectProject } from './project-model.js';
import { packageScopeFrom } from './package-scope.js';
import { projectVariants } from './variants.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/projects');
const fixture = (name: string): string => path.join(FIXTURES, name);

describe('project model from real build files', () => {
  it('Now in Android: the app module counts as an application by its applicationId though its plugins are convention plugins', async () => {
    const p = await inspectProject(fixture('nowinandroid'));
    expect(p.settingsFile).toBe('settings.gradle.kts');
    expect(p.rootProjectName).toBe('nowinandroid');
    expect(p.modules).toHaveLength(28);
    expect(p.applicationModules).toEqual([':app']);
    const app = findModule(p, ':app');
    expect(app).toMatchObject({
      dir: 'app',
      buildFile: 'app/build.gradle.kts',
      dsl: 'kotlin',
      applicationEvidence: 'applicationId',
    });
    expect(app?.unresolvedPluginAliases).toContain('libs.plugins.nowinandroid.android.application');
    expect(app?.android).toMatchObject({
      namespace: 'com.google.samples.apps.nowinandroid',
      applicationId: 'com.google.samples.apps.nowinandroid',
      versionCode: 8,
      versionName: '0.1.2',
      compileSdk: null,
    });
    // Its suffixes come from NiaBuildType, a Kotlin enum: unknown, not guessed.
    expect(app?.android?.buildTypes.map((b) => b.applicationIdSuffix)).toEqual([null, null]);
    expect(p.agpVersion).toBe('7.4.1');
    // Modules whose build files are not in the fixture are listed without one.
    expect(findModule(p, ':core:data')).toMatchObject({ buildFile: null, isAndroid: false });
  });

  it('Sunflower in Kotlin DSL: the catalog alias makes it an application; libs.versions SDK levels stay unknown; benchmark inherits release', async () => {
    const p = await inspectProject(fixture('sunflower-kts'));
    const app = findModule(p, 'app');
    expect(app).toMatchObject({ applicationEvidence: 'plugin', isApplication: true });
    expect(app?.plugins).toEqual([
      'com.android.application',
      'org.jetbrains.kotlin.android',
      'com.google.devtools.ksp',
      'com.google.dagger.hilt.android',
      'org.jetbrains.kotlin.plugin.serialization',
    ]);
    expect(app?.android).toMatchObject({
      compileSdk: null,
      minSdk: null,
      targetSdk: null,
      namespace: 'com.google.samples.apps.sunflower',
    });
    expect(app?.android?.buildTypes.map((b) => [b.name, b.minifyEnabled, b.debuggable])).toEqual([
      ['debug', false, true],
      ['release', true, false],
      ['benchmark', true, false],
    ]);
    expect(p.agpVersion).toBe('8.4.0');
  });

  it('Sunflower in Groovy: apply plugin, rootProject.* SDK levels unknown, the same application id as the Kotlin DSL version', async () => {
    const groovy = await inspectProject(fixture('sunflower-groovy'));
    const kts = await inspectProject(fixture('sunflower-kts'));
    const app = findModule(groovy, ':app');
    expect(app?.dsl).toBe('groovy');
    expect(app?.plugins).toContain('com.android.application');
    expect(app?.android).toMatchObject({
      applicationId: 'com.google.samples.apps.sunflower',
      versionName: '0.1.6',
      compileSdk: null,
    });
    expect(packageScopeFrom(groovy)).toEqual(packageScopeFrom(kts));
  });

  it('AntennaPod (Groovy, no applicationId): the manifest package stands in for the namespace and gives the launcher activity', async () => {
    const p = await inspectProject(fixture('antennapod'));
    const app = findModule(p, ':app');
    expect(app?.android?.applicationId).toBeUndefined();
    expect(app?.manifest).toEqual({
      path: 'app/src/main/AndroidManifest.xml',
      package: 'de.danoeh.antennapod',
      launcherActivity: '.activity.SplashActivity',
      // Its audio-file VIEW filter (the real manifest, tests/fixtures/projects/antennapod).
      schemes: ['file'],
    });
    expect(app?.android?.flavorDimensions).toEqual(['market']);
    expect(projectVariants(p).map((v) => `${v.name}=${v.applicationId}`)).toEqual([
      'freeDebug=de.danoeh.antennapod.debug',
      'freeRelease=de.danoeh.antennapod',
      'playDebug=de.danoeh.antennapod.debug',
      'playRelease=de.danoeh.antennapod',
    ]);
  });

  it('a library module moved with projectDir is read from its new directory and is not an application', async () => {
    const p = await inspectProject(fixture('same-app-kts'));
    expect(findModule(p, ':lib')).toMatchObject({
      dir: 'libs/lib',
      buildFile: 'libs/lib/build.gradle.kts',
      isAndroid: true,
      isApplication: false,
    });
    expect(p.applicationModules).toEqual([':app']);
    expect(p.agpVersion).toBe('8.2.2');
  });

  it('the same project written in Groovy and in Kotlin DSL gives the same variants and the same package scope', async () => {
    const groovy = await inspectProject(fixture('same-app-groovy'));
    const kts = await inspectProject(fixture('same-app-kts'));
    const gv = projectVariants(groovy);
    expect(gv).toHaveLength(12);
    expect(gv).toEqual(projectVariants(kts));
    expect(packageScopeFrom(groovy)).toEqual(packageScopeFrom(kts));
    const app = (m: typeof groovy): unknown => {
      const { android } = findModule(m, ':app') ?? {};
      return android;
    };
    expect(app(groovy)).toEqual(app(kts));
  });

  it('finds a module by the task path that builds it', async () => {
    const p = await inspectProject(fixture('same-app-groovy'));
    expect(findModule(p, ':app:assembleDemoProdDebug')?.path).toBe(':app');
    expect(findModule(p, 'nope')).toBeNull();
  });
});

describe('findGradleRoot', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('finds the nearest folder at or above the start that holds a settings file', async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), 'droidbus-root-'));
    dirs.push(base);
    await mkdir(path.join(base, 'outer/inner/app/src/main'), { recursive: true });
    await writeFile(path.join(base, 'outer/settings.gradle'), "include ':inner'\n");
    await writeFile(path.join(base, 'outer/inner/settings.gradle.kts'), 'include(":app")\n');
    expect(findGradleRoot(path.join(base, 'outer/inner/app/src/main'))).toBe(path.join(base, 'outer/inner'));
    expect(findGradleRoot(path.join(base, 'outer'))).toBe(path.join(base, 'outer'));
    expect(findGradleRoot(base)).toBeNull();
  });

  it('a project without settings still reads a root build file with an android block', async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), 'droidbus-single-'));
    dirs.push(base);
    await writeFile(
      path.join(base, 'build.gradle'),
      `apply plugin: 'com.android.application'\nandroid { defaultConfig { applicationId 'com.single' } }\n`,
    );
    const p = await inspectProject(base);
    expect(p.settingsFile).toBeNull();
    expect(p.applicationModules).toEqual([':']);
    expect(projectVariants(p).map((v) => [v.name, v.tasks.assemble, v.apkDir])).toEqual([
      ['debug', ':assembleDebug', 'build/outputs/apk/debug'],
      ['release', ':assembleRelease', 'build/outputs/apk/release'],
    ]);
  });
});
