/**
 * The host page's Debug sessions view in a real browser, fed by an agent's real tool calls: an MCP
 * client attached to the built host builds the sample app, installs it with install_apk, launches
 * it with launch_app and streams logcat; the sim crashes it. The view lists the session, its
 * timeline shows install → launch → crash with the crash attributed to the install, and after a
 * second install (of a build made after a build-file change) the two sessions compared show what
 * differs. Chromium through playwright-core, the host as a real process, a private adb server and
 * `droidbus sim`.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbServer } from '../helpers/adb-server.js';
import type { AdbServer } from '../helpers/adb-server.js';
import { setTrust, textOf, writeSample } from '../helpers/build-project.js';
import { shortTempDir, startHostProcess, waitFor } from '../helpers/host.js';
import type { HostProcess } from '../helpers/host.js';
import { EVERY_TOOLSET, startMcp } from '../helpers/mcp-client.js';
import type { McpSessionHandle } from '../helpers/mcp-client.js';
import { saveScreenshot, startBrowser } from '../helpers/page-browser.js';
import type { TestBrowser } from '../helpers/page-browser.js';
import { tempDir } from '../helpers/paths.js';
import { startSimFarm } from '../helpers/sim-farm.js';
import type { SimFarm } from '../helpers/sim-farm.js';

const PKG = 'com.droidbus.sample.demo.debug';
const APK = 'app/build/outputs/apk/demo/debug/app-demo-debug.apk';
const home = shortTempDir('db-pgd-');
const work = tempDir('droidbus-page-sessions-');
let project: string;
let server: AdbServer;
let farm: SimFarm;
let serial: string;
let host: HostProcess;
let browser: TestBrowser;
let page: Page;
let mcp: McpSessionHandle;
let first: string;
let second: string;
let firstBuild: string;
let secondBuild: string;

function git(...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: project });
}

/** One tool call as the agent makes it; a tool error fails the test with its text. */
async function call(name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const r = await mcp.client.callTool({ name, arguments: args });
  expect(r.isError, `${name}: ${textOf(r)}`).toBeFalsy();
  return r.structuredContent as Record<string, unknown>;
}

/** Builds, installs with install_apk and launches with launch_app; the build's id and the new session's. */
async function buildInstallLaunch(previous: string | null): Promise<{ build: string; session: string }> {
  const built = await call('run_gradle_task', { task: 'assemble', variant: 'demoDebug' });
  await call('install_apk', { device_serial: serial, apk_path: APK });
  const session = await waitFor(async () => {
    const listed = await call('list_debug_sessions', { state: 'open' });
    const id = (listed['sessions'] as { id: string }[])[0]?.id;
    return id !== undefined && id !== previous ? id : null;
  }, 'the install’s debug session');
  await call('launch_app', { device_serial: serial, package: PKG });
  return { build: built['build_id'] as string, session };
}

async function view(name: string): Promise<void> {
  await page.getByRole('link', { name, exact: true }).click();
  await page.locator('main h2', { hasText: name }).waitFor();
}

/** The kinds of the timeline's events as the page shows them, agent actions left out. */
async function shownKinds(): Promise<string[]> {
  const kinds = await page
    .getByRole('list', { name: 'Session timeline' })
    .locator('li')
    .evaluateAll((items) => items.map((li) => li.getAttribute('data-kind') ?? ''));
  return kinds.filter((k) => k !== 'agent_action');
}

beforeAll(async () => {
  await writeSample(path.join(work.dir, 'app'), home.dir);
  project = realpathSync(path.join(work.dir, 'app'));
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'sample');
  await setTrust(project, home.dir, true);
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 1 });
  serial = farm.devices[0]!.serial;
  const env = {
    ...(server.env as Record<string, string>),
    DROIDBUS_HOME: home.dir,
    SIM_GRADLE_DURATION_MS: '300',
  };
  host = await startHostProcess(['--project', project, '--ui', '127.0.0.1:0'], { env });
  const link = (await waitFor(() => /page: (\S+)/.exec(host.stdout()), 'the login link'))[1]!;
  browser = await startBrowser();
  page = await browser.context.newPage();
  await page.goto(link);
  await page.locator('nav').waitFor();
  mcp = await startMcp(EVERY_TOOLSET, { env, cwd: project });
  expect((await call('get_project_info'))['mode']).toBe('attached');
}, 120_000);
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await browser?.close();
  await host?.stop();
  await farm?.stop();
  await server?.stop();
  home.remove();
  work.remove();
});

