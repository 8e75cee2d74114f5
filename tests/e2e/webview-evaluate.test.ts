/**
 * JavaScript in a WebView only where the user allowed it (issue 73): through MCP against the sample
 * project's own debug build (built by its gradlew stand-in, installed with install_apk), webview_evaluate
 * answers in a trusted project, and is refused once the project is untrusted — before any script runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTrust, writeSample } from '../helpers/build-project.js';
import { startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';
import { tempDir } from '../helpers/paths.js';
import { until } from '../helpers/until.js';
import { SAMPLE_WEB_ACTIVITY } from '../helpers/webview-apk.js';

const project = tempDir('droidbus-webeval-project-');
const home = tempDir('droidbus-webeval-home-');
let world: DeviceWorld;
let serial: string;

beforeAll(async () => {
  await writeSample(project.dir, home.dir);
  await setTrust(project.dir, home.dir, true);
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 20 }, ['--project', project.dir], {
    DROIDBUS_HOME: home.dir,
  });
  serial = world.serials[0]!;
  const build = await world.call('run_gradle_task', { task: 'assembleDemoDebug' });
  expect(build.text).toContain('BUILD SUCCESSFUL');
  const apk = await world.call('find_apk_path', { variant: 'demoDebug' });
  const installed = await world.call('install_apk', {
    device_serial: serial,
    apk_path: String(apk.structured['path']),
  });
  expect(installed.isError, installed.text).toBe(false);
  await world.shell(
    serial,
    `am start -W -n ${String(apk.structured['application_id'])}/${SAMPLE_WEB_ACTIVITY}`,
  );
}, 120_000);

afterAll(async () => {
  await world?.stop();
  project.remove();
  home.remove();
});

describe('webview_evaluate', () => {
  it("runs in the trusted project's own WebView: values as JSON, throws as the console says them", async () => {
    const title = await until(
      'the page loaded',
      async () => {
        const r = await world.call('webview_evaluate', {
          device_serial: serial,
          expression: 'document.title',
        });
        return r.text.includes('Sign in (web)') ? r : undefined;
      },
      20_000,
    );
    expect(title.isError, title.text).toBe(false);
    expect(title.structured).toMatchObject({ type: 'string', result: '"Sign in (web)"', exception: null });
    const fields = await world.call('webview_evaluate', {
      device_serial: serial,
      expression: '[...document.querySelectorAll("input")].map((i) => i.id)',
    });
    expect(fields.structured['result']).toBe('["email","password"]');
    const threw = await world.call('webview_evaluate', { device_serial: serial, expression: 'null.x' });
    expect(threw.isError).toBe(false);
    expect(threw.structured['exception']).toMatch(/^TypeError: Cannot read properties of null/);
  }, 60_000);

  it('is refused once the project is untrusted, and runs nothing', async () => {
    await world.call('webview_evaluate', {
      device_serial: serial,
      expression: 'document.body.dataset.mark = "before"',
    });
    await setTrust(project.dir, home.dir, false);
    try {
      const r = await world.call('webview_evaluate', {
        device_serial: serial,
        expression: 'document.body.dataset.mark = "after"',
      });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("only for a trusted project's own app");
    } finally {
      await setTrust(project.dir, home.dir, true);
    }
    const mark = await world.call('webview_evaluate', {
      device_serial: serial,
      expression: 'document.body.dataset.mark',
    });
    expect(mark.structured['result']).toBe('"before"');
  }, 60_000);
});
