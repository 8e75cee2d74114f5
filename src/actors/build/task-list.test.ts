import { describe, expect, it } from 'vitest';
import { parseDryRun, parseTasksReport } from './task-list.js';

/**
 * The layout of `gradlew tasks --all` from a root project in Gradle 8 (the "Listing tasks" section
 * of Gradle's user guide, 8.7, shows the banner and groups; subprojects' tasks are listed as
 * `app:name`, tasks without a description as the bare name).
 */
const REPORT = `
> Task :tasks

------------------------------------------------------------
Tasks runnable from root project 'sample'
------------------------------------------------------------

Android tasks
-------------
app:androidDependencies - Displays the Android dependencies of the project.
app:signingReport - Displays the signing info for the base and test modules

Build tasks
-----------
assemble - Assemble main outputs for all the variants.
app:assembleDebug - Assembles main output for variant debug
lib:assembleRelease - Assembles main output for variant release

Help tasks
----------
help - Displays a help message.
properties - Displays the properties of root project 'sample'.

Other tasks
-----------
app:compileDebugKotlin
closeAndReleaseSonatypeStagingRepository - Closes and releases open staging repositories.
feature:login:testDebugUnitTest

Rules
-----
Pattern: clean<TaskName>: Cleans the output files of a task.

To see all tasks and more detail, run gradlew tasks --all

BUILD SUCCESSFUL in 1s
1 actionable task: 1 executed
`.split('\n');

describe('task list reports', () => {
  it('reads every task of every project from tasks --all, and nothing else', () => {
    const tasks = parseTasksReport(REPORT);
    expect([...tasks.keys()].sort()).toEqual([':', ':app', ':feature:login', ':lib']);
    expect([...tasks.get(':')!].sort()).toEqual([
      'assemble',
      'closeAndReleaseSonatypeStagingRepository',
      'help',
      'properties',
    ]);
    expect([...tasks.get(':app')!].sort()).toEqual([
      'androidDependencies',
      'assembleDebug',
      'compileDebugKotlin',
      'signingReport',
    ]);
    expect([...tasks.get(':feature:login')!]).toEqual(['testDebugUnitTest']);
    expect([...tasks.get(':lib')!]).toEqual(['assembleRelease']);
  });

  it("reads the task paths of Gradle's dry run", () => {
    const lines = [
      ':app:preBuild SKIPPED',
      ':app:compileDebugKotlin SKIPPED',
      ':closeAndReleaseSonatypeStagingRepository SKIPPED',
      '',
      'BUILD SUCCESSFUL in 620ms',
    ];
    expect(parseDryRun(lines)).toEqual([
      ':app:preBuild',
      ':app:compileDebugKotlin',
      ':closeAndReleaseSonatypeStagingRepository',
    ]);
  });
});
