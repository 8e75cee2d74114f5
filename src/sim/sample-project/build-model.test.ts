import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_VARIANTS } from '../sample-app.js';
import { readBuildModel } from './build-model.js';
import { writeSampleProject } from './write-sample-project.js';

const dir = mkdtempSync(join(tmpdir(), 'droidbus-model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('build model', () => {
  it('reads the written sample project into the variants sample-app.ts declares', async () => {
    await writeSampleProject(dir);
    const model = readBuildModel(dir);
    expect(model.rootProject).toBe('droidbus-sample');
    expect(model.namespace).toBe('com.droidbus.sample');
    expect(model.versionCode).toBe(42);
    expect(model.variants.map((v) => [v.name, v.applicationId, v.buildType.minified])).toEqual(
      SAMPLE_VARIANTS.map((v) => [v.name, v.applicationId, v.minified]),
    );
  });

  it('follows edits to the build file', async () => {
    await writeSampleProject(dir);
    const file = join(dir, 'app', 'build.gradle.kts');
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('versionCode = 42', 'versionCode = 43')
        .replace(
          'create("full") {',
          'create("paid") {\n            dimension = "tier"\n            applicationIdSuffix = ".paid"\n        }\n        create("full") {',
        ),
    );
    const model = readBuildModel(dir);
    expect(model.versionCode).toBe(43);
    expect(model.variants.find((v) => v.name === 'paidRelease')?.applicationId).toBe(
      'com.droidbus.sample.paid',
    );
  });

  it('a project without flavors has one variant per build type', () => {
    const flat = mkdtempSync(join(tmpdir(), 'droidbus-flat-'));
    try {
      writeFileSync(join(flat, 'settings.gradle.kts'), 'rootProject.name = "flat"\ninclude(":app")\n');
      rmSync(join(flat, 'app'), { recursive: true, force: true });
      const model = readBuildModel(flat);
      expect(model.rootProject).toBe('flat');
      expect(model.variants.map((v) => [v.name, v.flavor])).toEqual([
        ['debug', null],
        ['release', null],
      ]);
    } finally {
      rmSync(flat, { recursive: true, force: true });
    }
  });
});
