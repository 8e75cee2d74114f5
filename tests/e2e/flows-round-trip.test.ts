/**
 * Issue 59's round trip, end to end: the demo's job (sign in → home → crash) driven through a real
 * `droidbus mcp` session (SDK client, built CLI, real adb server, `droidbus sim` devices), exported
 * from its debug session as a Maestro flow with export_test, and replayed with run_flow on 4 devices
 * at once — passing; then the same flow with one expected text changed fails at that step on every
 * device, with the screen there. The password typed in the session never reaches the flow.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { ResponseOf } from '../../src/bus/registry.js';
import { startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { setTrust, textOf, writeSample } from '../helpers/build-project.js';
import { runCli } from '../helpers/run-cli.js';
import { shortTempDir } from '../helpers/host.js';
import { EVERY_TOOLSET, startMcp, type McpSessionHandle } from '../helpers/mcp-client.js';
import { tempDir } from '../helpers/paths.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';
import { until } from '../helpers/until.js';

const PKG = 'com.droidbus.sample.demo.debug';
const APK = 'app/build/outputs/apk/demo/debug/app-demo-debug.apk';
const PASSWORD = 'analytical engine';
const home = shortTempDir('dbf-');
const work = tempDir('droidbus-flows-');
const project = path.join(work.dir, 'sample');

let server: AdbServer;
let farm: SimFarm;
let mcp: McpSessionHandle;
let serials: string[];
let exported: ResponseOf<'sessions.export'>;
let exportedId: string;
let env: Record<string, string>;

type Run = ResponseOf<'flows.run'>;

async function call(name: string, args: Record<string, unknown> = {}) {
  const r = await mcp.client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 });
  return {
    text: textOf(r),
    structured: r.structuredContent as Record<string, unknown>,
    isError: r.isError === true,
    content: r.content as { type: string; mimeType?: string }[],
  };
}

async function ok(name: string, args: Record<string, unknown> = {}) {
  const r = await call(name, args);
  expect(r.isError, `${name}: ${r.text}`).toBe(false);
  return r;
}

interface Row {
  tree_path: string;
  resource_id: string;
}

function byId(rows: Row[], id: string): Row {
  const row = rows.find((r) => r.resource_id.endsWith(`:id/${id}`));
  expect(row, `an element with id ${id}`).toBeDefined();
  return row!;
}

beforeAll(async () => {
  await writeSample(project, home.dir);
  await setTrust(project, home.dir, true);
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 4 });
  serials = farm.devices.map((d) => d.serial);
  // One device of another size and density (before anything reads its display): an exported flow's
  // element choices must hold there too (issue 71).
  await server.adb(['-s', serials[3]!, 'shell', 'wm size 720x1600 && wm density 320']);
  env = {
    ...(server.env as Record<string, string>),
    DROIDBUS_HOME: home.dir,
    SIM_GRADLE_DURATION_MS: '300',
  };
  mcp = await startMcp([...EVERY_TOOLSET, '--project', project], { env });
  await ok('run_gradle_task', { task: 'assemble', variant: 'demoDebug' });
  for (const serial of serials) {
    await ok('install_apk', { device_serial: serial, apk_path: APK });
  }
}, 240_000);

afterAll(async () => {
  await mcp?.close();
  await farm?.stop();
  await server?.stop();
  home.remove();
  work.remove();
});

describe('an agent session becomes a Maestro flow that runs on many devices', () => {
  it('drives the demo job on one device and exports it as a flow without the password', async () => {
    const serial = serials[0]!;
    await ok('launch_app', { device_serial: serial, package: PKG });
    const rows = (await ok('list_clickable_elements', { device_serial: serial })).structured['rows'] as Row[];
    await ok('ui_fill_input', {
      device_serial: serial,
      tree_path: byId(rows, 'username').tree_path,
      text: 'ada@example.com',
    });
    await ok('ui_fill_input', {
      device_serial: serial,
      tree_path: byId(rows, 'password').tree_path,
      text: PASSWORD,
    });
    await ok('ui_tap_element', { device_serial: serial, tree_path: byId(rows, 'sign_in').tree_path });
    await ok('wait_for_element', { device_serial: serial, text_contains: 'welcome', timeout_ms: 10_000 });
    const crash = (await ok('find_ui_elements', { device_serial: serial, resource_id: 'crash' })).structured[
      'matches'
    ] as Row[];
    await ok('ui_tap_element', { device_serial: serial, tree_path: crash[0]!.tree_path });

    const id = await until('the session of the driven device', async () => {
      const r = await call('list_debug_sessions', { device_serial: serial, package: PKG });
      return (r.structured['sessions'] as { id: string }[])[0]?.id;
    });
    // The agent actions reach the session fire-and-forget: wait until the last tap is in it.
    exported = await until(
      'the exported flow with the crash tap',
      async () => {
        const r = await call('export_test', { session_id: id });
        return !r.isError && /crash/.test(String(r.structured['yaml']))
          ? (r.structured as unknown as ResponseOf<'sessions.export'>)
          : undefined;
      },
      20_000,
    );

    exportedId = id;
    const { yaml } = exported;
    expect(yaml).not.toContain(PASSWORD);
    expect(yaml).not.toContain('analytical');
    const [config, commands] = parseAllDocuments(yaml).map((d) => d.toJSON() as unknown);
    expect(config).toMatchObject({ appId: PKG });
    expect(commands).toEqual([
      'launchApp',
      { tapOn: { id: 'username' } },
      // ui_fill_input clears a field before typing: these fields show their hint as their text.
      'eraseText',
      { inputText: 'ada@example.com' },
      { tapOn: { id: 'password' } },
      'eraseText',
      { inputText: '${PASSWORD}' },
      { tapOn: { id: 'sign_in' } },
      { extendedWaitUntil: { visible: '.*welcome.*', timeout: 10_000 } },
      { tapOn: { id: 'crash' } },
      // The crash left the launcher in front: the flow asserts the app's last screen is gone, never a launcher label.
      expect.objectContaining({ assertNotVisible: expect.any(String) }),
    ]);
    expect(exported.variables).toEqual([{ name: 'PASSWORD', field: 'password' }]);
  }, 120_000);

  it('replays the exported flow on 4 devices at once, passing on each, one of them of another size', async () => {
    expect((await server.adb(['-s', serials[3]!, 'shell', 'wm size'])).stdout).toContain(
      'Override size: 720x1600',
    );
    expect((await server.adb(['-s', serials[0]!, 'shell', 'wm size'])).stdout).not.toContain('720x1600');
    const r = await ok('run_flow', { yaml: exported.yaml, device_serials: serials, env: { PASSWORD } });
    const run = r.structured as unknown as Run;
    expect(run.devices.map((d) => [d.serial, d.passed, d.failed?.reason ?? null])).toEqual(
      serials.map((s) => [s, true, null]),
    );
    expect(run.devices.every((d) => d.commands_run === exported.commands)).toBe(true);
    expect(run.devices.every((d) => d.step_ms.length === exported.commands)).toBe(true);
    expect(r.text).toContain(`${serials.length} passed, 0 failed`);
  }, 180_000);

  it('fails a changed expected text at that step on every device, with the screen there', async () => {
    const changed = exported.yaml.replace('.*welcome.*', '.*farewell.*');
    expect(changed).not.toBe(exported.yaml);
    const r = await ok('run_flow', {
      yaml: changed,
      device_serials: serials,
      env: { PASSWORD },
      lookup_timeout_ms: 2_000,
    });
    const run = r.structured as unknown as Run;
    expect(run.failed).toBe(serials.length);
    // The wait's place in the flow (from 1), and its line in the YAML.
    const index =
      (parseAllDocuments(changed)[1]!.toJSON() as unknown[]).findIndex((c) =>
        JSON.stringify(c).includes('farewell'),
      ) + 1;
    const line = changed.split('\n').findIndex((l) => l.includes('extendedWaitUntil')) + 1;
    for (const d of run.devices) {
      expect(d.failed).toMatchObject({ index, line, file: 'flow.yaml' });
      expect(d.failed!.command).toContain('farewell');
      expect(d.failed!.reason).toContain('farewell');
      // The screen there: the home screen the flow reached, as rows and a screenshot.
      expect(d.screen!.rows.join('\n')).toMatch(/Welcome, /);
      expect(existsSync(d.screen!.screenshot!)).toBe(true);
    }
    expect(r.content.some((c) => c.type === 'image' && c.mimeType === 'image/jpeg')).toBe(true);
    expect(r.text).toContain(`FAILED at ${index}. `);
  }, 180_000);

  it('refuses a flow with a command it does not run, by name, before anything runs', async () => {
    const flow = `appId: ${PKG}\n---\n- launchApp\n- repeat:\n    times: 2\n    commands:\n      - back\n`;
    const r = await call('run_flow', { yaml: flow, device_serials: serials });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('flow.yaml:4: repeat is a Maestro command droidbus does not run');
  });

  it('refuses a second flow on a device a flow is running on', async () => {
    const slow = `appId: ${PKG}\n---\n- extendedWaitUntil:\n    visible: never shown\n    timeout: 4000\n`;
    const first = call('run_flow', { yaml: slow, device_serials: [serials[3]!] });
    // The second starts once the first holds the device: poll until it is refused, or the first ends.
    const second = await until('a second run refused', async () => {
      const r = await call('run_flow', { yaml: slow.replace('4000', '0'), device_serials: [serials[3]!] });
      return r.isError ? r : undefined;
    });
    expect(second.text).toContain(`a flow is already running on ${serials[3]}`);
    expect((await first).structured['failed']).toBe(1);
  }, 60_000);

  it('refuses to run a flow whose password variable has no value', async () => {
    const r = await call('run_flow', { yaml: exported.yaml, device_serials: serials.slice(0, 1) });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('${PASSWORD} has no value');
  });
});

/** A flow that uses every command run_flow runs, a runFlow with its own env, and the run's env. */
const EVERY_COMMAND = `appId: ${PKG}
name: every command
env:
  USER: ada@example.com
---
- launchApp:
    clearState: true
- assertVisible: Sign in
- runFlow:
    file: login.yaml
    env:
      SECRET: \${PASSWORD}
- extendedWaitUntil:
    visible: "Welcome, .*"
    timeout: 5000
- assertVisible:
    id: crash
- assertNotVisible: Sign in
- scrollUntilVisible:
    element: Item 30
    direction: DOWN
- takeScreenshot: list
- openLink: droidbus://item/7
- assertVisible: Item 7
- back
- waitForAnimationToEnd:
    timeout: 3000
- assertVisible:
    id: welcome
- pressKey: Home
- assertNotVisible:
    id: welcome
- stopApp
`;

