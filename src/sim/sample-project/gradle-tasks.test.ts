import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBuildModel, type BuildModel } from './build-model.js';
import { planBuild, type PlannedTask } from './gradle-tasks.js';
import { writeSampleProject } from './write-sample-project.js';

const dir = mkdtempSync(join(tmpdir(), 'droidbus-tasks-'));
let model: BuildModel;
beforeAll(async () => {
  await writeSampleProject(dir);
  model = readBuildModel(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function paths(requested: string[], excluded: string[] = []): string[] {
  const plan = planBuild(model, requested, excluded);
  if (!plan.ok) {
    throw new Error(plan.message);
  }
  return plan.tasks.map((t: PlannedTask) => t.path);
}

describe('gradle task planning', () => {
  it('a debug variant compiles Kotlin, dexes, packages and ends with its assemble task', () => {
    const p = paths(['assembleDemoDebug']);
    expect(p[0]).toBe(':app:preBuild');
    expect(p).toContain(':app:compileDemoDebugKotlin');
    expect(p).toContain(':app:dexBuilderDemoDebug');
    expect(p).not.toContain(':app:minifyDemoDebugWithR8');
    expect(p.at(-1)).toBe(':app:assembleDemoDebug');
    expect(p.indexOf(':app:packageDemoDebug')).toBeLessThan(p.indexOf(':app:assembleDemoDebug'));
  });

  it('a release variant is minified with R8 instead of dexed', () => {
    const p = paths(['assembleFullRelease']);
    expect(p).toContain(':app:minifyFullReleaseWithR8');
    expect(p).not.toContain(':app:dexBuilderFullRelease');
  });

  it('a build type task assembles every flavor of it, running shared tasks once', () => {
    const p = paths(['assembleDebug']);
    expect(p).toContain(':app:assembleDemoDebug');
    expect(p).toContain(':app:assembleFullDebug');
    expect(p.at(-1)).toBe(':app:assembleDebug');
    expect(p.filter((t) => t === ':app:preBuild')).toHaveLength(1);
  });

  it('project-qualified names resolve like plain ones', () => {
    expect(paths([':app:installDemoDebug'])).toEqual(paths(['app:installDemoDebug']));
    expect(paths(['installDemoDebug']).at(-1)).toBe(':app:installDemoDebug');
  });

  it('unit tests, connected tests and lint expand to their AGP tasks', () => {
    expect(paths(['testDemoDebugUnitTest']).at(-1)).toBe(':app:testDemoDebugUnitTest');
    expect(paths(['connectedAndroidTest'])).toContain(':app:connectedFullDebugAndroidTest');
    expect(paths(['lint'])).toContain(':app:lintReportDemoDebug');
  });

  it("selects names as Gradle's NameMatcher does, the plugins' tasks included", () => {
    expect(paths(['aDD']).at(-1)).toBe(':app:assembleDemoDebug');
    expect(paths(['assembleDemoD']).at(-1)).toBe(':app:assembleDemoDebug');
    expect(paths(['CloseAnd'])).toEqual([':closeAndReleaseSonatypeStagingRepository']);
    expect(paths(['InitSonStaRepo'])).toEqual([':initializeSonatypeStagingRepository']);
    expect(paths(['Fi'])).toEqual([':findSonatypeStagingRepository']);
    expect(paths(['jib'])).toEqual([':app:jib']);
    expect(paths(['properties'])).toEqual([':properties']);
    expect(planBuild(model, ['em'], [])).toMatchObject({
      ok: false,
      message: expect.stringContaining("'emergeUploadDemoReleaseAab'"),
    });
  });

  it('-x leaves the excluded task out', () => {
    expect(paths(['assembleDemoDebug'], ['lintVitalDemoRelease', 'mergeDemoDebugAssets'])).not.toContain(
      ':app:mergeDemoDebugAssets',
    );
  });

  it('an unknown or ambiguous task fails with Gradle wording, its Levenshtein near misses and candidates', () => {
    expect(planBuild(model, ['assembleFoo'], [])).toEqual({
      ok: false,
      message:
        "Task 'assembleFoo' not found in root project 'droidbus-sample'. Some candidates are: 'assemble', 'assembleDemo', 'assembleFull'.",
    });
    expect(planBuild(model, ['installDebug'], [])).toMatchObject({
      message:
        "Task 'installDebug' is ambiguous in root project 'droidbus-sample'. Candidates are: 'installDemoDebug', 'installFullDebug'.",
    });
    expect(planBuild(model, [':app:nope'], [])).toMatchObject({
      message: "Task 'nope' not found in project ':app'.",
    });
    expect(planBuild(model, [':lib:assemble'], [])).toMatchObject({
      message: "Project 'lib' not found in root project 'droidbus-sample'.",
    });
  });
});
