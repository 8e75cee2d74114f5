import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findApk } from './apk-finder.js';
import { inspectProject, type ProjectModel } from './project-model.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures');
let base: string;
let project: ProjectModel;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'droidbus-apk-'));
  await cp(path.join(FIXTURES, 'projects/same-app-kts'), base, { recursive: true });
  // demoProdDebug: built, with AGP's metadata; fullProdDebug: an APK without metadata.
  const demo = path.join(base, 'app/build/outputs/apk/demoProd/debug');
  await mkdir(demo, { recursive: true });
  const meta = JSON.parse(
    await readFile(path.join(FIXTURES, 'gradle/output-metadata/prod-debug-flavored.json'), 'utf8'),
  ) as Record<string, unknown>;
  meta['variantName'] = 'demoProdDebug';
  meta['applicationId'] = 'com.example.app.demo.debug';
  (meta['elements'] as Record<string, unknown>[])[0]!['outputFile'] = 'app-demo-prod-debug.apk';
  await writeFile(path.join(demo, 'output-metadata.json'), JSON.stringify(meta));
  await writeFile(path.join(demo, 'app-demo-prod-debug.apk'), 'APK');
  const full = path.join(base, 'app/build/outputs/apk/fullProd/debug');
  await mkdir(full, { recursive: true });
  await writeFile(path.join(full, 'app-full-prod-debug.apk'), 'APK');
  // demoProdRelease: an ABI-split build with a universal APK (AGP's real metadata, tests/fixtures/gradle);
  // demoStagingRelease: the same splits without the universal one.
  const splits = JSON.parse(
    await readFile(path.join(FIXTURES, 'gradle/output-metadata/release-abi-splits.json'), 'utf8'),
  ) as { variantName: string; elements: { type: string; outputFile: string }[] };
  for (const [variant, dir, withUniversal] of [
    ['demoProdRelease', 'demoProd/release', true],
    ['demoStagingRelease', 'demoStaging/release', false],
  ] as const) {
    const out = path.join(base, 'app/build/outputs/apk', dir);
    await mkdir(out, { recursive: true });
    const elements = splits.elements.filter((e) => withUniversal || e.type !== 'UNIVERSAL');
    await writeFile(
      path.join(out, 'output-metadata.json'),
      JSON.stringify({ ...splits, variantName: variant, elements }),
    );
    for (const e of elements) {
      await writeFile(path.join(out, e.outputFile), 'APK');
    }
  }
  project = await inspectProject(base);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('findApk', () => {
  it('finds a variant APK through output-metadata.json, with its real application id', async () => {
    expect(await findApk(project, { variant: 'demoProdDebug' })).toEqual({
      found: true,
      path: path.join(base, 'app/build/outputs/apk/demoProd/debug/app-demo-prod-debug.apk'),
      module: ':app',
      variant: 'demoProdDebug',
      applicationId: 'com.example.app.demo.debug',
      via: 'output-metadata',
    });
  });

  it('falls back to the variant directory when there is no metadata', async () => {
    expect(
      await findApk(project, { module: ':app:assembleFullProdDebug', variant: 'fullProdDebug' }),
    ).toMatchObject({
      found: true,
      via: 'directory',
      applicationId: 'com.example.app.debug',
    });
  });

  it('picks the universal APK of an ABI-split build, and says what to do when there is none', async () => {
    expect(await findApk(project, { variant: 'demoProdRelease' })).toMatchObject({
      found: true,
      path: expect.stringMatching(/demoProd\/release\/termux-app_apt-android-7-release_universal\.apk$/),
      via: 'output-metadata',
    });
    const none = await findApk(project, { variant: 'demoStagingRelease' });
    expect(none).toMatchObject({
      found: false,
      candidates: expect.arrayContaining([expect.stringContaining('x86_64')]),
    });
    expect(none.found ? '' : none.reason).toMatch(/splits of one variant without a universal APK/);
    expect(none.found ? '' : none.reason).not.toMatch(/pass variant/);
  });

  it('answers found: false with a reason when several APKs match, none does, or the module is not an app', async () => {
    expect(await findApk(project)).toMatchObject({
      found: false,
      reason: expect.stringMatching(/\d+ APKs match :app.*pass variant/),
      candidates: expect.arrayContaining([expect.stringContaining('app-full-prod-debug.apk')]),
    });
    expect(await findApk(project, { variant: 'fullStagingRelease' })).toMatchObject({
      found: false,
      reason: expect.stringContaining(':app:assembleFullStagingRelease'),
    });
    expect(await findApk(project, { variant: 'nope' })).toMatchObject({
      found: false,
      reason: expect.stringContaining('has no variant nope'),
    });
    expect(await findApk(project, { module: ':lib' })).toMatchObject({
      found: false,
      reason: expect.stringContaining('not an application module'),
    });
  });
});
