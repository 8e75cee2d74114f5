/**
 * bench/http: a cheap tool call (get_project_info, one bus round trip) over Streamable HTTP with
 * the bearer token, next to stdio standalone and stdio attached to the same host (as bench/host
 * measures them), and the MCP SDK alone with a no-op tool over stdio as the baseline. Also connect
 * + initialize over HTTP. Printed side by side; never fails on timing.
 * Run: npm run build && npx tsx bench/http.ts   (BENCH_N=… calls per row, default 2000)
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { printTable, summarizeUs, timeLoop } from './stats.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = path.join(ROOT, 'dist', 'cli.js');
const CALLS = Number(process.env['BENCH_N'] ?? 2000);
const STARTS = 20;

async function stdioClient(args: string[], env: Record<string, string>, cwd: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { ...(process.env as Record<string, string>), ...env },
    cwd,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return client;
}

async function httpClient(url: string, token: string): Promise<{ client: Client; connectMs: number }> {
  const client = new Client({ name: 'bench-http', version: '1' });
  const t0 = performance.now();
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return { client, connectMs: performance.now() - t0 };
}

function timeCalls(client: Client, tool: string, n: number): Promise<number[]> {
  return timeLoop(n, () => client.callTool({ name: tool, arguments: {} }), 200);
}

async function startHost(env: Record<string, string>, project: string) {
  const proc = spawn(process.execPath, [CLI, 'host', '--project', project, '--http', '127.0.0.1:0'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  let url: string | undefined;
  while (!(url = /http: MCP at (\S+)/.exec(out)?.[1])) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const exited = new Promise<void>((r) => proc.on('exit', () => r()));
  return { url, stop: () => (proc.kill('SIGTERM'), exited) };
}

async function main(): Promise<void> {
  const base = mkdtempSync(path.join(os.platform() === 'win32' ? os.tmpdir() : '/tmp', 'db-bench-'));
  const project = path.join(base, 'app');
  mkdirSync(project);
  writeFileSync(path.join(project, 'settings.gradle.kts'), 'rootProject.name = "bench"\n');
  const env = { DROIDBUS_HOME: path.join(base, 'home') };
  const mcp = [CLI, 'mcp', '--toolsets', 'core'];

  const noop = await stdioClient([path.join(ROOT, 'bench', 'fixtures', 'noop-mcp-server.mjs')], {}, base);
  const baseline = await timeCalls(noop, 'noop', CALLS);
  await noop.close();

  const alone = await stdioClient(mcp, env, project);
  const standalone = await timeCalls(alone, 'get_project_info', CALLS);
  await alone.close();

  const host = await startHost(env, project);
  const token = execFileSync(process.execPath, [CLI, 'token'], { env: { ...process.env, ...env } })
    .toString()
    .trim();
  const att = await stdioClient(mcp, env, project);
  const attached = await timeCalls(att, 'get_project_info', CALLS);
  await att.close();

  const connects: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const c = await httpClient(`${host.url}?toolsets=core`, token);
    connects.push(c.connectMs);
    await c.client.close();
  }
  const web = await httpClient(`${host.url}?toolsets=core`, token);
  const overHttp = await timeCalls(web.client, 'get_project_info', CALLS);
  await web.client.close();
  await host.stop();
  rmSync(base, { recursive: true, force: true });

  const rows = [
    { what: 'tools/call noop, MCP SDK alone over stdio (baseline)', ...summarizeUs(baseline) },
    { what: 'tools/call get_project_info, stdio standalone', ...summarizeUs(standalone) },
    { what: 'tools/call get_project_info, stdio attached to a host', ...summarizeUs(attached) },
    { what: 'tools/call get_project_info, Streamable HTTP (bearer)', ...summarizeUs(overHttp) },
    { what: 'connect + initialize, Streamable HTTP (bearer)', ...summarizeUs(connects) },
  ];
  printTable(`bench/http (${os.cpus().length} cores, node ${process.version})`, rows);
  const b = summarizeUs(baseline).median_us;
  const m = (s: number[]) => summarizeUs(s).median_us;
  process.stdout.write(
    `\nmedian minus baseline: stdio standalone ${m(standalone) - b} µs, stdio attached ${m(attached) - b} µs, HTTP ${m(overHttp) - b} µs\n` +
      `HTTP / attached (median): ${(m(overHttp) / m(attached)).toFixed(2)}×\n`,
  );
}

await main();
