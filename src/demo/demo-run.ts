import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { answerText } from '../mcp/call-result.js';
import { startPrivateAdbServer } from '../adb/private-server.js';
import type { PrivateAdbServer } from '../adb/private-server.js';
import { trustProject } from '../project/trust.js';
import { startFarm, type Farm, SAMPLE_PACKAGE, writeSampleProject } from '../sim/index.js';
import { DemoFailed, DemoRecorder } from './demo-steps.js';
import type { DemoStep } from './demo-steps.js';

const CLI = fileURLToPath(new URL('../cli.js', import.meta.url));
const VARIANT = 'demoRelease';
const PACKAGE = `${SAMPLE_PACKAGE}.demo`;
const DEMO_PASSWORD = 'analytical engine';

export interface DemoOptions {
  /** Where the screenshots and summary.json go. */
  outDir: string;
  /** Keep the temporary project and data folder (their paths are printed). */
  keep: boolean;
  print(step: DemoStep, index: number): void;
  note(line: string): void;
}

export interface DemoResult {
  ok: boolean;
  steps: DemoStep[];
  outDir: string;
  failedAt: string | null;
}

/** A tool call that must succeed: its structured result, or a throw with the tool's own words. */
async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  onprogress?: (message: string) => void,
) {
  const result = (await client.callTool(
    { name, arguments: args },
    undefined,
    onprogress
      ? {
          onprogress: (p) => onprogress(p.message ?? `${p.progress}`),
          timeout: 300_000,
          resetTimeoutOnProgress: true,
        }
      : { timeout: 120_000 },
  )) as CallToolResult;
  const text = answerText(result);
  if (result.isError) {
    throw new Error(`${name}: ${text}`);
  }
  return { text, structured: (result.structuredContent ?? {}) as Record<string, unknown>, result };
}

function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim() !== '') ?? '';
}

interface Row {
  tree_path: string;
  label: string;
  resource_id: string;
  editable: boolean;
}

function rowById(rows: Row[], id: string): Row {
  const row = rows.find((r) => r.resource_id.endsWith(`:id/${id}`));
  if (!row) {
    throw new Error(`no element with id ${id} on the screen (saw: ${rows.map((r) => r.label).join(', ')})`);
  }
  return row;
}

/** One demo run: where it works, and what it started (stopped at the end whatever happened). */
interface DemoRun {
  options: DemoOptions;
  recorder: DemoRecorder;
  work: string;
  home: string;
  project: string;
  adbServer: PrivateAdbServer | undefined;
  farm: Farm | undefined;
  client: Client | undefined;
}

/** A private adb server, a sim device, the trusted sample project and an MCP session on them. */
async function setUp(run: DemoRun): Promise<{ mcp: Client; serial: string }> {
  await run.recorder.step('start a private adb server', async () => {
    // Its own port and HOME, and no scan of the emulator ports: an emulator or phone of yours is
    // neither seen nor touched.
    run.adbServer = await startPrivateAdbServer('droidbus demo');
    const version = await run.adbServer.client.serverVersion();
    return `adb server on 127.0.0.1:${run.adbServer.port} (protocol ${version})`;
  });
  await run.recorder.step('start a simulated device', async () => {
    run.farm = await startFarm({
      devices: 1,
      adbPort: run.adbServer!.port,
      startServer: false,
      notify: run.options.note,
    });
    const device = run.farm.devices[0]!;
    return `${device.serial} — ${device.model} (API ${device.sdk})`;
  });
  const serial = run.farm!.devices[0]!.serial;
  await run.recorder.step('write the sample Android project and trust it', async () => {
    await writeSampleProject(run.project);
    process.env['DROIDBUS_HOME'] = run.home;
    const canonical = await trustProject(run.project);
    return `${canonical} (trusted in a private droidbus data folder)`;
  });
  await run.recorder.step('connect an MCP client to droidbus mcp', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      // The demo also shows the debug session of its install, the screen's clickable elements and
      // the session replayed as a Maestro flow: the inspect, ui-extras and flows toolsets, which an
      // agent's registration adds the same way.
      args: [
        CLI,
        'mcp',
        '--project',
        run.project,
        '--toolsets',
        'core,ui,device-admin,inspect,ui-extras,flows',
      ],
      env: {
        ...(process.env as Record<string, string>),
        DROIDBUS_HOME: run.home,
        ...run.adbServer!.env,
        SIM_GRADLE_DURATION_MS: '1500',
      },
      stderr: 'ignore',
    });
    run.client = new Client({ name: 'droidbus-demo', version: '1.0.0' });
    await run.client.connect(transport);
    const info = run.client.getServerVersion();
    return `${info?.name} ${info?.version} — ${info?.title ?? ''}`;
  });
  return { mcp: run.client!, serial };
}

