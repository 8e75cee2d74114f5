/**
 * The largest answer each read tool gives an agent: every read-only tool called on a busy world (two
 * sim devices streaming 500 logcat lines/s each, the sample project built, installed and crashed 30
 * times), at its defaults and at the largest explicit request, with its text's length (what the
 * model reads), its structured content's size (what a client that reads structuredContent gets —
 * Codex reads it in place of the text) and whether it was cut. Tools whose arguments name a device get the first device.
 *
 * Run: npm run build && npx tsx scripts/answer-sizes.ts [--json]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolDefinition } from '../src/mcp/define-tool.js';
import { ALL_TOOLS } from '../src/mcp/registry.js';
import { SAMPLE_PACKAGE } from '../src/sim/index.js';
import { startAdbServer } from '../tests/helpers/adb-server.js';
import { startMcp } from '../tests/helpers/mcp-client.js';
import { runCli } from '../tests/helpers/run-cli.js';
import { startSimFarm } from '../tests/helpers/sim-farm.js';

const PACKAGE = `${SAMPLE_PACKAGE}.demo`;
const LOGCAT_RATE = 500;

/** The arguments that ask for more: each is set to its schema's maximum beside the default call. */
const MORE = ['count', 'limit', 'lines', 'max_rows', 'max_results', 'max_events', 'log_lines'];

