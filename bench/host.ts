/**
 * bench/host: what attaching costs.
 *  1. tools/call get_project_info (one bus round trip) over stdio: standalone, attached to a host,
 *     and the MCP SDK alone with a no-op tool — side by side, with what droidbus adds to each;
 *  2. connect + initialize of a client, standalone and attached;
 *  3. the first call after the host quits (the session swaps to its own actors).
 * Run: npm run build && npx tsx bench/host.ts
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { printTable, summarizeUs, timeLoop } from './stats.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = path.join(ROOT, 'dist', 'cli.js');
const CALLS = Number(process.env['BENCH_N'] ?? 2000);
const STARTS = 10;

async function connect(command: string, args: string[], env: Record<string, string>, cwd: string) {
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...(process.env as Record<string, string>), ...env },
    cwd,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  const t0 = performance.now();
  await client.connect(transport);
  return { client, connectMs: performance.now() - t0 };
}

function timeCalls(client: Client, tool: string, n: number): Promise<number[]> {
  return timeLoop(n, () => client.callTool({ name: tool, arguments: {} }), 200);
}

async function startHost(env: Record<string, string>, project: string) {
  const proc = spawn(process.execPath, [CLI, 'host', '--project', project], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  while (!out.includes('listening on')) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const exited = new Promise<void>((r) => proc.on('exit', () => r()));
  return { stop: () => (proc.kill('SIGTERM'), exited) };
}

async function main(): Promise<void> {
  const base = mkdtempSync(path.join(os.platform() === 'win32' ? os.tmpdir() : '/tmp', 'db-bench-'));
  const project = path.join(base, 'app');
  mkdirSync(project);
  writeFileSync(path.join(project, 'settings.gradle.kts'), 'rootProject.name = "bench"\n');
  const env = { DROIDBUS_HOME: path.join(base, 'home') };
  const mcp = [CLI, 'mcp', '--toolsets', 'core'];

  const noop = await connect(
    process.execPath,
    [path.join(ROOT, 'bench', 'fixtures', 'noop-mcp-server.mjs')],
    {},
    base,
  );
  const baseline = await timeCalls(noop.client, 'noop', CALLS);
  await noop.client.close();

  const standaloneStarts: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const s = await connect(process.execPath, mcp, env, project);
    standaloneStarts.push(s.connectMs);
    await s.client.close();
  }
  const alone = await connect(process.execPath, mcp, env, project);
  const standalone = await timeCalls(alone.client, 'get_project_info', CALLS);
  await alone.client.close();

  const host = await startHost(env, project);
  const attachedStarts: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const s = await connect(process.execPath, mcp, env, project);
    attachedStarts.push(s.connectMs);
    await s.client.close();
  }
  const att = await connect(process.execPath, mcp, env, project);
  const attached = await timeCalls(att.client, 'get_project_info', CALLS);
  await host.stop();
  const t0 = performance.now();
  const first = await att.client.callTool({ name: 'get_project_info', arguments: {} });
  const firstAfterQuit = performance.now() - t0;
  const mode = (first.structuredContent as { mode?: string } | undefined)?.mode;
  await att.client.close();
  rmSync(base, { recursive: true, force: true });

  const rows = [
    { what: 'tools/call noop, MCP SDK alone (baseline)', ...summarizeUs(baseline) },
    { what: 'tools/call get_project_info, standalone', ...summarizeUs(standalone) },
    { what: 'tools/call get_project_info, attached to a host', ...summarizeUs(attached) },
    { what: 'connect + initialize, standalone', ...summarizeUs(standaloneStarts) },
    { what: 'connect + initialize, attached', ...summarizeUs(attachedStarts) },
  ];
  printTable(`bench/host (${os.cpus().length} cores, node ${process.version})`, rows);
  const b = summarizeUs(baseline).median_us;
  process.stdout.write(
    `\nadded by droidbus per cheap tool call (median − baseline): standalone ${summarizeUs(standalone).median_us - b} µs (target < 1000), attached ${summarizeUs(attached).median_us - b} µs (target < 2000)\n` +
      `first call after the host quit: ${Math.round(firstAfterQuit)} ms, answered ${mode}\n`,
  );
}

await main();
