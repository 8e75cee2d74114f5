import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { inspectProject, type ProjectModel } from '../../project/index.js';
import { resolveVariantTask } from './variant-task.js';

const fixtures = fileURLToPath(new URL('../../../tests/fixtures/projects/', import.meta.url));
let project: ProjectModel;

beforeAll(async () => {
  // Flavors mode × env (demo/full × staging/prod) and build types debug, release, benchmark.
  project = await inspectProject(path.join(fixtures, 'same-app-groovy'));
});

describe('applying variant to a task', () => {
  it.each([
    ['assemble', 'demoStagingDebug', 'assembleDemoStagingDebug'],
    [':app:assemble', 'fullProdRelease', ':app:assembleFullProdRelease'],
    ['install', 'demoProdDebug', 'installDemoProdDebug'],
    ['test', 'demoStagingDebug', 'testDemoStagingDebugUnitTest'],
    ['connectedAndroidTest', 'demoStagingDebug', 'connectedDemoStagingDebugAndroidTest'],
    [':app:lint', 'fullStagingBenchmark', ':app:lintFullStagingBenchmark'],
  ])('turns the verb %s with variant %s into %s', (task, variant, expected) => {
    expect(resolveVariantTask(project, task, variant)).toEqual({
      ok: true,
      task: expected,
      variant,
      module: ':app',
    });
  });

  it('keeps a task that already names the variant', () => {
    expect(resolveVariantTask(project, ':app:assembleDemoProdDebug', 'demoProdDebug')).toMatchObject({
      ok: true,
      task: ':app:assembleDemoProdDebug',
    });
  });

  it('refuses a task that names another variant', () => {
    const r = resolveVariantTask(project, 'assembleDemoProdDebug', 'fullProdDebug');
    expect(r).toMatchObject({ ok: false });
    expect(!r.ok && r.reason).toContain('builds variant demoProdDebug, not fullProdDebug');
  });

  it('refuses a variant the project does not have, listing the ones it has', () => {
    const r = resolveVariantTask(project, 'assemble', 'paidDebug');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toContain('no variant paidDebug');
    expect(!r.ok && r.reason).toContain('demoStagingDebug');
  });

  it('refuses a variant on a task whose variant form cannot be derived', () => {
    const r = resolveVariantTask(project, 'clean', 'demoStagingDebug');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toContain('pass the full task name');
  });

  it('infers the variant and module of a task that names one, without a variant argument', () => {
    expect(resolveVariantTask(project, 'assembleFullStagingRelease', null)).toEqual({
      ok: true,
      task: 'assembleFullStagingRelease',
      variant: 'fullStagingRelease',
      module: ':app',
    });
    expect(resolveVariantTask(project, 'clean', null)).toEqual({
      ok: true,
      task: 'clean',
      variant: null,
      module: null,
    });
  });
});
