import { spawn } from 'node:child_process';
import { realpathSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_CRASH_RETRACED, SAMPLE_MAP_ID, writeSampleProject } from '../../src/sim/index.js';
import { eventually, startDeviceWorld } from '../helpers/device-world.js';
import type { DeviceWorld } from '../helpers/device-world.js';
import { tempDir } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

// No dead end after a build droidbus did not run (Android Studio, a terminal): the APK and the
// mapping sit in the project's build outputs, Gradle finds every task UP-TO-DATE, and the agent
// still installs an attributed build and reads its crash deobfuscated.

const project = tempDir('droidbus-outside-build-');
let world: DeviceWorld;
let serial: string;
const PKG = 'com.droidbus.sample.demo';
const APK_REL = 'app/build/outputs/apk/demo/release/app-demo-release.apk';

/** `./gradlew TASK` in the project, as a person would run it in a terminal. */
function gradlewOutside(task: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(project.dir, 'gradlew'), [task], {
      cwd: project.dir,
      env: { ...process.env, SIM_GRADLE_DURATION_MS: '200' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout }));
  });
}

interface Outcome {
  status: string;
  trace: string;
  matched_by: string | null;
  map_id: string | null;
  build_id: string | null;
  mapping_line: string;
}

beforeAll(async () => {
  await writeSampleProject(project.dir);
  const built = await gradlewOutside('assembleDemoRelease');
  expect(built.code, built.stdout).toBe(0);
  // Built a while ago, as in Android Studio before the agent came: dated ten minutes back.
  const before = new Date(Date.now() - 10 * 60_000);
  for (const rel of [APK_REL, 'app/build/outputs/mapping/demoRelease/mapping.txt']) {
    utimesSync(path.join(project.dir, rel), before, before);
  }
  world = await startDeviceWorld({ devices: 1 }, ['--project', project.dir]);
  serial = world.serials[0]!;
  expect((await runCli(['trust', project.dir], { env: { DROIDBUS_HOME: world.home } })).code).toBe(0);
  await world.call('start_logcat', { device_serial: serial, from_now: true });
});
afterAll(async () => {
  await world.stop();
  project.remove();
});

describe('a build droidbus did not run', () => {
  it('retraces a crash of it by the map id of the mapping in the build outputs, saying it matched there', async () => {
    // Installed with adb itself, as Android Studio would: droidbus has no record of it.
    const installed = await world.server.adb([
      '-s',
      serial,
      'install',
      '-r',
      path.join(project.dir, APK_REL),
    ]);
    expect(installed.stdout).toContain('Success');
    await world.shell(serial, `sim crash ${PKG} java`);
    const r = await eventually(async () => {
      const got = await world.call('get_crash_stack_trace', { package: PKG, retrace: true });
      return got.isError ? undefined : got;
    });
    const outcome = r.structured['retrace'] as Outcome;
    expect(outcome.status, outcome.mapping_line).toBe('retraced');
    expect(outcome).toMatchObject({ matched_by: 'map_id', map_id: SAMPLE_MAP_ID, build_id: null });
    expect(outcome.mapping_line).toContain(
      "app/build/outputs/mapping/demoRelease/mapping.txt in the project's build outputs (a build droidbus did not run)",
    );
    for (const line of SAMPLE_CRASH_RETRACED) {
      expect(outcome.trace).toContain(line.trim());
    }
  });

  it('names the APK and the mapping an up-to-date build found, and attributes their install to it', async () => {
    const build = await world.call('run_gradle_task', { task: 'assemble', variant: 'demoRelease' });
    expect(build.text).toContain('BUILD SUCCESSFUL');
    expect(build.text).toContain(
      `APK (up to date, not rewritten): ${path.join(realpathSync(project.dir), APK_REL)}`,
    );
    expect(build.text).toMatch(
      new RegExp(`R8 mapping \\(up to date, not rewritten\\): .*mapping\\.txt, map id ${SAMPLE_MAP_ID}`),
    );
    const apks = build.structured['apks'] as { path: string; up_to_date?: boolean }[];
    expect(apks.map((a) => a.up_to_date)).toEqual([true]);
    const found = await world.call('find_apk_path', { variant: 'demoRelease' });
    expect(found.isError, found.text).toBe(false);
    const install = await world.call('install_apk', { device_serial: serial, apk_path: APK_REL });
    expect(install.isError, install.text).toBe(false);
    expect(install.text.trim().split('\n').at(-1)).toContain(
      `build ${String(build.structured['build_id'])} (:app demoRelease)`,
    );
  });

  it("says the sample's gradlew is a stand-in, not Gradle", async () => {
    const r = await world.call('run_health_check', {});
    const wrapper = (r.structured['checks'] as Record<string, { stand_in?: boolean }>)['gradle_wrapper'];
    expect(wrapper?.stand_in).toBe(true);
    expect(r.text).toContain('(the stand-in droidbus sim wrote: no real Gradle runs)');
  });
});