/** Build, find, install; logcat; launch with its launch time. */
async function buildAndRun(run: DemoRun, mcp: Client, serial: string): Promise<void> {
  await run.recorder.step(
    "build the release variant (with the sample's gradlew stand-in: no real Gradle runs)",
    async () => {
      const r = await call(mcp, 'run_gradle_task', { task: 'assemble', variant: VARIANT }, () => undefined);
      return firstLine(r.text);
    },
    'run_gradle_task',
  );
  let apkPath = '';
  await run.recorder.step(
    'find the APK the build wrote',
    async () => {
      const r = await call(mcp, 'find_apk_path', { variant: VARIANT });
      apkPath = String(r.structured['path']);
      return apkPath;
    },
    'find_apk_path',
  );
  await run.recorder.step(
    'install it (hashed and recorded against its build)',
    async () => {
      // device_serial left out, as an agent with one device does: the only online device.
      const r = await call(mcp, 'install_apk', { apk_path: apkPath });
      return (
        r.text
          .split('\n')
          .filter((l) => l.trim() !== '')
          .at(-1) ?? ''
      );
    },
    'install_apk',
  );
  await run.recorder.step(
    'stream logcat',
    async () => {
      const r = await call(mcp, 'start_logcat', { device_serial: serial, from_now: true });
      return firstLine(r.text);
    },
    'start_logcat',
  );
  await run.recorder.step(
    'launch the app and measure its start',
    async () => {
      const r = await call(mcp, 'launch_app', { package: PACKAGE });
      return r.text.split('\n').find((l) => l.startsWith('Launch time')) ?? firstLine(r.text);
    },
    'launch_app',
  );
}

/** Saves a screenshot answer's image as NAME.jpg or NAME.png (as its mime type says); returns the file name. */
function saveImage(run: DemoRun, r: Awaited<ReturnType<typeof call>>, name: string): string {
  const image = r.result.content.find((c) => c.type === 'image') as
    { data: string; mimeType: string } | undefined;
  if (!image) {
    throw new Error('the screenshot returned no image');
  }
  const file = `${name}.${image.mimeType === 'image/jpeg' ? 'jpg' : image.mimeType.replace('image/', '')}`;
  writeFileSync(path.join(run.options.outDir, file), Buffer.from(image.data, 'base64'));
  return file;
}

