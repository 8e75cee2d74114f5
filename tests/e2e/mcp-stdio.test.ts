import { mkdirSync, writeFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { startMcp } from '../helpers/mcp-client.js';
import type { McpSessionHandle } from '../helpers/mcp-client.js';
import { tempDir } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { invalidArgument } from '../helpers/tool-errors.js';

const home = tempDir('droidbus-home-');
const project = tempDir('droidbus-project-');
const env = { DROIDBUS_HOME: home.dir };

beforeAll(() => {
  writeFileSync(
    path.join(project.dir, 'settings.gradle.kts'),
    'rootProject.name = "demo"\ninclude(":app")\n',
  );
  mkdirSync(path.join(project.dir, 'app', 'src'), { recursive: true });
});
afterAll(() => {
  home.remove();
  project.remove();
});

async function expectInvalidParams(promise: Promise<unknown>): Promise<McpError> {
  const err = await promise.then(
    () => {
      throw new Error('expected invalid_params, the call succeeded');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  expect((err as McpError).code).toBe(-32602);
  return err as McpError;
}

describe('droidbus mcp over stdio, driven by the SDK client', () => {
  let session: McpSessionHandle;
  beforeAll(async () => {
    session = await startMcp([], { env, cwd: path.join(project.dir, 'app', 'src') });
  });
  afterAll(async () => session.close());

  it('identifies itself as droidbus with its version, its mode and its instructions', () => {
    const info = session.client.getServerVersion();
    expect(info?.name).toBe('droidbus');
    expect(info?.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(info?.title).toBe('droidbus (standalone: no droidbus host is running)');
    const instructions = session.client.getInstructions() ?? '';
    expect(instructions).toMatch(/^droidbus \(standalone: no droidbus host is running\)\./);
    expect(instructions).toContain('Toolsets served: core, ui, device-admin.');
    expect(instructions).toContain('expect_screen_hash');
    // What tools/list says already (the tools' names) is not said again: every session reads both.
    expect(instructions).not.toContain('get_project_info');
    expect(Buffer.byteLength(instructions, 'utf8')).toBeLessThan(2_000);
  });

  it('lists its tools with annotations derived from their kind and closed input schemas', async () => {
    const { tools } = await session.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('get_project_info');
    expect(names).toContain('run_health_check');
    for (const tool of tools) {
      for (const hint of ['readOnlyHint', 'destructiveHint', 'openWorldHint'] as const) {
        expect(typeof tool.annotations?.[hint], `${tool.name}.${hint}`).toBe('boolean');
      }
      expect(tool.inputSchema.additionalProperties).toBe(false);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('get_project_info')?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
    });
    expect(byName.get('ui_tap')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: false,
    });
  });

  it('finds the Gradle project around its working directory and reports it untrusted with a hint', async () => {
    const result = await session.client.callTool({ name: 'get_project_info', arguments: {} });
    expect(result.isError).toBeFalsy();
    const info = result.structuredContent as Record<string, unknown>;
    expect(info['gradle_root']).toBe(realpathSync(project.dir));
    expect(info['selected_by']).toBe('working_directory');
    expect(info['mode']).toBe('standalone');
    expect(info['standalone_reason']).toBe('no droidbus host is running');
    expect(info['trusted']).toBe(false);
    expect(String(info['trust_hint'])).toContain('droidbus trust');
  });

  it('runs the health check and finds the adb this machine has', async () => {
    const result = await session.client.callTool({ name: 'run_health_check', arguments: {} });
    expect(result.isError).toBeFalsy();
    const report = result.structuredContent as {
      checks: Record<string, { ok: boolean; version?: string | null }>;
      all_ok: boolean;
    };
    expect(report.checks['adb']?.ok).toBe(true);
    expect(report.checks['adb']?.version).toMatch(/^1\.0\.\d+/);
    // The sample project has no gradlew, so the wrapper check fails and says so.
    expect(report.checks['gradle_wrapper']?.ok).toBe(false);
    expect(report.all_ok).toBe(false);
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(text).toContain('FAIL gradle wrapper');
  });

  it('refuses an argument the tool does not take with a tool error the model reads', async () => {
    const text = await invalidArgument(
      session.client.callTool({ name: 'get_project_info', arguments: { project: '/etc' } }),
    );
    expect(text).toContain("unknown argument 'project'");
  });

  it('refuses an unknown tool with invalid_params, the message prefixed once', async () => {
    const err = await expectInvalidParams(
      session.client.callTool({ name: 'rm_rf_everything', arguments: {} }),
    );
    expect(err.message).toBe(
      "MCP error -32602: Unknown tool 'rm_rf_everything'. Call tools/list for the tools this server has.",
    );
  });

  it.each([
    [
      { name: 'list_devices', arguments: [1, 2] },
      'params.arguments must be an object of named arguments (got an array)',
    ],
    [{ name: 'list_devices', arguments: 'device_serial=x' }, '(got string)'],
    [{ arguments: {} }, 'tools/call needs params.name, the name of a tool (a string; got none)'],
    [{ name: ['list_devices'] }, '(a string; got an array)'],
  ])('answers a malformed tools/call %j with invalid_params in words', async (params, says) => {
    const err = await expectInvalidParams(
      session.client.request({ method: 'tools/call', params: params as never }, CallToolResultSchema),
    );
    expect(err.message).toContain(says);
    expect(err.message).not.toContain('"code"');
  });

  it('serves its runtime figures (RSS and event-loop delay) as droidbus://runtime', async () => {
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.uri)).toContain('droidbus://runtime');
    const read = await session.client.readResource({ uri: 'droidbus://runtime' });
    const stats = JSON.parse((read.contents[0] as { text: string }).text) as {
      rss_mb: number;
      event_loop: { p99_ms: number };
    };
    expect(stats.rss_mb).toBeGreaterThan(10);
    expect(stats.event_loop.p99_ms).toBeGreaterThanOrEqual(0);
  });

  it('answers resource_not_found for an unknown resource', async () => {
    await expect(session.client.readResource({ uri: 'droidbus://nope' })).rejects.toMatchObject({
      code: -32002,
    });
  });

  it('writes nothing but JSON-RPC to stdout (the SDK transport would report a parse error)', async () => {
    const errors: Error[] = [];
    session.client.onerror = (e) => errors.push(e);
    await session.client.callTool({ name: 'run_health_check', arguments: {} });
    expect(errors).toEqual([]);
  });
});