const LOGIN = `appId: ${PKG}
---
- tapOn:
    id: username
- eraseText
- inputText: \${USER}
- tapOn:
    id: password
- eraseText: 40
- inputText: \${SECRET}
- hideKeyboard
- tapOn: Sign in
`;

describe('run_flow runs every command it names, from the project', () => {
  beforeAll(() => mkdirSync(path.join(project, 'flows'), { recursive: true }));

  it('runs a flow with each listed command, runFlow and env variables on two devices', async () => {
    writeFileSync(path.join(project, 'flows', 'all.yaml'), EVERY_COMMAND);
    writeFileSync(path.join(project, 'flows', 'login.yaml'), LOGIN);
    const r = await ok('run_flow', {
      path: 'flows/all.yaml',
      device_serials: serials.slice(0, 2),
      env: { PASSWORD },
      lookup_timeout_ms: 5_000,
    });
    const run = r.structured as unknown as Run;
    expect(
      run.devices.map((d) => d.failed),
      r.text,
    ).toEqual([null, null]);
    // runFlow's 8 commands inlined among the flow's 15.
    expect(run.flow).toMatchObject({
      name: 'every command',
      commands: 23,
      variables: expect.arrayContaining(['PASSWORD', 'USER', 'SECRET']),
    });
    for (const d of run.devices) {
      expect(d.commands_run).toBe(23);
      const [shot] = d.screenshots;
      expect(path.basename(shot!)).toBe('list.png');
      expect(readFileSync(shot!).subarray(1, 4).toString()).toBe('PNG');
      // stopApp left the app stopped.
      expect((await server.adb(['-s', d.serial, 'shell', `pidof ${PKG}`])).stdout.trim()).toBe('');
    }
  }, 180_000);

  it('names the runFlow file and line of a step that fails inside it', async () => {
    writeFileSync(
      path.join(project, 'flows', 'inner.yaml'),
      `appId: ${PKG}\n---\n- assertVisible: Sign in\n- tapOn:\n    id: no_such_button\n`,
    );
    writeFileSync(
      path.join(project, 'flows', 'outer.yaml'),
      `appId: ${PKG}\n---\n- launchApp:\n    clearState: true\n- runFlow: inner.yaml\n`,
    );
    const r = await ok('run_flow', {
      path: 'flows/outer.yaml',
      device_serials: serials.slice(0, 1),
      lookup_timeout_ms: 1_000,
    });
    const run = r.structured as unknown as Run;
    expect(run.devices[0]!.failed).toMatchObject({
      index: 3,
      file: 'inner.yaml',
      line: 4,
      reason: expect.stringContaining('no_such_button'),
    });
    expect(r.text).toContain('FAILED at 3. tapOn: {"id":"no_such_button"} (inner.yaml:4)');
  }, 120_000);

  it('taps once more when a tap left the screen as it was, as Maestro does, unless retryTapIfNoChange: false (issue 71)', async () => {
    const serial = serials[2]!;
    const taps = async (): Promise<number> =>
      (JSON.parse((await server.adb(['-s', serial, 'shell', 'sim stats'])).stdout) as { taps: number }).taps;
    // The sign-in screen's title does nothing when tapped: the screen after the tap is the one before.
    const flow = (retry: string) =>
      `appId: ${PKG}\n---\n- launchApp:\n    clearState: true\n- tapOn:\n    id: title\n${retry}- assertVisible: Sign in\n`;
    const before = await taps();
    const r = await ok('run_flow', { yaml: flow(''), device_serials: [serial], lookup_timeout_ms: 5_000 });
    expect((r.structured as unknown as Run).devices[0]!.failed, r.text).toBeNull();
    expect((await taps()) - before).toBe(2);
    const once = await ok('run_flow', {
      yaml: flow('    retryTapIfNoChange: false\n'),
      device_serials: [serial],
      lookup_timeout_ms: 5_000,
    });
    expect((once.structured as unknown as Run).devices[0]!.failed, once.text).toBeNull();
    expect((await taps()) - before).toBe(3);
    // waitToSettleTimeoutMs acts: after the tap, captures until two are the same.
    const dumps = async (): Promise<number> =>
      (JSON.parse((await server.adb(['-s', serial, 'shell', 'sim stats'])).stdout) as { dumps: number })
        .dumps;
    const plain = await dumps();
    await ok('run_flow', { yaml: flow('    retryTapIfNoChange: false\n'), device_serials: [serial] });
    const withoutSettle = (await dumps()) - plain;
    const settled = await dumps();
    await ok('run_flow', {
      yaml: flow('    retryTapIfNoChange: false\n    waitToSettleTimeoutMs: 3000\n'),
      device_serials: [serial],
    });
    expect((await dumps()) - settled).toBeGreaterThanOrEqual(withoutSettle + 2);
  }, 120_000);

  it('keeps text typed with ui_type_text into a password field out of the session and the flow', async () => {
    const serial = serials[1]!;
    await ok('restart_app', { device_serial: serial, package: PKG, clear_data: true });
    const rows = (await ok('list_clickable_elements', { device_serial: serial })).structured['rows'] as Row[];
    await ok('ui_tap_element', { device_serial: serial, tree_path: byId(rows, 'password').tree_path });
    await ok('ui_type_text', { device_serial: serial, text: 'zebra-crossing-42' });
    const id = await until('the session of the second device', async () => {
      const r = await call('list_debug_sessions', { device_serial: serial, package: PKG });
      return (r.structured['sessions'] as { id: string }[])[0]?.id;
    });
    const flow = await until('the typing in the exported flow', async () => {
      const r = await call('export_test', { session_id: id });
      return !r.isError && String(r.structured['yaml']).includes('inputText')
        ? String(r.structured['yaml'])
        : undefined;
    });
    expect(flow).toContain('inputText: ${PASSWORD}');
    expect(flow).not.toContain('zebra');
    expect(readFileSync(path.join(home.dir, 'debug-sessions', `${id}.json`), 'utf8')).not.toContain('zebra');
  }, 60_000);

  it('refuses a runFlow file outside the project', async () => {
    writeFileSync(
      path.join(project, 'flows', 'out.yaml'),
      `appId: ${PKG}\n---\n- runFlow: ../../../outside.yaml\n`,
    );
    const r = await call('run_flow', { path: 'flows/out.yaml', device_serials: serials.slice(0, 1) });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/outside the project|does not exist/);
  });
});

