/**
 * bench/bus: what the bus costs.
 *  1. a request to an actor on a worker thread and back (in-process bus);
 *  2. the same over the host's unix socket (the attached path);
 *  3. a tools/call of a cheap tool (get_project_info, one bus round trip) over stdio, next to the
 *     MCP SDK alone over stdio with a no-op tool — the difference is what droidbus adds.
 * Run: npm run build && npx tsx bench/bus.ts
 */
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type * as Runtime from '../src/actors/runtime.js';
import type * as SocketClient from '../src/bus/socket-client.js';
import type * as SocketServer from '../src/bus/socket-server.js';
import { printTable, summarizeUs, timeLoop } from './stats.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const dist = <T>(rel: string): Promise<T> => import(path.join(ROOT, 'dist', rel)) as Promise<T>;
const N = Number(process.env['BENCH_N'] ?? 5000);

async function mcpLoop(
  command: string,
  args: string[],
  tool: string,
  n: number,
  env: Record<string, string> = {},
): Promise<number[]> {
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const samples = await timeLoop(n, () => client.callTool({ name: tool, arguments: {} }));
  await client.close();
  return samples;
}

async function main(): Promise<void> {
  const { startActorSystem } = await dist<typeof Runtime>('actors/runtime.js');
  const { connectSocketBus } = await dist<typeof SocketClient>('bus/socket-client.js');
  const { serveBusConnection } = await dist<typeof SocketServer>('bus/socket-server.js');
  const home = mkdtempSync(path.join(os.tmpdir(), 'droidbus-bench-'));
  process.env['DROIDBUS_HOME'] = home;

  const system = startActorSystem();
  const local = system.client({ kind: 'cli' });
  const inProcess = await timeLoop(N, () => local.request('system.ping', {}));

  const sock = path.join(home, 'bench.sock');
  const server = net.createServer((s) =>
    serveBusConnection(s, {
      bus: system.bus,
      handshake: () => ({ accept: true, reply: { accepted: true } }),
    }),
  );
  await new Promise<void>((r) => server.listen(sock, r));
  const { client: remote } = await connectSocketBus({
    path: sock,
    hello: {},
    timeoutMs: 2000,
    origin: { kind: 'cli' },
  });
  const overSocket = await timeLoop(N, () => remote.request('system.ping', {}));
  await remote.close();
  server.close();
  await system.shutdown();

  // A Gradle project, so get_project_info really asks the project actor (one bus round trip).
  const project = path.join(home, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'settings.gradle.kts'), 'rootProject.name = "bench"\n');
  const calls = Math.max(500, Math.round(N / 5));
  const baseline = await mcpLoop(
    process.execPath,
    [path.join(ROOT, 'bench', 'fixtures', 'noop-mcp-server.mjs')],
    'noop',
    calls,
  );
  const droidbus = await mcpLoop(
    process.execPath,
    [path.join(ROOT, 'dist', 'cli.js'), 'mcp', '--toolsets', 'core', '--project', project],
    'get_project_info',
    calls,
    {
      DROIDBUS_HOME: home,
    },
  );
  rmSync(home, { recursive: true, force: true });

  const rows = [
    { path: 'bus request → worker actor → back (in-process)', ...summarizeUs(inProcess) },
    { path: 'bus request over the host socket (attached path)', ...summarizeUs(overSocket) },
    { path: 'tools/call noop, MCP SDK alone over stdio (baseline)', ...summarizeUs(baseline) },
    { path: 'tools/call get_project_info, droidbus mcp over stdio', ...summarizeUs(droidbus) },
  ];
  printTable(`bench/bus (${os.cpus().length} cores, node ${process.version})`, rows);
  const added = summarizeUs(droidbus).median_us - summarizeUs(baseline).median_us;
  process.stdout.write(
    `\nadded by droidbus per cheap tool call (median, droidbus − baseline): ${added} µs (target < 1000 µs)\n`,
  );
}

await main();