/** The largest explicit request a tool takes: every MORE argument at its maximum. */
function largest(tool: ToolDefinition): Record<string, unknown> | null {
  const props =
    (z.toJSONSchema(tool.input, { io: 'input' }) as { properties?: Record<string, { maximum?: number }> })
      .properties ?? {};
  const out: Record<string, unknown> = {};
  for (const name of MORE) {
    const max = props[name]?.maximum;
    if (max !== undefined) {
      out[name] = max;
    }
  }
  if (props['include_system_bars']) {
    out['include_system_bars'] = true;
  }
  if (props['include_warnings']) {
    out['include_warnings'] = true;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** The least each tool needs beyond a device. */
const REQUIRED: Record<string, Record<string, unknown>> = {
  find_ui_elements: { text_contains: 'e' },
  wait_for_element: { text_contains: 'e', timeout_ms: 2000 },
  ui_assert_element: { text_contains: 'e', timeout_ms: 2000 },
  find_ui_parent: { tree_path: '0.0.0' },
  dump_app_info: { package: PACKAGE },
  get_memory_info: { package: PACKAGE },
  get_app_runtime_state: { package: PACKAGE },
  get_crash_stack_trace: { package: PACKAGE, retrace: true },
  list_device_files: { path: '/sdcard' },
  wait_for_log: { query: 'level:error', timeout_ms: 2000 },
  get_debug_session: { session_id: '' },
};

interface Row {
  tool: string;
  request: string;
  text_chars: number;
  structured_bytes: number;
  cut: boolean;
  error: string | null;
}

const home = mkdtempSync(path.join(os.tmpdir(), 'droidbus-answers-'));
const project = path.join(home, 'project');
const server = await startAdbServer();
const farm = await startSimFarm(server, { devices: 2, logcatRate: LOGCAT_RATE });
const env = { ...(server.env as Record<string, string>), DROIDBUS_HOME: home, SIM_GRADLE_DURATION_MS: '500' };
const serial = farm.devices[0]!.serial;
const rows: Row[] = [];
try {
  for (const argv of [
    ['sim', '--sample-project', project],
    ['trust', project],
  ]) {
    const r = await runCli(argv, { env });
    if (r.code !== 0) {
      throw new Error(`droidbus ${argv.join(' ')}: ${r.stderr}`);
    }
  }
  const mcp = await startMcp(['--project', project, '--toolsets', 'core,ui,device-admin,device-extras'], {
    env,
  });
  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    (await mcp.client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 })) as CallToolResult;
  const must = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    const r = await call(name, args);
    if (r.isError) {
      throw new Error(`${name}: ${JSON.stringify(r.content)}`);
    }
    return r;
  };
  try {
    await must('run_gradle_task', { task: 'assemble', variant: 'demoRelease' });
    const apk = await must('find_apk_path', { variant: 'demoRelease' });
    await must('install_apk', {
      device_serial: serial,
      apk_path: (apk.structuredContent as { path: string }).path,
    });
    for (const d of farm.devices) {
      await must('start_logcat', { device_serial: d.serial });
    }
    await must('launch_app', { device_serial: serial, package: PACKAGE });
    // 30 crashes (Java and native) of the sample app, as a bad afternoon leaves them.
    for (let i = 0; i < 30; i++) {
      await server.adb(['-s', serial, 'shell', `sim crash ${PACKAGE} ${i % 3 === 0 ? 'native' : 'java'}`]);
    }
    // A busy buffer (at least 20,000 lines held) with the crash in it.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const s = await must('get_logcat_stats', {});
      const store = (s.structuredContent as { store: { entries: number; crashes: { total: number } } }).store;
      if (store.entries >= 20_000 && store.crashes.total >= 30) {
        break;
      }
      if (Date.now() > deadline) {
        throw new Error('the logcat buffer did not reach 20,000 lines within 120 s');
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    const sessions = await must('list_debug_sessions', {});
    const sessionId = (sessions.structuredContent as { sessions?: { id: string }[] }).sessions?.[0]?.id ?? '';
    REQUIRED['get_debug_session'] = { session_id: sessionId };

    for (const tool of ALL_TOOLS.filter((t) => t.kind === 'read')) {
      const props = Object.keys(z.toJSONSchema(tool.input, { io: 'input' }).properties ?? {});
      const base: Record<string, unknown> = {
        ...(props.includes('device_serial') ? { device_serial: serial } : {}),
        ...REQUIRED[tool.name],
      };
      const requests: [string, Record<string, unknown>][] = [['default', base]];
      const more = largest(tool);
      if (more) {
        requests.push([JSON.stringify(more), { ...base, ...more }]);
      }
      for (const [request, args] of requests) {
        let r: CallToolResult;
        try {
          r = await call(tool.name, args);
        } catch (err) {
          // A server that answers a refusal with a protocol error (droidbus before MCP 2025-11-25).
          r = {
            isError: true,
            content: [{ type: 'text', text: err instanceof Error ? err.message : String(err) }],
          };
        }
        const text = r.content
          .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
          .map((c) => c.text)
          .join('\n');
        rows.push({
          tool: tool.name,
          request,
          text_chars: text.length,
          structured_bytes: r.structuredContent ? Buffer.byteLength(JSON.stringify(r.structuredContent)) : 0,
          cut: /\[cut here:|left out|more characters/.test(text),
          error: r.isError ? text.slice(0, 80) : null,
        });
      }
    }
  } finally {
    await mcp.close();
  }
} finally {
  await farm.stop();
  await server.stop();
  rmSync(home, { recursive: true, force: true });
}

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
} else {
  const order = [...rows].sort(
    (a, b) => b.text_chars + b.structured_bytes - (a.text_chars + a.structured_bytes),
  );
  process.stdout.write(
    `answers of the read tools (2 sim devices at ${LOGCAT_RATE} logcat lines/s, the sample app built, installed and crashed 30 times)\n\n`,
  );
  process.stdout.write(
    `${'tool'.padEnd(26)} ${'request'.padEnd(44)} ${'text'.padStart(9)} ${'structured'.padStart(10)}  cut\n`,
  );
  for (const r of order) {
    process.stdout.write(
      `${r.tool.padEnd(26)} ${r.request.slice(0, 44).padEnd(44)} ${r.text_chars.toLocaleString('en-US').padStart(9)} ${r.structured_bytes.toLocaleString('en-US').padStart(10)}  ${r.cut ? 'yes' : ''}${r.error ? `  error: ${r.error}` : ''}\n`,
    );
  }
}
