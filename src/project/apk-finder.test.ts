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

  it('answers found: false with a reason when several APKs match, none does, or the module is not an app', async () => {
    expect(await findApk(project)).toMatchObject({
      found: false,
      reason: expect.stringContaining('2 APKs match :app'),
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
