import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeBinaryXml } from './apk-binary-xml.js';
import { writeZip } from './apk-zip.js';
import { frameworkRes } from '../../tests/helpers/aapt2-apk.js';
import { ApkFormatError, buildManifest, readApkInfo, writeApk, type ApkWriteInput } from './apk.js';

const dir = mkdtempSync(join(tmpdir(), 'droidbus-apk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const INPUT: ApkWriteInput = {
  packageName: 'com.droidbus.sample.demo.debug',
  versionCode: 42,
  versionName: '1.4.2',
  minSdk: 24,
  targetSdk: 35,
  compileSdk: 35,
  label: 'Droidbus Sample',
  debuggable: true,
  activities: [
    { name: 'com.droidbus.sample.LoginActivity', launcher: true },
    { name: 'com.droidbus.sample.HomeActivity', exported: false },
    { name: 'com.droidbus.sample.DetailActivity' },
  ],
  permissions: ['android.permission.INTERNET'],
};

function aapt(...args: string[]): string {
  return execFileSync('aapt', args, { encoding: 'utf8' });
}

describe('apk writer', () => {
  for (const stringPool of ['utf16', 'utf8'] as const) {
    it(`writes an APK that aapt dump badging reads (${stringPool} manifest)`, () => {
      const file = join(dir, `written-${stringPool}.apk`);
      writeFileSync(file, writeApk({ ...INPUT, stringPool }));
      const badging = aapt('dump', 'badging', file);
      expect(badging).toContain(
        "package: name='com.droidbus.sample.demo.debug' versionCode='42' versionName='1.4.2'",
      );
      expect(badging).toContain("sdkVersion:'24'");
      expect(badging).toContain("targetSdkVersion:'35'");
      expect(badging).toContain("launchable-activity: name='com.droidbus.sample.LoginActivity'");
      expect(badging).toContain("uses-permission: name='android.permission.INTERNET'");
      expect(badging).toContain('application-debuggable');
    });
  }

  it("writes a test APK's instrumentation as aapt reads it, and reads it back", () => {
    const file = join(dir, 'written-test.apk');
    const instrumentation = {
      name: 'androidx.test.runner.AndroidJUnitRunner',
      targetPackage: 'com.droidbus.sample.demo.debug',
      label: 'Tests for com.droidbus.sample.demo.debug',
    };
    const bytes = writeApk({ ...INPUT, packageName: 'com.droidbus.sample.demo.debug.test', instrumentation });
    writeFileSync(file, bytes);
    const tree = aapt('dump', 'xmltree', file, 'AndroidManifest.xml');
    expect(tree).toMatch(
      /E: instrumentation[^\n]*\n(?:\s+A: [^\n]+\n)*?\s+A: android:targetPackage\(0x01010021\)="com\.droidbus\.sample\.demo\.debug"/,
    );
    expect(tree).toContain('A: android:name(0x01010003)="androidx.test.runner.AndroidJUnitRunner"');
    expect(tree).toContain('A: android:functionalTest(0x01010023)=(type 0x12)0x0');
    expect(readApkInfo(bytes).instrumentations).toEqual([
      { name: instrumentation.name, targetPackage: instrumentation.targetPackage },
    ]);
  });

  it('refuses an invalid package name', () => {
    expect(() => writeApk({ ...INPUT, packageName: 'nodots' })).toThrow(ApkFormatError);
  });
});

describe('apk reader', () => {
  it('reads back everything the writer put in', () => {
    const marker = '~~R8{"backend":"dex","compilation-mode":"release","min-api":24,"pg-map-id":"628898e"}';
    expect(readApkInfo(writeApk({ ...INPUT, dexMarker: marker }))).toEqual({
      packageName: 'com.droidbus.sample.demo.debug',
      versionCode: 42,
      versionName: '1.4.2',
      minSdk: 24,
      targetSdk: 35,
      launchableActivity: 'com.droidbus.sample.LoginActivity',
      activities: [
        'com.droidbus.sample.LoginActivity',
        'com.droidbus.sample.HomeActivity',
        'com.droidbus.sample.DetailActivity',
      ],
      label: 'Droidbus Sample',
      debuggable: true,
      permissions: ['android.permission.INTERNET'],
      dexMarker: marker,
      instrumentations: [],
    });
  });

  it('reads an APK built by the real aapt, resolving relative activity names', () => {
    const manifest = join(dir, 'AndroidManifest.xml');
    writeFileSync(
      manifest,
      `<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.real"
    android:versionCode="7" android:versionName="2.0-beta">
  <uses-sdk android:minSdkVersion="21" android:targetSdkVersion="33"/>
  <uses-permission android:name="android.permission.CAMERA"/>
  <application android:label="Real">
    <activity android:name="com.example.real.Settings"/>
    <activity android:name=".Main" android:exported="true">
      <intent-filter>
        <action android:name="android.intent.action.MAIN"/>
        <category android:name="android.intent.category.LAUNCHER"/>
      </intent-filter>
    </activity>
    <activity android:name="Plain"/>
  </application>
</manifest>
`,
    );
    const out = join(dir, 'aapt.apk');
    aapt('package', '-f', '-M', manifest, '-I', frameworkRes(), '-F', out);
    expect(readApkInfo(readFileSync(out))).toEqual({
      packageName: 'com.example.real',
      versionCode: 7,
      versionName: '2.0-beta',
      minSdk: 21,
      targetSdk: 33,
      launchableActivity: 'com.example.real.Main',
      activities: ['com.example.real.Settings', 'com.example.real.Main', 'com.example.real.Plain'],
      label: 'Real',
      debuggable: false,
      dexMarker: null,
      instrumentations: [],
      permissions: ['android.permission.CAMERA'],
    });
  });

  it('names what is missing when the archive has no manifest', () => {
    expect(() => readApkInfo(writeZip([{ name: 'classes.dex', data: 'dex' }]))).toThrow(
      /no AndroidManifest.xml/,
    );
  });

  it('any corruption of an APK either still reads or throws ApkFormatError, never anything else', () => {
    const apk = writeApk(INPUT);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(apk.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.option(fc.nat(apk.length), { nil: undefined }),
        (edits, cut) => {
          const bytes = apk.slice(0, cut ?? apk.length);
          for (const [at, value] of edits) {
            if (at < bytes.length) {
              bytes[at] = value;
            }
          }
          try {
            readApkInfo(bytes);
          } catch (err) {
            expect(err).toBeInstanceOf(ApkFormatError);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('any corruption of the binary manifest itself either still reads or throws ApkFormatError', () => {
    const manifest = encodeBinaryXml(buildManifest(INPUT));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(manifest.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.option(fc.nat(manifest.length), { nil: undefined }),
        (edits, cut) => {
          const bytes = manifest.slice(0, cut ?? manifest.length);
          for (const [at, value] of edits) {
            if (at < bytes.length) {
              bytes[at] = value;
            }
          }
          // Stored with a fresh CRC, so every corruption reaches the XML decoder.
          const apk = writeZip([{ name: 'AndroidManifest.xml', data: bytes, method: 'store' }]);
          try {
            readApkInfo(apk);
          } catch (err) {
            expect(err).toBeInstanceOf(ApkFormatError);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});
