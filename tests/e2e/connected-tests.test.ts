/**
 * An app's connected tests and droidbus's UI helper on one device (issue 53): the helper holds the
 * device's only UiAutomation, so a test that uses UI Automator fails while it runs — shown first with
 * the sample project's Gradle run by hand. Through `run_tests`, droidbus lends the device's UI
 * Automator to the build: the helper is stopped, reads are refused saying why, the tests pass, and
 * the next read goes through the helper again.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTrust, textOf, writeSample } from '../helpers/build-project.js';
import { eventually, startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';
import { startMcp, type McpSessionHandle } from '../helpers/mcp-client.js';
import { tempDir } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

let world: DeviceWorld;
let serial: string;
let session: McpSessionHandle;
const work = tempDir('droidbus-connected-');
const project = path.join(work.dir, 'app');

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 40, logcatRate: 0 });
  serial = world.serials[0]!;
  const env = { ...(world.server.env as Record<string, string>), DROIDBUS_HOME: world.home };
  const installed = await runCli(['helper', 'install', '--serial', serial], { env });
  expect(installed.code, installed.stderr).toBe(0);
  await writeSample(project, world.home);
  await setTrust(project, world.home, true);
  // Slow enough for a read to land while the tests run.
  session = await startMcp(['--toolsets', 'all', '--project', project], {
    env: { ...env, SIM_GRADLE_DURATION_MS: '3000' },
  });
}, 120_000);
afterAll(async () => {
  await session?.close();
  await world?.stop();
  work.remove();
});

async function read(): Promise<{ isError: boolean; text: string; reader: unknown }> {
  const r = await session.client.callTool({ name: 'get_ui_hierarchy', arguments: { device_serial: serial } });
  return {
    isError: r.isError === true,
    text: textOf(r),
    reader: (r.structuredContent as Record<string, unknown> | undefined)?.['reader'],
  };
}

/** The sample project's Gradle, run by hand against the world's adb server. */
function gradlew(task: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(project, 'gradlew'), [task, '--console=plain'], {
      cwd: project,
      env: { ...process.env, ...(world.server.env as Record<string, string>), SIM_GRADLE_DURATION_MS: '200' },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

describe("an app's connected tests beside the UI helper", () => {
  it('fail where UI Automator is used while the helper holds the UiAutomation (run by hand)', async () => {
    expect((await read()).reader).toBe('helper');
    const run = await gradlew('connectedDemoDebugAndroidTest');
    expect(run.code, run.out).not.toBe(0);
    expect(run.out).toMatch(/Starting 3 tests on \S.* - \d+/);
    expect(run.out).toMatch(
      /com\.droidbus\.sample\.LoginActivityTest > signInFormIsOnScreen\[.+\] FAILED \n\tjava\.lang\.IllegalStateException: UiAutomationService .*already registered!/,
    );
    expect(run.out).not.toContain('packageNameIsTheSampleApp[');
    expect(run.out).toMatch(/Tests on .+ failed: There was 1 failure\(s\)\./);
    expect(run.out).toContain('There were failing tests. See the report at: file://');
  });

  it('pass through run_tests: the helper is stopped for them, reads say why, and it reads again after', async () => {
    expect((await read()).reader).toBe('helper');
    const running = session.client.callTool(
      { name: 'run_tests', arguments: { test_type: 'connected', variant: 'demoDebug' } },
      undefined,
      { timeout: 120_000 },
    );
    // While the tests run, a read is refused at once, naming who has the device.
    const refused = await eventually(
      async () => {
        const r = await read();
        return r.isError && r.text.includes('lent to the connected tests of build') ? r : undefined;
      },
      60_000,
      'a read refused during the tests',
    );
    expect(refused.text).toContain('connectedDemoDebugAndroidTest');
    const result = await running;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ result: 'success' });
    const after = await read();
    expect(after.isError, after.text).toBe(false);
    expect(after.reader).toBe('helper');
  });
});

describe('selected connected tests', () => {
  it('runs one test by Class#method, says when a selection matches none, and refuses what is not a test name', async () => {
    const call = async (args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> => {
      const r = await session.client.callTool(
        { name: 'run_tests', arguments: { test_type: 'connected', variant: 'demoDebug', ...args } },
        undefined,
        { timeout: 120_000 },
      );
      return { isError: r.isError === true, text: textOf(r) };
    };
    const log = async (): Promise<string> =>
      textOf(await session.client.callTool({ name: 'get_build_log', arguments: { lines: 400 } }));

    const one = await call({ tests: ['com.droidbus.sample.LoginActivityTest#packageNameIsTheSampleApp'] });
    expect(one.isError, one.text).toBe(false);
    expect(await log()).toMatch(/Starting 1 tests on \S.* - \d+/);

    // Everything in the package but the one class: the other's two tests.
    const rest = await call({ tests: ['com.droidbus.sample.*', '-com.droidbus.sample.WelcomeTest'] });
    expect(rest.isError, rest.text).toBe(false);
    expect(await log()).toMatch(/Starting 2 tests on /);

    const none = await call({ tests: ['com.droidbus.sample.NoSuchTest'] });
    expect(none.isError).toBe(true);
    expect(none.text).toMatch(/ConnectedDevice > No tests found\.\[.+\] FAILED/);
    expect(await log()).toMatch(/Starting 0 tests on .*\n[\s\S]*No tests found\./);

    const hostile = await call({ tests: ['com.droidbus.sample.LoginActivityTest; reboot'] });
    expect(hostile.isError).toBe(true);
    expect(hostile.text).toContain('Class, Class#method or package.*');
    const unit = await session.client.callTool({
      name: 'run_tests',
      arguments: { tests: ['com.droidbus.sample.CartRepositoryTest'] },
    });
    expect(unit.isError).toBe(true);
    expect(textOf(unit)).toContain('tests selects connected tests');
  }, 180_000);
});