describe("the page's Debug sessions view", () => {
  it('lists the session an agent’s install_apk opened, and its timeline shows install → launch → crash', async () => {
    await view('Debug sessions');
    await page.getByText('No debug session yet').waitFor();

    ({ build: firstBuild, session: first } = await buildInstallLaunch(null));
    await call('start_logcat', { device_serial: serial, from_now: true });
    const row = page.locator(`tr[data-session="${first}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain(`build ${firstBuild} :app demoDebug`);
    await row.getByRole('button', { name: PKG }).click();
    const timeline = page.locator('section[aria-labelledby="ds-h"]');
    await timeline.waitFor();
    // The device's model is read once the session opened: the heading names it when it is known.
    await waitFor(
      async () => (await timeline.locator('h3').textContent()) === `${PKG} on Pixel 8 — open`,
      "the session's heading",
    );
    await waitFor(async () => (await shownKinds()).includes('launch'), 'the launch in the timeline');

    const crashed = await server.adb(['-s', serial, 'shell', `sim crash ${PKG} java`]);
    expect(crashed.code, crashed.stderr).toBe(0);
    await waitFor(async () => (await shownKinds()).includes('crash'), 'the crash in the timeline', 30_000);
    expect((await shownKinds()).filter((k) => ['install', 'launch', 'crash'].includes(k))).toEqual([
      'install',
      'launch',
      'crash',
    ]);
    const launch = timeline.locator('li[data-kind="launch"]');
    expect(await launch.textContent()).toMatch(/launched .*LoginActivity: \d+ ms \(COLD\)/);
    expect(await launch.textContent()).toContain('agent droidbus-e2e');
    const crash = page.getByRole('list', { name: 'Session crashes' }).locator('li');
    expect(await crash.textContent()).toMatch(/java .*IllegalStateException.*\(this install, verified: /);
    await waitFor(
      async () => (await row.locator('td.counts').textContent())?.trim() === '1 / 1 / 0',
      'the list to count the launch and the crash',
    );
    // The agent's launch_app, exported as a Maestro flow the person can save.
    await timeline.getByRole('button', { name: 'Export as a Maestro flow' }).click();
    const flow = page.locator('pre.flow');
    await flow.waitFor();
    expect(await flow.textContent()).toMatch(
      new RegExp(`appId: ${PKG.replace(/\./g, '\\.')}\n[^]*---\n- launchApp`),
    );
    expect(await page.getByRole('link', { name: `Save ${first}.yaml` }).getAttribute('download')).toBe(
      `${first}.yaml`,
    );
  });

  it('compares the crashed session with the next install and shows what differs', async () => {
    appendFileSync(path.join(project, 'app/build.gradle.kts'), '\n// a change\n');
    ({ build: secondBuild, session: second } = await buildInstallLaunch(first));
    const newer = page.locator(`tr[data-session="${second}"]`);
    await newer.waitFor();
    await waitFor(
      async () =>
        (await page.locator(`tr[data-session="${first}"] td`).nth(1).textContent())?.startsWith('superseded'),
      'the first session to be superseded',
    );
    await page.getByRole('checkbox', { name: `Pick ${first} to compare` }).check();
    await page.getByRole('checkbox', { name: `Pick ${second} to compare` }).check();
    await page.getByRole('button', { name: 'Compare the two picked' }).click();
    const differences = page.getByRole('table', { name: 'Differences' });
    await differences.waitFor();
    const buildRow = differences.locator('tr', { has: page.locator('th', { hasText: 'build_id' }) });
    expect(await buildRow.locator('td').allTextContents()).toEqual([firstBuild, secondBuild]);
    const panel = page.locator('section[aria-labelledby="cmp-h"]');
    expect(await panel.textContent()).toMatch(/New crashes: none · gone: java\|/);
    expect(await panel.textContent()).toContain('Build files: app/build.gradle.kts changed');
    expect(await panel.textContent()).toMatch(/Launch: \d+ ms → \d+ ms \([+-]?\d+ ms\)/);
    await saveScreenshot(page, 'page-debug-sessions', true);
  });
});
