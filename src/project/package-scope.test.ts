import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findOutputMetadata, parseOutputMetadata } from './output-metadata.js';
import { checkPackageScope, packageScopeFrom, projectPackageScope } from './package-scope.js';
import { inspectProject } from './project-model.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures');
const meta = (name: string): Promise<string> =>
  readFile(path.join(FIXTURES, 'gradle/output-metadata', name), 'utf8');

const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

describe('output-metadata.json', () => {
  it('reads AGP files for a single APK, a flavored variant, and ABI splits', async () => {
    const release = parseOutputMetadata(await meta('release-single.json'));
    expect(release).toEqual({
      ok: true,
      metadata: {
        version: 3,
        artifactType: 'APK',
        applicationId: 'zeroxfourf.wristkey',
        variantName: 'release',
        elements: [
          { type: 'SINGLE', filters: [], versionCode: 30, versionName: '3.0', outputFile: 'app-release.apk' },
        ],
        minSdkVersionForDexing: null,
      },
    });
    const flavored = parseOutputMetadata(await meta('prod-debug-flavored.json'));
    expect(
      flavored.ok && [
        flavored.metadata.variantName,
        flavored.metadata.applicationId,
        flavored.metadata.elements[0]?.outputFile,
      ],
    ).toEqual(['prodDebug', 'com.dpdtech.application.fbapp.a', 'app-prod-debug.apk']);
    const splits = parseOutputMetadata(await meta('release-abi-splits.json'));
    expect(
      splits.ok &&
        splits.metadata.elements.map((e) => [
          e.type,
          e.filters.map((f) => `${f.filterType}=${f.value}`).join(),
        ]),
    ).toEqual([
      ['UNIVERSAL', ''],
      ['ONE_OF_MANY', 'ABI=x86_64'],
      ['ONE_OF_MANY', 'ABI=arm64-v8a'],
      ['ONE_OF_MANY', 'ABI=armeabi-v7a'],
      ['ONE_OF_MANY', 'ABI=x86'],
    ]);
  });

  it('answers a reason for text that is not a metadata object', () => {
    expect(parseOutputMetadata('{nope')).toMatchObject({ ok: false });
    expect(parseOutputMetadata('[1,2]')).toEqual({ ok: false, reason: 'not a JSON object' });
  });

  it('finds the metadata under a module outputs and does not follow a symlinked directory out of the project', async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), 'droidbus-meta-'));
    temps.push(base);
    const root = path.join(base, 'p');
    await mkdir(path.join(root, 'app/build/outputs/apk/prod/debug'), { recursive: true });
    await mkdir(path.join(base, 'elsewhere/debug'), { recursive: true });
    await writeFile(
      path.join(root, 'app/build/outputs/apk/prod/debug/output-metadata.json'),
      await meta('prod-debug-flavored.json'),
    );
    await writeFile(
      path.join(base, 'elsewhere/debug/output-metadata.json'),
      await meta('release-single.json'),
    );
    await symlink(path.join(base, 'elsewhere'), path.join(root, 'app/build/outputs/apk/linked'));
    const found = await findOutputMetadata(root, 'app');
    expect(found.map((f) => [f.file, f.dir, f.metadata.applicationId])).toEqual([
      [
        'app/build/outputs/apk/prod/debug/output-metadata.json',
        'app/build/outputs/apk/prod/debug',
        'com.dpdtech.application.fbapp.a',
      ],
    ]);
  });
});

describe('package scope', () => {
  it('matches the application id followed by any combination of the parsed suffixes, each used once', async () => {
    const scope = packageScopeFrom(await inspectProject(path.join(FIXTURES, 'projects/same-app-groovy')));
    for (const pkg of [
      'com.example.app',
      'com.example.app.debug',
      'com.example.app.demo.debug',
      'com.example.app.debug.demo',
      'com.example.app.demo.bench',
      'com.example.app.staging',
      'com.example.app.staging.demo.debug',
    ]) {
      expect(checkPackageScope(scope, pkg), pkg).toEqual({ ok: true });
    }
    for (const pkg of [
      'com.example.apple',
      'com.example.app.debug.debug',
      'com.example.app.other',
      'com.example',
      'com.google.android.gms',
    ]) {
      expect(checkPackageScope(scope, pkg).ok, pkg).toBe(false);
    }
  });

  it('the refusal names the project ids and says allow_foreign_package is only for a package the user asked for', async () => {
    const scope = packageScopeFrom(await inspectProject(path.join(FIXTURES, 'projects/kotlin-dsl-flavors')));
    const r = checkPackageScope(scope, 'com.android.chrome');
    expect(r.ok).toBe(false);
    const message = r.ok ? '' : r.message;
    expect(message).toContain('com.kartheek.kotlindsl');
    expect(message).toContain('com.kartheek.kotlindsl.free');
    expect(message).toContain('allow_foreign_package: true only if the user asked');
  });

  it('an unknown suffix (Now in Android) is not guessed: only its output-metadata makes the suffixed id part of the scope', async () => {
    const project = await inspectProject(path.join(FIXTURES, 'projects/nowinandroid'));
    expect(checkPackageScope(packageScopeFrom(project), 'com.google.samples.apps.nowinandroid').ok).toBe(
      true,
    );
    expect(
      checkPackageScope(packageScopeFrom(project), 'com.google.samples.apps.nowinandroid.demo.debug').ok,
    ).toBe(false);
    const withMeta = packageScopeFrom(project, ['com.google.samples.apps.nowinandroid.demo.debug']);
    expect(checkPackageScope(withMeta, 'com.google.samples.apps.nowinandroid.demo.debug').ok).toBe(true);
  });

  it('reads output-metadata.json from the application modules when building the scope', async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), 'droidbus-scope-'));
    temps.push(base);
    await cp(path.join(FIXTURES, 'projects/sunflower-kts'), base, { recursive: true });
    const dir = path.join(base, 'app/build/outputs/apk/benchmark');
    await mkdir(dir, { recursive: true });
    const custom = JSON.parse(await meta('debug-single.json')) as Record<string, unknown>;
    custom['applicationId'] = 'com.google.samples.apps.sunflower.benchmark';
    await writeFile(path.join(dir, 'output-metadata.json'), JSON.stringify(custom));
    const scope = await projectPackageScope(await inspectProject(base));
    expect(scope.exact).toEqual(['com.google.samples.apps.sunflower.benchmark']);
    expect(checkPackageScope(scope, 'com.google.samples.apps.sunflower.benchmark').ok).toBe(true);
  });

  it('with no application id anywhere every package is refused, and the message says so', () => {
    const r = checkPackageScope({ bases: [], exact: [] }, 'com.x');
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.message).toContain('No application id could be found');
  });

  it('a malformed package name is refused before any matching', () => {
    const scope = { bases: [{ id: 'com.a', suffixes: ['.debug'], module: ':app' }], exact: [] };
    expect(checkPackageScope(scope, 'com.a; reboot').ok).toBe(false);
    expect(checkPackageScope(scope, '').ok).toBe(false);
  });
});
