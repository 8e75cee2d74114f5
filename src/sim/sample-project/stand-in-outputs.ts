/**
 * What the stand-in's tasks leave on disk, where AGP 8 leaves it: the variant's APK (written with
 * droidbus's APK writer), output-metadata.json, R8's mapping.txt for minified variants, the lint
 * report, and a fingerprint of the inputs so an unchanged variant is UP-TO-DATE next time.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeApk, type ApkActivityInput } from '../../util/apk.js';
import { sampleDexMarker, SAMPLE_COMPILE_SDK, SAMPLE_MAPPING, SAMPLE_NATIVE_LIBRARY } from '../sample-app.js';
import type { BuildModel, VariantModel } from './build-model.js';
import { sourceSets, variantNetworkSecurityConfig } from './variant-resources.js';
import { SAMPLE_AGP_VERSION } from './project-files.js';

/** Writes a file atomically (temp + rename): a cancelled build never leaves half an APK. */
export function writeAtomic(path: string, data: Uint8Array | string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, data);
  renameSync(temp, path);
}

/**
 * `app/build/outputs/apk/demo/debug`, or `…/apk/debug` without flavors; the test APK's under
 * `apk/androidTest/…` (`androidTest`).
 */
export function apkDir(projectDir: string, v: VariantModel, androidTest = false): string {
  return join(
    projectDir,
    'app',
    'build',
    'outputs',
    'apk',
    ...(androidTest ? ['androidTest'] : []),
    ...(v.flavor ? [v.flavor] : []),
    v.buildType.name,
  );
}

/** `app-demo-debug.apk`; `-unsigned` when the build type has no signing config, as AGP names it. */
export function apkFileName(v: VariantModel): string {
  const parts = ['app', ...(v.flavor ? [v.flavor] : []), v.buildType.name];
  return `${parts.join('-')}${v.buildType.signed ? '' : '-unsigned'}.apk`;
}

export function apkPath(projectDir: string, v: VariantModel): string {
  return join(apkDir(projectDir, v), apkFileName(v));
}

export function mappingPath(projectDir: string, v: VariantModel): string {
  return join(projectDir, 'app', 'build', 'outputs', 'mapping', v.name, 'mapping.txt');
}

/** Activities of the source manifest, qualified with the namespace; the launcher is flagged. */
export function manifestActivities(projectDir: string, namespace: string): ApkActivityInput[] {
  const path = join(projectDir, 'app', 'src', 'main', 'AndroidManifest.xml');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const out: ApkActivityInput[] = [];
  for (const m of text.matchAll(/<activity\b([^>]*?)(\/>|>([\s\S]*?)<\/activity>)/g)) {
    const name = /android:name\s*=\s*"([^"]+)"/.exec(m[1]!)?.[1];
    if (!name) {
      continue;
    }
    const exported = /android:exported\s*=\s*"(true|false)"/.exec(m[1]!)?.[1];
    const body = m[3] ?? '';
    const activity: ApkActivityInput = {
      name: name.startsWith('.') ? namespace + name : name.includes('.') ? name : `${namespace}.${name}`,
      launcher:
        body.includes('android.intent.action.MAIN') && body.includes('android.intent.category.LAUNCHER'),
    };
    if (exported !== undefined) {
      activity.exported = exported === 'true';
    }
    out.push(activity);
  }
  return out;
}

/** A tiny ELF header standing in for the native library, so the APK lists it where AGP puts it. */
function placeholderElf(): Uint8Array {
  const elf = new Uint8Array(64);
  elf.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0], 0);
  elf[16] = 3; // ET_DYN
  elf[18] = 0xb7; // EM_AARCH64
  return elf;
}

/**
 * The variant's assets (`src/<set>/assets/…`, the higher-priority source set winning), as `assets/…`
 * entries — AGP's asset merge (developer.android.com "Build variants › Source sets": variant, build
 * type, flavor, main).
 */
function variantAssets(projectDir: string, v: VariantModel): { name: string; data: Uint8Array }[] {
  const byName = new Map<string, Uint8Array>();
  for (const set of sourceSets(v).reverse()) {
    const dir = join(projectDir, 'app', 'src', set, 'assets');
    for (const file of listFiles(dir)) {
      byName.set(`assets/${relative(dir, file).split('\\').join('/')}`, readFileSync(file));
    }
  }
  return [...byName].map(([name, data]) => ({ name, data }));
}

