/**
 * The sample Android project as users get it: written by the BUILT droidbus (run `npm run build`
 * first), its `gradlew` running the built stand-in, its APK read by Debian's real `aapt`, and its
 * install task putting the APK on a simulated device through the real adb server.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_MAP_ID } from '../../src/sim/index.js';
import { startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const builtWriter = join(root, 'dist', 'sim', 'sample-project', 'index.js');
const builtStandIn = join(root, 'dist', 'sim', 'sample-project', 'gradlew-stand-in.js');
const dir = mkdtempSync(join(tmpdir(), 'droidbus-sample-e2e-'));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function gradlew(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  onStdout?: (text: string, kill: () => void) => void,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(dir, 'gradlew'), args, {
      cwd: dir,
      env: { ...process.env, SIM_GRADLE_DURATION_MS: '300', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      onStdout?.(stdout, () => child.kill('SIGTERM'));
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  if (!existsSync(builtWriter) || !existsSync(builtStandIn)) {
    throw new Error('dist/ has no sample-project build: run `npm run build` before the e2e tests');
  }
  const mod = (await import(pathToFileURL(builtWriter).href)) as {
    writeSampleProject(dir: string): Promise<void>;
  };
  await mod.writeSampleProject(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the sample project', () => {
  it('has an executable gradlew that runs the built stand-in by absolute path', () => {
    const script = readFileSync(join(dir, 'gradlew'), 'utf8');
    expect(script.startsWith('#!/bin/sh\n')).toBe(true);
    expect(script).toContain(`'${builtStandIn}'`);
    expect(statSync(join(dir, 'gradlew')).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(dir, 'gradlew.bat'), 'utf8')).toContain(`"${builtStandIn}" %*\r\n`);
    expect(readFileSync(join(dir, 'settings.gradle.kts'), 'utf8')).toContain('include(":app")');
  });

  it('builds demoDebug into an APK that aapt reads with the variant applicationId', async () => {
    const run = await gradlew(['--console=plain', 'assembleDemoDebug']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('> Task :app:assembleDemoDebug\n');
    const apkDir = join(dir, 'app/build/outputs/apk/demo/debug');
    const metadata = JSON.parse(readFileSync(join(apkDir, 'output-metadata.json'), 'utf8')) as {
      applicationId: string;
      elements: { outputFile: string }[];
    };
    expect(metadata.applicationId).toBe('com.droidbus.sample.demo.debug');
    const apk = join(apkDir, metadata.elements[0]!.outputFile);
    const badging = execFileSync('aapt', ['dump', 'badging', apk], { encoding: 'utf8' });
    expect(badging).toContain("package: name='com.droidbus.sample.demo.debug' versionCode='42'");
    expect(badging).toContain("sdkVersion:'24'");
    expect(badging).toContain("targetSdkVersion:'35'");
  });

  it('a release build writes the mapping whose pg_map_id the sim crash frames carry', async () => {
    const run = await gradlew(['assembleDemoRelease']);
    expect(run.code).toBe(0);
    const mapping = readFileSync(join(dir, 'app/build/outputs/mapping/demoRelease/mapping.txt'), 'utf8');
    expect(mapping).toContain(`# pg_map_id: ${SAMPLE_MAP_ID}\n`);
    const badging = execFileSync(
      'aapt',
      ['dump', 'badging', join(dir, 'app/build/outputs/apk/demo/release/app-demo-release.apk')],
      {
        encoding: 'utf8',
      },
    );
    expect(badging).toContain("package: name='com.droidbus.sample.demo' ");
  });

  it('an unknown task exits 1 with Gradle wording', async () => {
    const run = await gradlew(['publishEverything']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Task 'publishEverything' not found in root project 'droidbus-sample'.");
  });

  it('SIM_GRADLE_REPLAY with a recorded failure exits 1', async () => {
    const recording = join(dir, 'kotlin-failure.txt');
    writeFileSync(
      recording,
      [
        '> Task :app:compileDebugKotlin FAILED',
        'e: file:///home/dev/app/src/main/java/com/example/MainActivity.kt:12:5 Unresolved reference: foo',
        '',
        'FAILURE: Build failed with an exception.',
        '',
      ].join('\n'),
    );
    const run = await gradlew(['assembleDebug'], { SIM_GRADLE_REPLAY: recording });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Unresolved reference: foo');
  });

  it('SIGTERM stops a running build', async () => {
    let killed = false;
    const run = await gradlew(
      ['assembleFullDebug', '--rerun-tasks'],
      { SIM_GRADLE_DURATION_MS: '60000' },
      (text, kill) => {
        if (!killed && text.includes('> Task :app:')) {
          killed = true;
          kill();
        }
      },
    );
    expect(killed).toBe(true);
    expect(run.code).toBe(143);
    expect(run.stdout).not.toContain('BUILD SUCCESSFUL');
  });

  describe('installing on a simulated device', () => {
    let server: AdbServer;
    let farm: SimFarm;
    beforeAll(async () => {
      server = await startAdbServer();
      farm = await startSimFarm(server, { devices: 1, logcatRate: 0 });
    });
    afterAll(async () => {
      await farm?.stop();
      await server?.stop();
    });

    it('installDemoDebug installs the APK through the real adb server', async () => {
      const run = await gradlew(['installDemoDebug'], server.env);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(
        /Installing APK 'app-demo-debug\.apk' on '.+' for :app:demoDebug\nInstalled on 1 device\.\n/,
      );
      const listed = await server.adb([
        '-s',
        farm.devices[0]!.serial,
        'shell',
        'pm list packages com.droidbus.sample.demo.debug',
      ]);
      expect(listed.stdout).toContain('package:com.droidbus.sample.demo.debug');
      const path = await server.adb([
        '-s',
        farm.devices[0]!.serial,
        'shell',
        'pm path com.droidbus.sample.demo.debug',
      ]);
      expect(dirname(path.stdout.trim().replace(/^package:/, ''))).toMatch(/^\/data\/app\//);
    });
  });
});
