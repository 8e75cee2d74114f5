import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readBuildFile } from './android-config.js';

describe('android config from a build file', () => {
  it('reads the Groovy command forms: compileSdkVersion 34, minSdkVersion, applicationIdSuffix, minifyEnabled', () => {
    const { android } = readBuildFile(
      `android {
        compileSdkVersion 34
        defaultConfig {
          applicationId "com.a"
          minSdkVersion 21
          targetSdkVersion 34
          versionCode 3
          versionName "1.2"
        }
        buildTypes {
          debug { applicationIdSuffix ".dev"; versionNameSuffix "-dev" }
          release { minifyEnabled true; debuggable false }
        }
      }`,
      'groovy',
    );
    expect(android).toMatchObject({
      compileSdk: 34,
      minSdk: 21,
      targetSdk: 34,
      versionCode: 3,
      versionName: '1.2',
      applicationId: 'com.a',
    });
    expect(
      android.buildTypes.map((b) => [
        b.name,
        b.applicationIdSuffix,
        b.versionNameSuffix,
        b.minifyEnabled,
        b.debuggable,
      ]),
    ).toEqual([
      ['debug', '.dev', '-dev', false, true],
      ['release', undefined, undefined, true, false],
    ]);
  });

  it("reads compileSdkVersion 'android-34', compileSdkVersion(33) and compileSdk { version = release(36) }", () => {
    expect(readBuildFile(`android { compileSdkVersion 'android-34' }`, 'groovy').android.compileSdk).toBe(34);
    expect(readBuildFile(`android { compileSdkVersion(33) }`, 'kotlin').android.compileSdk).toBe(33);
    expect(
      readBuildFile(`android { compileSdk { version = release(36) } }`, 'kotlin').android.compileSdk,
    ).toBe(36);
  });

  it('keeps values only Gradle can compute unknown: a catalog lookup, a variable, an interpolated string', () => {
    const { android } = readBuildFile(
      `android {
        compileSdk = libs.versions.compileSdk.get().toInt()
        namespace = "com.\${flavor}"
        defaultConfig { minSdk = rootProject.extra["min"] as Int; applicationId = appId }
        buildTypes { debug { applicationIdSuffix = NiaBuildType.DEBUG.applicationIdSuffix } }
      }`,
      'kotlin',
    );
    expect(android.compileSdk).toBeNull();
    expect(android.minSdk).toBeNull();
    expect(android.namespace).toBeNull();
    expect(android.applicationId).toBeNull();
    expect(android.buildTypes[0]?.applicationIdSuffix).toBeNull();
    expect(android.unknown).toEqual(
      expect.arrayContaining([
        'compileSdk',
        'defaultConfig.minSdk',
        'namespace',
        'defaultConfig.applicationId',
        'buildTypes.debug.applicationIdSuffix',
      ]),
    );
  });

  it('reads flavors declared with create(), register(), named blocks and getByName, with dimensions in every form', () => {
    const kts = readBuildFile(
      `android {
        flavorDimensions += listOf("mode")
        flavorDimensions.add("env")
        productFlavors {
          create("demo") { dimension = "mode"; applicationIdSuffix = ".demo" }
          register("full") { dimension = "mode" }
          maybeCreate("prod").apply { dimension = "env"; applicationId = "com.p" }
        }
        buildTypes { getByName("release") { isMinifyEnabled = true } }
      }`,
      'kotlin',
    ).android;
    expect(kts.flavorDimensions).toEqual(['mode', 'env']);
    expect(
      kts.productFlavors.map((f) => [f.name, f.dimension, f.applicationIdSuffix, f.applicationId]),
    ).toEqual([
      ['demo', 'mode', '.demo', undefined],
      ['full', 'mode', undefined, undefined],
      ['prod', 'env', undefined, 'com.p'],
    ]);
    expect(kts.buildTypes.find((b) => b.name === 'release')?.minifyEnabled).toBe(true);

    const groovy = readBuildFile(
      `android {
        flavorDimensions "tier", 'api'
        productFlavors {
          free { dimension "tier" }
          'paid' { dimension = 'tier' }
          create('minApi24') { setDimension('api') }
        }
      }`,
      'groovy',
    ).android;
    expect(groovy.flavorDimensions).toEqual(['tier', 'api']);
    expect(groovy.productFlavors.map((f) => [f.name, f.dimension])).toEqual([
      ['free', 'tier'],
      ['paid', 'tier'],
      ['minApi24', 'api'],
    ]);
  });

  it('debug and release always exist with AGP defaults, and initWith copies the source build type', () => {
    const { android } = readBuildFile(
      `android { buildTypes {
        create("staging") { initWith(getByName("release")); applicationIdSuffix = ".staging" }
        release { isMinifyEnabled = true; versionNameSuffix = "-r" }
      } }`,
      'kotlin',
    );
    expect(
      android.buildTypes.map((b) => [
        b.name,
        b.declared,
        b.minifyEnabled,
        b.debuggable,
        b.versionNameSuffix,
        b.applicationIdSuffix,
      ]),
    ).toEqual([
      ['debug', false, false, true, undefined, undefined],
      ['release', true, true, false, '-r', undefined],
      ['staging', true, true, false, '-r', '.staging'],
    ]);
  });

  it('reads plugins by id, by catalog alias, by apply plugin, and skips those declared with apply false', () => {
    const kts = readBuildFile(
      `plugins {
        alias(libs.plugins.android.application)
        id("org.jetbrains.kotlin.android")
        kotlin("kapt")
        id("com.google.gms.google-services") version "4.4.0" apply false
      }`,
      'kotlin',
    );
    expect(kts.plugins).toEqual([
      { id: null, alias: 'libs.plugins.android.application', applied: true },
      { id: 'org.jetbrains.kotlin.android', applied: true },
      { id: 'org.jetbrains.kotlin.kapt', applied: true },
      { id: 'com.google.gms.google-services', applied: false, version: '4.4.0' },
    ]);
    const groovy = readBuildFile(
      `apply plugin: 'com.android.application'\napply plugin: "kotlin-android"`,
      'groovy',
    );
    expect(groovy.plugins.map((p) => p.id)).toEqual(['com.android.application', 'kotlin-android']);
    expect(readBuildFile(`apply(plugin = "com.android.library")`, 'kotlin').plugins.map((p) => p.id)).toEqual(
      ['com.android.library'],
    );
  });

  it('reads the AGP version a root build file declares (classpath or plugins version)', () => {
    expect(
      readBuildFile(
        `buildscript { dependencies { classpath 'com.android.tools.build:gradle:7.4.2' } }`,
        'groovy',
      ).agpVersion,
    ).toBe('7.4.2');
    expect(
      readBuildFile(`plugins { id("com.android.application") version "8.5.0" apply false }`, 'kotlin')
        .agpVersion,
    ).toBe('8.5.0');
  });

  it('a file without an android block says so and still has the default build types', () => {
    const { android } = readBuildFile(`plugins { id("java-library") }`, 'kotlin');
    expect(android.hasAndroidBlock).toBe(false);
    expect(android.buildTypes.map((b) => b.name)).toEqual(['debug', 'release']);
  });

  it("reads an applicationId and namespace set from the build file's own constant", () => {
    // drinkthestars/shady app/build.gradle.kts (tests/fixtures/projects/SOURCES.md): `val appId = "…"`,
    // then `namespace = appId` and `applicationId = appId`.
    const text = readFileSync(
      new URL('../../tests/fixtures/projects/build-files/shady-app.build.gradle.kts', import.meta.url),
      'utf8',
    );
    const { android } = readBuildFile(text, 'kotlin');
    expect([android.namespace, android.applicationId, android.minSdk]).toEqual([
      'com.goofy.goober.shady',
      'com.goofy.goober.shady',
      33,
    ]);
    expect(android.unknown).not.toContain('defaultConfig.applicationId');
    // A name declared twice, or set from something not a literal, stays unknown.
    const twice = readBuildFile(
      `val id = "a.b"\nval id = "c.d"\nandroid { defaultConfig { applicationId = id } }`,
      'kotlin',
    );
    expect(twice.android.applicationId).toBeNull();
    const groovy = readBuildFile(
      `def APP_ID = 'x.y'\nandroid { defaultConfig { applicationId APP_ID } }`,
      'groovy',
    );
    expect(groovy.android.applicationId).toBe('x.y');
  });
});