/** Read the screen, screenshot it, fill the login form and sign in. */
async function driveUi(run: DemoRun, mcp: Client, serial: string): Promise<void> {
  let rows: Row[] = [];
  let hash = '';
  await run.recorder.step(
    'read the screen',
    async () => {
      const r = await call(mcp, 'list_clickable_elements', { device_serial: serial });
      rows = r.structured['rows'] as Row[];
      hash = String(r.structured['screen_hash']);
      return `${rows.length} interactive elements: ${rows.map((x) => x.label).join(', ')}`;
    },
    'list_clickable_elements',
  );
  await run.recorder.step(
    'take a screenshot of the login screen',
    async () => {
      const r = await call(mcp, 'screenshot', { device_serial: serial, annotate: true });
      const file = saveImage(run, r, '1-login');
      return `${file} (${String(r.structured['imageWidth'])}x${String(r.structured['imageHeight'])}, numbered boxes on the elements)`;
    },
    'screenshot',
  );
  await run.recorder.step(
    'fill the login form',
    async () => {
      await call(mcp, 'ui_fill_input', {
        device_serial: serial,
        tree_path: rowById(rows, 'username').tree_path,
        text: 'ada@example.com',
        expect_screen_hash: hash,
      });
      await call(mcp, 'ui_fill_input', {
        device_serial: serial,
        tree_path: rowById(rows, 'password').tree_path,
        text: DEMO_PASSWORD,
      });
      return 'username and password typed into their fields (by tree path, on the screen that was read)';
    },
    'ui_fill_input',
  );
  await run.recorder.step(
    'sign in',
    async () => {
      await call(mcp, 'ui_tap_element', {
        device_serial: serial,
        tree_path: rowById(rows, 'sign_in').tree_path,
      });
      const r = await call(mcp, 'wait_for_element', {
        device_serial: serial,
        text_contains: 'welcome',
        timeout_ms: 10_000,
      });
      return firstLine(r.text);
    },
    'ui_tap_element',
  );
  await run.recorder.step(
    'take a screenshot of the home screen',
    async () => {
      const r = await call(mcp, 'screenshot', { device_serial: serial });
      return saveImage(run, r, '2-home');
    },
    'screenshot',
  );
}

/** Crash the app, read the crash deobfuscated, and show the install's debug session; its id. */
async function crashAndRead(run: DemoRun, mcp: Client, serial: string): Promise<string> {
  let sessionId = '';
  await run.recorder.step(
    'tap "Crash"',
    async () => {
      const found = await call(mcp, 'find_ui_elements', { device_serial: serial, resource_id: 'crash' });
      const crash = (found.structured['matches'] as Row[])[0];
      if (!crash) {
        throw new Error('no Crash button on the home screen');
      }
      await call(mcp, 'ui_tap_element', { device_serial: serial, tree_path: crash.tree_path });
      return 'the app crashed';
    },
    'ui_tap_element',
  );
  await run.recorder.step(
    'read the crash, deobfuscated against the installed build',
    async () => {
      let last = '';
      for (let attempt = 0; attempt < 50; attempt++) {
        const r = await mcp.callTool({
          name: 'get_crash_stack_trace',
          arguments: { package: PACKAGE, retrace: true },
        });
        const retrace = (
          r.structuredContent as
            { retrace?: { status: string; mapping_line: string; trace: string } } | undefined
        )?.retrace;
        if (!r.isError && retrace) {
          if (retrace.status !== 'retraced') {
            throw new Error(`not deobfuscated: ${retrace.mapping_line}`);
          }
          writeFileSync(
            path.join(run.options.outDir, 'crash-retraced.txt'),
            `${retrace.mapping_line}\n\n${retrace.trace}\n`,
          );
          const lines = retrace.trace.split('\n').map((l) => l.trim());
          const from = Math.max(
            0,
            lines.findIndex((l) => /^[\w.$]+(Exception|Error)\b/.test(l)),
          );
          return `${retrace.mapping_line}\n      ${lines.slice(from, from + 3).join('\n      ')}`;
        }
        last = JSON.stringify(r.content).slice(0, 200);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`the crash did not reach logcat: ${last}`);
    },
    'get_crash_stack_trace',
  );
  await run.recorder.step(
    'show the debug session of this install',
    async () => {
      const list = await call(mcp, 'list_debug_sessions', {
        device_serial: serial,
        package: PACKAGE,
        limit: 1,
      });
      const id = (list.structured['sessions'] as { id: string }[] | undefined)?.[0]?.id;
      if (!id) {
        throw new Error(`no debug session: ${firstLine(list.text)}`);
      }
      sessionId = id;
      const session = await call(mcp, 'get_debug_session', { session_id: id, max_events: 20 });
      writeFileSync(
        path.join(run.options.outDir, 'debug-session.json'),
        JSON.stringify(session.structured, null, 2) + '\n',
      );
      const timeline = (session.structured['timeline'] as { kind: string }[] | undefined) ?? [];
      const runs: string[] = [];
      for (let i = 0; i < timeline.length;) {
        let j = i;
        while (j < timeline.length && timeline[j]!.kind === timeline[i]!.kind) {
          j++;
        }
        runs.push(j - i > 1 ? `${timeline[i]!.kind} ×${j - i}` : timeline[i]!.kind);
        i = j;
      }
      return `${id}: ${runs.join(' → ')}`;
    },
    'get_debug_session',
  );
  return sessionId;
}

