/**
 * The stand-in's `connected<Variant>AndroidTest`: the test APK written (the tests it packs are read
 * from app/src/androidTest, see src/sim/test-apk.ts), the app and the test APK installed on every
 * device, the instrumentation run with `am instrument -w -r`, its status lines read, and both APKs
 * uninstalled after, as AGP's connected task does. Its console lines are AGP's (public CI logs):
 * `Starting 4 tests on emulator-5554 - 14`, for each failure `<class> > <method>[<device>] FAILED `
 * and the first line of its trace tab-indented, `Tests on <device> failed: There was 1 failure(s).`,
 * `Finished 4 tests on <device>`; failures fail the task with "There were failing tests. See the
 * report at: file://…/build/reports/androidTests/connected/<variant>/index.html".
 *
 * Evidence: AGP's connected test task as public CI logs print it (the lines quoted above) and `am
 * instrument -w -r`'s status keys
 * (frameworks/base/cmds/am/src/com/android/commands/am/Instrument.java).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeApk } from '../../util/apk.js';
import { encodeSimTests, SIM_TESTS_ENTRY, simTestsInSource, type SimTestCase } from '../test-apk.js';
import { SAMPLE_COMPILE_SDK } from '../sample-app.js';
import type { BuildModel, VariantModel } from './build-model.js';
import { installApk, instrumentTests, uninstallPackage, type Device } from './stand-in-devices.js';
import { apkDir, apkPath, writeAtomic } from './stand-in-outputs.js';
import { selectTests } from '../device/commands/runner-args.js';

const RUNNER = 'androidx.test.runner.AndroidJUnitRunner';

function sourcesUnder(dir: string): string[] {
  if (!existsSync(dir)) {
    return [];
  }
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sourcesUnder(full) : /\.(kt|java)$/.test(name) ? [full] : [];
  });
}

/** `app/build/outputs/apk/androidTest/demo/debug/app-demo-debug-androidTest.apk`. */
function testApkPath(projectDir: string, v: VariantModel): string {
  const parts = ['app', ...(v.flavor ? [v.flavor] : []), v.buildType.name, 'androidTest'];
  return join(apkDir(projectDir, v, true), `${parts.join('-')}.apk`);
}

/** The test APK's bytes: `<applicationId>.test`, instrumenting the app with AndroidJUnitRunner. */
function testApk(model: BuildModel, v: VariantModel, tests: readonly SimTestCase[]): Uint8Array {
  return writeApk({
    packageName: `${v.applicationId}.test`,
    versionCode: 0,
    versionName: '',
    minSdk: model.minSdk,
    targetSdk: model.targetSdk,
    compileSdk: SAMPLE_COMPILE_SDK,
    debuggable: true,
    activities: [],
    instrumentation: { name: RUNNER, targetPackage: v.applicationId, label: `Tests for ${v.applicationId}` },
    extraEntries: [{ name: SIM_TESTS_ENTRY, data: encodeSimTests(tests) }],
  });
}

/** One finished test of `am instrument -r`'s output: its class, method and, when it failed, its stack. */
interface TestResult {
  className: string;
  method: string;
  stack: string | null;
}

/** Reads the finished tests of `am instrument -r` output (status code 0 passed, -1/-2 failed). */
export function finishedTests(out: string): TestResult[] {
  const results: TestResult[] = [];
  let bundle: Record<string, string> = {};
  let key: string | null = null;
  for (const line of out.split(/\r?\n/)) {
    const status = /^INSTRUMENTATION_STATUS: (\w+)=(.*)$/.exec(line);
    const code = /^INSTRUMENTATION_STATUS_CODE: (-?\d+)$/.exec(line);
    if (status !== null) {
      key = status[1]!;
      bundle[key] = status[2]!;
    } else if (code !== null) {
      const c = Number(code[1]);
      if (c === 0 || c === -1 || c === -2) {
        results.push({
          className: bundle['class'] ?? '',
          method: bundle['test'] ?? '',
          stack: c === 0 ? null : (bundle['stack'] ?? ''),
        });
      }
      bundle = {};
      key = null;
    } else if (key !== null && !line.startsWith('INSTRUMENTATION_')) {
      bundle[key] += `\n${line}`;
    } else {
      key = null;
    }
  }
  return results;
}

/** A failed run: the lines printed so far and the task's cause. */
export class ConnectedFailure extends Error {
  constructor(
    readonly output: string[],
    readonly causes: string[],
  ) {
    super(causes.join('; '));
  }
}

/** Runs the variant's instrumented tests on every device; answers the task's console lines. */
export async function runConnectedTests(
  projectDir: string,
  model: BuildModel,
  v: VariantModel,
  devices: readonly Device[],
  runnerArgs: ReadonlyMap<string, string> = new Map(),
): Promise<string[]> {
  const tests = sourcesUnder(join(projectDir, 'app', 'src', 'androidTest')).flatMap((f) =>
    simTestsInSource(readFileSync(f, 'utf8'), f.slice(f.lastIndexOf('/') + 1)),
  );
  const file = testApkPath(projectDir, v);
  writeAtomic(file, testApk(model, v, tests));
  const lines: string[] = [];
  const selected = selectTests(tests, runnerArgs);
  const count = 'tests' in selected ? selected.tests.length : 0;
  let failed = 0;
  for (const d of devices) {
    await installApk(d, apkPath(projectDir, v));
    await installApk(d, file);
    lines.push(`Starting ${count} tests on ${d.name}`, '');
    if (count === 0) {
      // AGP's connected run of no test: a failure of its own (public CI logs quote it).
      lines.push(
        `com.android.builder.testing.ConnectedDevice > No tests found.[${d.name}] FAILED `,
        `\tNo tests found. This usually means that your test classes are not in the form that your test runner expects (e.g. don't inherit from TestCase or lack @Test annotations).`,
      );
      failed++;
      await uninstallPackage(d, `${v.applicationId}.test`);
      await uninstallPackage(d, v.applicationId);
      continue;
    }
    const results = finishedTests(await instrumentTests(d, `${v.applicationId}.test/${RUNNER}`, runnerArgs));
    const failures = results.filter((r) => r.stack !== null);
    for (const f of failures) {
      lines.push(`${f.className} > ${f.method}[${d.name}] FAILED `, `\t${(f.stack ?? '').split('\n')[0]}`);
    }
    if (failures.length > 0) {
      lines.push(`Tests on ${d.name} failed: There was ${failures.length} failure(s).`, '');
    }
    lines.push(`Finished ${results.length} tests on ${d.name}`);
    failed += failures.length;
    await uninstallPackage(d, `${v.applicationId}.test`);
    await uninstallPackage(d, v.applicationId);
  }
  if (failed > 0) {
    const report = join(
      projectDir,
      'app',
      'build',
      'reports',
      'androidTests',
      'connected',
      v.buildType.name,
      ...(v.flavor ? ['flavors', v.flavor] : []),
      'index.html',
    );
    throw new ConnectedFailure(lines, [
      `There were failing tests. See the report at: ${pathToFileURL(report).href}`,
    ]);
  }
  return lines;
}
