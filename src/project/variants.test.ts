import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBuildFile } from './android-config.js';
import { findModule, inspectProject, type ModuleInfo } from './project-model.js';
import { moduleVariants, variantName, variantTask } from './variants.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/projects');

function moduleFrom(text: string, dsl: 'kotlin' | 'groovy' = 'kotlin', modulePath = ':app'): ModuleInfo {
  const info = readBuildFile(text, dsl);
  return {
    path: modulePath,
    dir: modulePath.slice(1).replace(/:/g, '/'),
    buildFile: null,
    dsl,
    plugins: ['com.android.application'],
    unresolvedPluginAliases: [],
    isAndroid: true,
    isApplication: true,
    applicationEvidence: 'plugin',
    android: info.android,
    manifest: null,
    notes: [],
  };
}

describe('variants', () => {
  it('names variants flavor by flavor in dimension order, then the build type', () => {
    expect(variantName(['demo', 'staging'], 'debug')).toBe('demoStagingDebug');
    expect(variantName([], 'release')).toBe('release');
    expect(variantTask(':app', 'test', 'demoDebug', 'UnitTest')).toBe(':app:testDemoDebugUnitTest');
    expect(variantTask(':', 'assemble', 'debug')).toBe(':assembleDebug');
  });

  it('gives every variant its assemble, install, bundle, unit test, connected test and lint tasks and its APK directory', async () => {
    const p = await inspectProject(path.join(FIXTURES, 'same-app-kts'));
    const v = moduleVariants(findModule(p, ':app') as ModuleInfo).find((x) => x.name === 'demoStagingDebug');
    expect(v).toEqual({
      module: ':app',
      name: 'demoStagingDebug',
      buildType: 'debug',
      flavors: ['demo', 'staging'],
      flavorName: 'demoStaging',
      applicationId: 'com.example.app.staging.demo.debug',
      debuggable: true,
      minifyEnabled: false,
      tasks: {
        assemble: ':app:assembleDemoStagingDebug',
        install: ':app:installDemoStagingDebug',
        bundle: ':app:bundleDemoStagingDebug',
        unitTest: ':app:testDemoStagingDebugUnitTest',
        connectedTest: ':app:connectedDemoStagingDebugAndroidTest',
        lint: ':app:lintDemoStagingDebug',
      },
      apkDir: 'app/build/outputs/apk/demoStaging/debug',
      apkFileName: 'app-demo-staging-debug.apk',
    });
  });

  it('only the test build type has a connected test task, and a library has no install or bundle task', async () => {
    const p = await inspectProject(path.join(FIXTURES, 'same-app-groovy'));
    const release = moduleVariants(findModule(p, ':app') as ModuleInfo).find(
      (x) => x.name === 'fullProdRelease',
    );
    expect(release?.tasks.connectedTest).toBeNull();
    const lib = moduleVariants(findModule(p, ':lib') as ModuleInfo);
    expect(lib.map((v) => [v.name, v.tasks.install, v.tasks.bundle, v.applicationId, v.apkDir])).toEqual([
      ['debug', null, null, null, 'libs/lib/build/outputs/apk/debug'],
      ['release', null, null, null, 'libs/lib/build/outputs/apk/release'],
    ]);
  });

  it('testBuildType moves the connected test task to that build type', () => {
    const m = moduleFrom(`android { testBuildType = "staging"; buildTypes { create("staging") {} } }`);
    expect(moduleVariants(m).map((v) => [v.name, v.tasks.connectedTest])).toEqual([
      ['debug', null],
      ['release', null],
      ['staging', ':app:connectedStagingAndroidTest'],
    ]);
  });

  it('a flavor applicationId wins, suffixes follow flavor first then build type, and a suffix without a dot gets one', () => {
    const m = moduleFrom(
      `android {
        namespace = "com.ns"
        flavorDimensions += listOf("brand", "env")
        productFlavors {
          create("blue") { dimension = "brand"; applicationId = "com.blue"; applicationIdSuffix = "b" }
          create("red") { dimension = "brand" }
          create("qa") { dimension = "env"; applicationIdSuffix = ".qa" }
        }
        buildTypes { debug { applicationIdSuffix = ".debug" } }
      }`,
    );
    expect(moduleVariants(m).map((v) => `${v.name}=${v.applicationId}`)).toEqual([
      'blueQaDebug=com.blue.b.qa.debug',
      'blueQaRelease=com.blue.b.qa',
      'redQaDebug=com.ns.qa.debug',
      'redQaRelease=com.ns.qa',
    ]);
  });

  it('a variant whose suffix is unknown has an unknown application id, while its siblings keep theirs', () => {
    const m = moduleFrom(
      `android { defaultConfig { applicationId = "com.x" }; buildTypes { debug { applicationIdSuffix = suffixFor("debug") } } }`,
    );
    expect(moduleVariants(m).map((v) => [v.name, v.applicationId])).toEqual([
      ['debug', null],
      ['release', 'com.x'],
    ]);
  });

  it('flavors without a dimension take the only declared one; undeclared dimensions are kept after the declared ones', () => {
    const single = moduleFrom(
      `android { flavorDimensions "tier"; productFlavors { free {}; paid {} } }`,
      'groovy',
    );
    expect(moduleVariants(single).map((v) => v.name)).toEqual([
      'freeDebug',
      'freeRelease',
      'paidDebug',
      'paidRelease',
    ]);
    const undeclared = moduleFrom(
      `android { productFlavors { create("free") { dimension = "version" }; create("paid") { dimension = "version" } } }`,
    );
    expect(moduleVariants(undeclared).map((v) => v.name)).toEqual([
      'freeDebug',
      'freeRelease',
      'paidDebug',
      'paidRelease',
    ]);
  });
});