/** The session's UI steps as a Maestro flow, saved, and replayed on the device: a test to keep. */
async function exportAndReplay(run: DemoRun, mcp: Client, sessionId: string): Promise<void> {
  let yaml = '';
  await run.recorder.step(
    'export the session as a Maestro flow (the password as a variable)',
    async () => {
      const r = await call(mcp, 'export_test', { session_id: sessionId });
      yaml = String(r.structured['yaml']);
      writeFileSync(path.join(run.options.outDir, 'flow.yaml'), yaml);
      const vars = (r.structured['variables'] as { name: string }[]).map((v) => `\${${v.name}}`);
      return `flow.yaml: ${String(r.structured['commands'])} commands${vars.length > 0 ? `, typed password as ${vars.join(', ')}` : ''}`;
    },
    'export_test',
  );
  await run.recorder.step(
    'replay the flow on the device',
    async () => {
      const r = await call(mcp, 'run_flow', {
        yaml,
        env: { PASSWORD: DEMO_PASSWORD },
        lookup_timeout_ms: 5_000,
      });
      if (Number(r.structured['failed']) > 0) {
        throw new Error(r.text);
      }
      return firstLine(r.text);
    },
    'run_flow',
  );
}

/** Stops what the run started and puts DROIDBUS_HOME back. */
async function tearDown(run: DemoRun, previousHome: string | undefined): Promise<void> {
  await run.client?.close().catch(() => undefined);
  await run.farm?.stop().catch(() => undefined);
  await run.adbServer?.stop().catch(() => undefined);
  if (previousHome === undefined) {
    delete process.env['DROIDBUS_HOME'];
  } else {
    process.env['DROIDBUS_HOME'] = previousHome;
  }
  if (run.options.keep) {
    run.options.note(`kept the sample project and data folder in ${run.work}`);
  } else {
    rmSync(run.work, { recursive: true, force: true });
  }
}

/**
 * The main job, end to end on simulated devices, as an agent would do it through a real MCP
 * session: build, install, launch with its launch time, read the screen, fill the login form,
 * tap through, crash the app, read the crash deobfuscated against the installed build, and show
 * the debug session — printing each step and saving screenshots next to a summary.
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'droidbus-demo-'));
  mkdirSync(options.outDir, { recursive: true });
  const run: DemoRun = {
    options,
    recorder: new DemoRecorder(options.print),
    work,
    home: path.join(work, 'home'),
    project: path.join(work, 'sample'),
    adbServer: undefined,
    farm: undefined,
    client: undefined,
  };
  let failedAt: string | null = null;
  const previousHome = process.env['DROIDBUS_HOME'];
  try {
    const { mcp, serial } = await setUp(run);
    await buildAndRun(run, mcp, serial);
    await driveUi(run, mcp, serial);
    await exportAndReplay(run, mcp, await crashAndRead(run, mcp, serial));
  } catch (err) {
    if (!(err instanceof DemoFailed)) {
      throw err;
    }
    failedAt = err.stepName;
  } finally {
    await tearDown(run, previousHome);
  }
  const result: DemoResult = {
    ok: failedAt === null,
    steps: run.recorder.steps,
    outDir: options.outDir,
    failedAt,
  };
  writeFileSync(path.join(options.outDir, 'summary.json'), JSON.stringify(result, null, 2) + '\n');
  return result;
}