describe('the command line', () => {
  it('droidbus session export writes the same flow as export_test', async () => {
    const r = await runCli(['session', 'export', exportedId], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(exported.yaml);
    expect(r.stderr).toContain('variables to give when running: PASSWORD');
    const unknown = await runCli(['session', 'export', 'ds-0000000000'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no debug session ds-0000000000');
    const malformed = await runCli(['session', 'export', '../../etc/passwd'], { env });
    expect(malformed.code).toBe(2);
  });

  it('droidbus flow run runs a project flow on N devices and exits 0, or 1 naming the failing step', async () => {
    const all = path.join(project, 'flows', 'all.yaml');
    const r = await runCli(
      ['flow', 'run', all, '--devices', '2', '-e', `PASSWORD=${PASSWORD}`, '--lookup-timeout', '5000'],
      { env },
    );
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain('on 2 devices: 2 passed, 0 failed');
    const failing = await runCli(
      [
        'flow',
        'run',
        path.join(project, 'flows', 'outer.yaml'),
        '--devices',
        serials[0]!,
        '--lookup-timeout',
        '1000',
        '--json',
      ],
      { env },
    );
    expect(failing.code).toBe(1);
    expect(JSON.parse(failing.stdout)).toMatchObject({
      failed: 1,
      devices: [{ failed: { file: 'inner.yaml', line: 4 } }],
    });
    const refused = await runCli(['flow', 'run', path.join(project, 'flows', 'out.yaml')], { env });
    expect(refused.code).toBe(2);
  }, 180_000);
});
