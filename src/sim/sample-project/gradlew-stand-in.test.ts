import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_MAPPING } from '../sample-app.js';
import { readApkInfo } from '../../util/apk.js';
import { writeSampleProject } from './write-sample-project.js';

// Unit tests run the stand-in from source through tsx; tests/e2e/sample-project.test.ts runs the
// built one through the wrapper exactly as written for users.
const here = dirname(fileURLToPath(import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const dir = mkdtempSync(join(tmpdir(), 'droidbus-gradlew-'));

beforeAll(async () => {
  await writeSampleProject(dir, { standInArgs: ['--import', tsxLoader, join(here, 'gradlew-stand-in.ts')] });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function gradlew(
  args: string[],
  env: Record<string, string> = {},
  onStdout?: (text: string, kill: () => void) => void,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(dir, 'gradlew'), args, {
      cwd: dir,
      env: { ...process.env, SIM_GRADLE_DURATION_MS: '200', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      onStdout?.(stdout, () => child.kill('SIGTERM'));
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const debugApk = (): string => join(dir, 'app/build/outputs/apk/demo/debug/app-demo-debug.apk');

describe('gradlew stand-in', () => {
  it('assembleDemoDebug prints Gradle task lines and writes an APK aapt reads as the variant', async () => {
    const run = await gradlew(['assembleDemoDebug', '--console=plain', '--offline', '-Pdroidbus=1']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('> Task :app:preBuild UP-TO-DATE\n');
    expect(run.stdout).toContain('> Task :app:compileDemoDebugKotlin\nw: file://');
    expect(run.stdout).toMatch(/\nBUILD SUCCESSFUL in \d+(ms|s)\n\d+ actionable tasks: \d+ executed\n$/);
    const badging = execFileSync('aapt', ['dump', 'badging', debugApk()], { encoding: 'utf8' });
    expect(badging).toContain(
      "package: name='com.droidbus.sample.demo.debug' versionCode='42' versionName='1.4.2'",
    );
    expect(badging).toContain("launchable-activity: name='com.droidbus.sample.LoginActivity'");
  });

  it('output-metadata.json is AGP version 3 and names the APK beside it', () => {
    const metadata = JSON.parse(readFileSync(join(dirname(debugApk()), 'output-metadata.json'), 'utf8')) as {
      version: number;
      artifactType: { type: string };
      applicationId: string;
      variantName: string;
      elements: { outputFile: string; versionCode: number }[];
    };
    expect(metadata).toMatchObject({ version: 3, artifactType: { type: 'APK' }, variantName: 'demoDebug' });
    expect(metadata.applicationId).toBe('com.droidbus.sample.demo.debug');
    expect(join(dirname(debugApk()), metadata.elements[0]!.outputFile)).toBe(debugApk());
  });

  it('an unchanged variant is UP-TO-DATE the second time and its APK is not rewritten', async () => {
    const before = readFileSync(debugApk());
    const run = await gradlew(['assembleDemoDebug']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('> Task :app:packageDemoDebug UP-TO-DATE\n');
    expect(run.stdout).toMatch(/\d+ actionable tasks: \d+ up-to-date\n$/);
    expect(readFileSync(debugApk()).equals(before)).toBe(true);
  });

  it('a release build writes mapping.txt with the sample mapping and the release APK', async () => {
    const run = await gradlew([':app:assembleFullRelease']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('> Task :app:minifyFullReleaseWithR8\n');
    expect(readFileSync(join(dir, 'app/build/outputs/mapping/fullRelease/mapping.txt'), 'utf8')).toBe(
      SAMPLE_MAPPING,
    );
    const apk = readApkInfo(
      readFileSync(join(dir, 'app/build/outputs/apk/full/release/app-full-release.apk')),
    );
    expect(apk).toMatchObject({ packageName: 'com.droidbus.sample', versionCode: 42, debuggable: false });
  });

  it('an unknown task fails as Gradle does, with exit code 1', async () => {
    const run = await gradlew(['assembleNope']);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('> Task');
    expect(run.stderr).toContain(
      "FAILURE: Build failed with an exception.\n\n* What went wrong:\nTask 'assembleNope' not found in root project 'droidbus-sample'.\n",
    );
    expect(run.stderr).toMatch(/\nBUILD FAILED in \d+(ms|s)\n$/);
  });

  it('install without a device fails the install task with AGP DeviceException', async () => {
    const port = String(15000 + (process.pid % 5000));
    execFileSync('adb', ['-P', port, 'start-server'], { stdio: 'ignore' });
    try {
      const run = await gradlew(['installDemoDebug'], { ANDROID_ADB_SERVER_PORT: port });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('> Task :app:installDemoDebug FAILED\n');
      expect(run.stderr).toContain(
        "Execution failed for task ':app:installDemoDebug'.\n> com.android.builder.testing.api.DeviceException: No connected devices!\n",
      );
    } finally {
      execFileSync('adb', ['-P', port, 'kill-server'], { stdio: 'ignore' });
    }
  });

  it('SIM_GRADLE_REPLAY prints the recording and fails when it shows a failed build', async () => {
    const failed = join(dir, 'failed.txt');
    writeFileSync(
      failed,
      '> Task :app:compileDebugKotlin FAILED\ne: file:///A.kt:3:5 Unresolved reference: x\n\nFAILURE: Build failed with an exception.\n',
    );
    const run = await gradlew(['assembleDebug'], { SIM_GRADLE_REPLAY: failed });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(readFileSync(failed, 'utf8'));

    const cut = join(dir, 'cut.txt');
    writeFileSync(cut, '> Task :app:lintDebug FAILED\nBUILD FAILED in 12s');
    expect((await gradlew([], { SIM_GRADLE_REPLAY: cut })).code).toBe(1);

    const ok = join(dir, 'ok.txt');
    writeFileSync(ok, '> Task :app:assembleDebug\n\nBUILD SUCCESSFUL in 3s\n');
    expect((await gradlew([], { SIM_GRADLE_REPLAY: ok })).code).toBe(0);
  });

  it('SIGTERM stops a long build promptly and leaves no APK', async () => {
    rmSync(join(dir, 'app/build'), { recursive: true, force: true });
    let killedAt = 0;
    const run = await gradlew(['assembleDemoDebug'], { SIM_GRADLE_DURATION_MS: '60000' }, (text, kill) => {
      if (killedAt === 0 && text.includes('> Task :app:preBuild')) {
        killedAt = performance.now();
        kill();
      }
    });
    expect(run.code).toBe(143);
    expect(performance.now() - killedAt).toBeLessThan(5000);
    expect(existsSync(debugApk())).toBe(false);
  });

  it('SIM_GRADLE_LINES_PER_SEC floods extra lines during the build', async () => {
    const run = await gradlew(['assembleDemoDebug'], {
      SIM_GRADLE_DURATION_MS: '1000',
      SIM_GRADLE_LINES_PER_SEC: '3000',
    });
    expect(run.code).toBe(0);
    const extra = run.stdout
      .split('\n')
      .filter(
        (l) =>
          l.startsWith('Transforming ') ||
          l.startsWith('Caching ') ||
          l.startsWith('Resolved ') ||
          l.startsWith('Skipping '),
      );
    expect(extra.length).toBeGreaterThan(1000);
  });
});