/** Writes the variant's APK and output-metadata.json; returns the APK path. */
export function writeVariantApk(projectDir: string, model: BuildModel, v: VariantModel): string {
  const networkSecurityConfig = variantNetworkSecurityConfig(projectDir, v);
  const apk = writeApk({
    ...(networkSecurityConfig ? { networkSecurityConfig } : {}),
    packageName: v.applicationId,
    versionCode: model.versionCode,
    versionName: model.versionName,
    minSdk: model.minSdk,
    targetSdk: model.targetSdk,
    compileSdk: SAMPLE_COMPILE_SDK,
    label: 'Droidbus Sample',
    debuggable: v.buildType.name === 'debug',
    dexMarker: sampleDexMarker(v.buildType.minified, model.minSdk),
    activities: manifestActivities(projectDir, model.namespace),
    // The manifest's permissions, as AGP merges them (CAMERA is the runtime one the permission tools use).
    permissions: ['android.permission.INTERNET', 'android.permission.CAMERA'],
    extraEntries: [
      ...variantAssets(projectDir, v),
      { name: `lib/arm64-v8a/${SAMPLE_NATIVE_LIBRARY}`, data: placeholderElf(), method: 'store' },
      {
        name: 'META-INF/com/android/build/gradle/app-metadata.properties',
        data: `appMetadataVersion=1.1\nandroidGradlePluginVersion=${SAMPLE_AGP_VERSION}\n`,
      },
    ],
  });
  const path = apkPath(projectDir, v);
  writeAtomic(path, apk);
  const metadata = {
    version: 3,
    artifactType: { type: 'APK', kind: 'Directory' },
    applicationId: v.applicationId,
    variantName: v.name,
    elements: [
      {
        type: 'SINGLE',
        filters: [],
        attributes: [],
        versionCode: model.versionCode,
        versionName: model.versionName,
        outputFile: apkFileName(v),
      },
    ],
    elementType: 'File',
    minSdkVersionForDexing: model.minSdk,
  };
  writeAtomic(join(apkDir(projectDir, v), 'output-metadata.json'), JSON.stringify(metadata, null, 2));
  return path;
}

/** Writes R8's outputs of a minified variant (mapping.txt and its companions). */
export function writeVariantMapping(projectDir: string, v: VariantModel): void {
  const path = mappingPath(projectDir, v);
  writeAtomic(path, SAMPLE_MAPPING);
  writeAtomic(
    join(dirname(path), 'configuration.txt'),
    '# The proguard configuration file for the following section is app/proguard-rules.pro\n-keepattributes LineNumberTable\n',
  );
  writeAtomic(
    join(dirname(path), 'seeds.txt'),
    'com.droidbus.sample.LoginActivity\ncom.droidbus.sample.HomeActivity\ncom.droidbus.sample.DetailActivity\n',
  );
}

/** Writes the lint HTML report and returns its file: URL, as `lintReport…` prints it. */
export function writeLintReport(projectDir: string, v: VariantModel): string {
  const path = join(projectDir, 'app', 'build', 'reports', `lint-results-${v.name}.html`);
  writeAtomic(
    path,
    `<!DOCTYPE html>\n<html><head><title>Lint Report</title></head><body><h1>Lint Report: No errors or warnings</h1><p>Check performed on variant ${v.name}.</p></body></html>\n`,
  );
  return pathToFileURL(path).href;
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) {
    return [];
  }
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...listFiles(path));
    } else if (entry.isFile()) {
      out.push(path);
    }
  }
  return out.sort();
}

/** A digest of a variant's inputs: build files, sources (by size and mtime), and its identity. */
export function variantFingerprint(projectDir: string, model: BuildModel, v: VariantModel): string {
  const hash = createHash('sha256').update(
    JSON.stringify([
      v.name,
      v.applicationId,
      model.versionCode,
      model.versionName,
      model.minSdk,
      model.targetSdk,
    ]),
  );
  for (const file of [
    'settings.gradle.kts',
    'build.gradle.kts',
    'gradle.properties',
    'app/build.gradle.kts',
    'app/proguard-rules.pro',
  ]) {
    const path = join(projectDir, file);
    hash.update(file).update(existsSync(path) ? readFileSync(path) : '');
  }
  for (const file of sourceSets(v).flatMap((set) => listFiles(join(projectDir, 'app', 'src', set)))) {
    const st = statSync(file);
    hash.update(`${relative(projectDir, file)}:${st.size}:${st.mtimeMs}`);
  }
  return hash.digest('hex');
}

function fingerprintFile(projectDir: string, v: VariantModel): string {
  return join(projectDir, 'app', 'build', 'intermediates', 'droidbus-stand-in', `${v.name}.fingerprint`);
}

/** True when the variant was built from these same inputs and its outputs are still there. */
export function isUpToDate(projectDir: string, model: BuildModel, v: VariantModel): boolean {
  const file = fingerprintFile(projectDir, v);
  if (!existsSync(file) || !existsSync(apkPath(projectDir, v))) {
    return false;
  }
  if (v.buildType.minified && !existsSync(mappingPath(projectDir, v))) {
    return false;
  }
  return readFileSync(file, 'utf8') === variantFingerprint(projectDir, model, v);
}

/** Records that the variant's outputs match its current inputs. */
export function markUpToDate(projectDir: string, model: BuildModel, v: VariantModel): void {
  writeAtomic(fingerprintFile(projectDir, v), variantFingerprint(projectDir, model, v));
}

/** `clean`: deletes app/build. */
export function cleanBuildDir(projectDir: string): void {
  rmSync(join(projectDir, 'app', 'build'), { recursive: true, force: true });
}

/** The Kotlin compiler's warnings for the sample sources, located in the files as they are now. */
export function kotlinWarnings(projectDir: string, namespace: string): string[] {
  const file = join(projectDir, 'app', 'src', 'main', 'java', ...namespace.split('.'), 'LoginActivity.kt');
  if (!existsSync(file)) {
    return [];
  }
  const lines = readFileSync(file, 'utf8').split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    const col = line.indexOf('super.onBackPressed()');
    if (col >= 0) {
      const at = `${pathToFileURL(file).href}:${i + 1}:${col + 'super.'.length + 1}`;
      out.push(`w: ${at} 'fun onBackPressed(): Unit' is deprecated. Deprecated in Java.`);
    }
  });
  return out;
}