describe('toolsets', () => {
  it('hides the tools of toolsets it does not serve and refuses them naming the toolset', async () => {
    const session = await startMcp(['--toolsets', 'ui'], { env });
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name)).not.toContain('get_project_info');
      const err = await expectInvalidParams(
        session.client.callTool({ name: 'get_project_info', arguments: {} }),
      );
      expect(err.message).toContain('get_project_info is in the "core" toolset');
      expect(err.message).toContain('--toolsets');
      expect(session.client.getInstructions()).toMatch(
        /Not served \(the user adds one with --toolsets ui,NAME in the droidbus registration\): core \(.*; device-admin \(/,
      );
    } finally {
      await session.close();
    }
  });

  it.each([
    [['--toolsets', 'bogus'], "unknown toolset 'bogus'"],
    [['--toolsets=core,,ui'], 'empty name'],
    [['--toolsets='], 'needs a value'],
    [['--toolsets'], 'needs a value'],
  ])('droidbus mcp %j exits 2 and names the toolsets', async (args, message) => {
    const result = await runCli(['mcp', ...args], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    for (const name of ['core', 'ui', 'device-admin']) {
      expect(result.stderr).toContain(`  ${name}: `);
    }
    expect(result.stdout).toBe('');
  });

  it('accepts --toolsets=a,b with duplicates and serves their tools', async () => {
    const session = await startMcp(['--toolsets=core,core'], { env });
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name)).toContain('get_project_info');
      expect(session.client.getInstructions()).toContain('Toolsets served: core.');
    } finally {
      await session.close();
    }
  });

  it('serves only the default toolsets without --toolsets, and every tool with --toolsets all', async () => {
    const plain = await startMcp([], { env });
    const all = await startMcp(['--toolsets', 'all'], { env });
    try {
      const plainNames = (await plain.client.listTools()).tools.map((t) => t.name);
      expect(plainNames).toContain('get_crash_logs');
      expect(plainNames).not.toContain('get_memory_info');
      expect(plainNames).not.toContain('list_build_variants');
      const allNames = (await all.client.listTools()).tools.map((t) => t.name);
      expect(allNames).toEqual(
        expect.arrayContaining([...plainNames, 'get_memory_info', 'list_build_variants']),
      );
      expect(all.client.getInstructions()).not.toContain('Not served');
      expect(plain.client.getInstructions()).toContain('Not served');
    } finally {
      await Promise.all([plain.close(), all.close()]);
    }
  });
});

describe('the command line', () => {
  it('prints its version', async () => {
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('exits 2 with usage on an unknown command', async () => {
    const result = await runCli(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
    expect(result.stderr).toContain('Usage: droidbus <command>');
  });

  it('exits 2 with the command usage on an unknown flag', async () => {
    const result = await runCli(['mcp', '--frobnicate'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Unknown option '--frobnicate'");
    expect(result.stderr).toContain('Usage: droidbus mcp');
  });

  it('refuses a --project that is not a directory', async () => {
    const result = await runCli(['mcp', '--project', path.join(project.dir, 'missing')], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not a directory');
  });

  it('has --help for every command', async () => {
    for (const command of ['mcp', 'doctor']) {
      const result = await runCli([command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Usage: droidbus ${command}`);
    }
  });

  it('doctor reports each check for a person and exits 1 when one fails', async () => {
    const result = await runCli(['doctor', '--project', project.dir], { env: { ...env, NO_COLOR: '1' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✔ adb\s+1\.0\./);
    expect(result.stdout).toMatch(/✘ Gradle wrapper/);
    expect(result.stdout).toContain('not trusted');
    expect(result.stdout).not.toContain('\x1b[');
  });
});
