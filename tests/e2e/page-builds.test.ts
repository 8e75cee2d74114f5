/**
 * The host's page steering what agents do, in a real browser: trusting the project on the page
 * lets the agent's next build run; an agent's build streams into the Builds view and is cancelled
 * from the page (the agent reads that the user on the host cancelled it); a crash on the sim shows
 * in Crashes and Deobfuscate retraces it with the release build's mapping; logcat tails live with
 * the query syntax; the activity log lists the tool calls.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_CRASH_RETRACED, SAMPLE_MAP_ID } from '../../src/sim/index.js';
import { startAdbServer } from '../helpers/adb-server.js';
import type { AdbServer } from '../helpers/adb-server.js';
import { readHistory, textOf, writeSample } from '../helpers/build-project.js';
import { shortTempDir, startHostProcess, waitFor } from '../helpers/host.js';
import type { HostProcess } from '../helpers/host.js';
import { startMcp } from '../helpers/mcp-client.js';
import type { McpSessionHandle } from '../helpers/mcp-client.js';
import { saveScreenshot, startBrowser } from '../helpers/page-browser.js';
import type { TestBrowser } from '../helpers/page-browser.js';
import { tempDir } from '../helpers/paths.js';
import { startSimFarm } from '../helpers/sim-farm.js';
import type { SimFarm } from '../helpers/sim-farm.js';
import { refusedWith } from '../helpers/tool-errors.js';

const PKG = 'com.droidbus.sample.demo';
const home = shortTempDir('db-pgb-');
const work = tempDir('droidbus-page-builds-');
let project: string;
let server: AdbServer;
let farm: SimFarm;
let serial: string;
let host: HostProcess;
let browser: TestBrowser;
let page: Page;
let mcp: McpSessionHandle;

async function call(name: string, args: Record<string, unknown> = {}) {
  return mcp.client.callTool({ name, arguments: args });
}

async function view(name: string): Promise<void> {
  await page.getByRole('link', { name, exact: true }).click();
  await page.locator('main h2', { hasText: name }).waitFor();
}

beforeAll(async () => {
  await writeSample(path.join(work.dir, 'app'), home.dir);
  project = realpathSync(path.join(work.dir, 'app'));
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 2 });
  // Each sample build takes 8 s: long enough to watch one stream and cancel it from the page.
  const env = {
    ...(server.env as Record<string, string>),
    DROIDBUS_HOME: home.dir,
    SIM_GRADLE_DURATION_MS: '8000',
  };
  host = await startHostProcess(['--project', project, '--ui', '127.0.0.1:0'], { env });
  const link = (await waitFor(() => /page: (\S+)/.exec(host.stdout()), 'the login link'))[1]!;
  browser = await startBrowser();
  page = await browser.context.newPage();
  await page.goto(link);
  await page.locator('nav').waitFor();
  mcp = await startMcp([], { env, cwd: project });
  const info = await call('get_project_info');
  expect((info.structuredContent as { mode: string }).mode).toBe('attached');
  // The device listed last: the Logcat view must open on it because it streams, not because it
  // comes first.
  const listed = (await call('list_devices')).structuredContent as { devices: { serial: string }[] };
  serial = listed.devices.at(-1)!.serial;
});
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await browser?.close();
  await host?.stop();
  await farm?.stop();
  await server?.stop();
  home.remove();
  work.remove();
});

describe('the page steering agents', () => {
  it("lets the agent's next run_gradle_task run once the project is trusted on the page", async () => {
    expect(
      await refusedWith(call('run_gradle_task', { task: 'assembleDemoDebug' }), 'untrusted_project'),
    ).toMatch(/not trusted/);
    await view('Trust & approvals');
    const row = page.locator(`tr[data-root="${project}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('not trusted');
    expect(await row.textContent()).toContain('open in the host');
    await row.getByRole('button', { name: `Trust ${project}` }).click();
    await row.getByRole('button', { name: 'Trust this project' }).click();
    await waitFor(
      async () => (await row.locator('td').first().textContent())?.trim() === 'trusted',
      'the row to say trusted',
    );
    await saveScreenshot(page, 'page-trust');
    const built = await call('run_gradle_task', { task: 'assembleDemoDebug' });
    expect(textOf(built)).toContain('BUILD SUCCESSFUL');
  });

  it('runs a run configuration from the page through the same bus request as the tool: built, installed, launched', async () => {
    await view('Builds');
    const panel = page.locator('section[aria-labelledby="run-configurations-h"]');
    await panel.getByLabel('Device').selectOption(serial);
    await panel.getByRole('button', { name: 'Run app (demoDebug)' }).click();
    const outcome = panel.locator('p[data-outcome]');
    await outcome.waitFor({ timeout: 40_000 });
    expect(await outcome.getAttribute('data-outcome')).toBe('done');
    expect(await outcome.textContent()).toMatch(new RegExp(`launched .* on ${serial}`));
    // The person ran it: the build is theirs in the history, and the app now runs on that device.
    expect(readHistory(home.dir).at(-1)?.origin).toEqual({ kind: 'host' });
    const pid = await server.adb(['-s', serial, 'shell', `pidof ${PKG}.debug`]);
    expect(pid.stdout.trim()).toMatch(/^\d+$/);
  });

  it("streams an agent's build into the Builds view and cancels it from the page; the agent sees who cancelled it", async () => {
    await view('Builds');
    const running = call('run_gradle_task', { task: 'assembleDemoDebug' });
    const panel = page.locator('section.panel.running');
    await panel.waitFor({ timeout: 15_000 });
    expect(await panel.textContent()).toContain('agent droidbus-e2e');
    const log = panel.locator('pre.log');
    await waitFor(
      async () => (await log.textContent())?.includes('> Task :app:'),
      'Gradle lines to stream in',
    );
    const before = await log.locator('span').count();
    await waitFor(async () => (await log.locator('span').count()) > before, 'more lines to arrive');
    await saveScreenshot(page, 'page-builds-running');
    await panel.getByRole('button', { name: 'Cancel build' }).click();
    const result = await running;
    expect(textOf(result)).toContain('cancelled by the user on the droidbus host');
    const history = page.getByRole('table', { name: 'Build history' });
    await history.locator('tr', { hasText: "cancelled by you (the host's user)" }).waitFor();
    const record = readHistory(home.dir).find((r) => r.result === 'cancelled');
    expect(record?.cancelled_by).toEqual({ kind: 'host' });
    expect(record?.origin).toMatchObject({ kind: 'agent', client_name: 'droidbus-e2e' });
  });

  it("shows a build's diagnostics linked to where they are, and the output line Gradle printed them on", async () => {
    const history = page.getByRole('table', { name: 'Build history' });
    // The agent's first build compiled the sources (the page's run found them up to date).
    await history
      .locator('tr', { hasText: 'success' })
      .filter({ hasText: 'droidbus-e2e' })
      .first()
      .getByRole('button')
      .click();
    const details = page.locator('section[aria-labelledby="build-details-h"]');
    await details.waitFor();
    const loc = details.locator('.diag a.loc').first();
    await loc.waitFor();
    expect(await loc.textContent()).toMatch(/LoginActivity\.kt:\d+:\d+$/);
    await loc.click();
    await details.locator('pre.log span.target').waitFor();
    expect(await details.locator('pre.log span.target').textContent()).toContain('is deprecated');
    await saveScreenshot(page, 'page-build-details');
  });

  it('shows a crash injected on the sim in Crashes, and Deobfuscate shows the retraced trace and how the mapping was matched', async () => {
    const release = await call('run_gradle_task', { task: 'assembleDemoRelease' });
    expect(textOf(release)).toContain('BUILD SUCCESSFUL');
    const apk = (await call('find_apk_path', { variant: 'demoRelease' })).structuredContent as {
      path: string;
    };
    expect((await server.adb(['-s', serial, 'install', '-r', apk.path])).stdout).toContain('Success');

    expect((await call('start_logcat', { device_serial: serial, from_now: true })).isError).toBeFalsy();
    await view('Logcat');
    await page.getByText(`Streaming ${serial}`).waitFor();
    await server.adb(['-s', serial, 'shell', `sim crash ${PKG} java`]);

    await view('Crashes');
    const groups = page.getByRole('table', { name: 'Crash groups' });
    // The group's title is the obfuscated top frame (`a.d at a.c.a(r8-map-id-…)`).
    const row = groups.locator('tr', { hasText: PKG });
    await row.waitFor({ timeout: 20_000 });
    expect(await row.locator('td.count').textContent()).toBe('1');
    await row.getByRole('button').click();
    const trace = page.locator('pre.trace[aria-label="Stack trace"]');
    await trace.waitFor();
    expect(await trace.textContent()).toContain(`r8-map-id-${SAMPLE_MAP_ID}`);
    await page.getByRole('button', { name: 'Deobfuscate' }).click();
    const retraced = page.locator('.retrace.retraced');
    await retraced.waitFor({ timeout: 30_000 });
    expect(await retraced.locator('.mapping-line').textContent()).toContain(`map id ${SAMPLE_MAP_ID}`);
    // How it was matched is said once, in the mapping line.
    const said = (await retraced.textContent()) ?? '';
    expect(said.match(/matched by/gi)).toHaveLength(1);
    expect(said).toContain("matched by the trace's r8-map-id frames");
    // The heading names the deobfuscated exception and frame; the obfuscated title stays beside it.
    const heading = (await page.locator('#crash-h').textContent()) ?? '';
    expect(heading).toContain(SAMPLE_CRASH_RETRACED[0]!.trim());
    expect(heading).toContain('at com.droidbus.sample.data.CartRepository.totalFor(CartRepository.kt:25)');
    expect(heading).not.toContain('r8-map-id');
    expect(await page.getByText('As logcat printed it:').textContent()).toContain('r8-map-id');
    const text = (await retraced.locator('pre.trace').textContent()) ?? '';
    for (const line of SAMPLE_CRASH_RETRACED.slice(0, 4)) {
      expect(text).toContain(line.trim());
    }
    await saveScreenshot(page, 'page-crashes', true);
  });

  it("tails the device's logcat live and filters it with the Studio query syntax", async () => {
    await view('Logcat');
    const lines = page.locator('.logcat .line');
    await lines.first().waitFor();
    await page.getByLabel('Query').fill('is:crash');
    await page.getByRole('button', { name: 'Filter' }).click();
    await waitFor(async () => {
      const n = await lines.count();
      return n > 0 && n === (await page.locator('.logcat .line.crash').count());
    }, 'only crash lines to be shown');
    await saveScreenshot(page, 'page-logcat');
    await page.getByRole('button', { name: 'Clear' }).click();
    await waitFor(async () => (await lines.count()) === 0, 'the tail to be cleared');
  });

  it('lists the tool calls with their duration and status in Activity', async () => {
    await view('Activity');
    const table = page.getByRole('table', { name: 'Recent activity' });
    const row = table.locator('tr', { hasText: 'run_gradle_task' }).first();
    await row.waitFor();
    expect(await row.textContent()).toMatch(/\d+(\.\d)? s/);
    await saveScreenshot(page, 'page-activity');
  });
});
