/**
 * Issue 68's acceptance: three MCP sessions, attached to one host, loop the costliest logcat queries
 * the host admits while a fourth session calls get_logcat_stats; prints the fourth's latencies
 * (median / p99 / max, target p99 < 250 ms), each pattern's admission bound and its answers' times.
 * Real path: SDK clients → `droidbus mcp` (attached) → `droidbus host` → real adb server → a sim
 * device whose buffer holds 3,000 lines of 1 KB (every 7th, 429, a long run of letters, where class
 * repetitions keep every NFA thread alive).
 * Run: npm run build && npx tsx bench/logcat-fairness.ts [--seconds 30]
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { userRegex } from '../src/actors/logcat/user-regex.js';
import { REGEX_BUDGET_NS } from '../src/actors/logcat/log-query.js';
import { startAdbServer } from '../tests/helpers/adb-server.js';
import { writeSample } from '../tests/helpers/build-project.js';
import { shortTempDir, startHostProcess, waitFor } from '../tests/helpers/host.js';
import { startMcp, type McpSessionHandle } from '../tests/helpers/mcp-client.js';
import { tempDir } from '../tests/helpers/paths.js';
import { startSimFarm } from '../tests/helpers/sim-farm.js';
import { bigLog } from '../tests/helpers/big-log.js';
import { printTable, quantile } from './stats.js';

const args = parseArgs({ options: { seconds: { type: 'string', default: '30' } } });
const SECONDS = Number(args.values.seconds);
const LINES = 3_000;
const PROSE = 400;

/** The looping sessions' queries: each near the admission budget over this store. */
const QUERIES: [string, string][] = [
  ['tag:Prose message~:(?i)[\\pL\\pN\\pM]{1,100}z', '(?i)[\\pL\\pN\\pM]{1,100}z'],
  ['tag:Prose message~:(?i)\\w{1,100}z', '(?i)\\w{1,100}z'],
  ['line~:(?s)(.*a){2}', '(?s)(.*a){2}'],
];

function text(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? '').join('\n');
}

async function main(): Promise<void> {
  const home = shortTempDir('db-fair-');
  const work = tempDir('droidbus-fair-');
  const server = await startAdbServer();
  const farm = await startSimFarm(server, { devices: 1 });
  const serial = farm.devices[0]!.serial;
  const env = { ...(server.env as Record<string, string>), DROIDBUS_HOME: home.dir };
  const project = path.join(work.dir, 'app');
  await writeSample(project, home.dir);
  const host = await startHostProcess(['--project', project, '--no-ui'], { env });
  const sessions: McpSessionHandle[] = [];
  try {
    const file = path.join(work.dir, 'big.log');
    writeFileSync(file, bigLog(LINES, { every: Math.floor(LINES / PROSE) }));
    await server.adb(['-s', serial, 'logcat', '-G', '16M']);
    await server.adb(['-s', serial, 'push', file, '/data/local/tmp/big.log']);
    await server.adb(['-s', serial, 'shell', 'sim logcat replay /data/local/tmp/big.log']);
    for (let i = 0; i < 4; i++) {
      sessions.push(
        await startMcp(['--project', project, '--attach-only', '--toolsets', 'all'], { env, cwd: project }),
      );
    }
    const [watcher, ...askers] = sessions as [McpSessionHandle, ...McpSessionHandle[]];
    await waitFor(
      async () =>
        !text(await watcher.client.callTool({ name: 'start_logcat', arguments: {} })).includes('rror'),
      'logcat to start',
      30_000,
    );
    await waitFor(
      async () => {
        const r = await watcher.client.callTool({ name: 'get_logcat_stats', arguments: {} });
        const entries = (r.structuredContent as { store?: { entries?: number } }).store?.entries ?? 0;
        return entries >= LINES;
      },
      'the store to hold the device buffer',
      30_000,
    );

    const deadline = performance.now() + SECONDS * 1000;
    const answers = QUERIES.map(() => ({ times: [] as number[], outcomes: new Map<string, number>() }));
    const loop = async (client: Client, i: number): Promise<void> => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const r = await client.callTool({
          name: 'get_logcat_entries',
          arguments: { query: QUERIES[i]![0], count: 10_000 },
        });
        answers[i]!.times.push(performance.now() - t0);
        const sc = r.structuredContent as { stopped?: string } | undefined;
        const outcome = r.isError
          ? `refused: ${text(r).slice(0, 60)}`
          : sc?.stopped !== undefined
            ? 'stopped at the deadline'
            : 'answered';
        const m = answers[i]!.outcomes;
        m.set(outcome, (m.get(outcome) ?? 0) + 1);
      }
    };
    const stats: number[] = [];
    let statFailures = 0;
    const watch = async (): Promise<void> => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const r = await watcher.client.callTool({ name: 'get_logcat_stats', arguments: {} });
        if (r.isError) {
          statFailures++;
        }
        stats.push(performance.now() - t0);
        await new Promise((res) => setTimeout(res, 20));
      }
    };
    await Promise.all([...askers.map((s, i) => loop(s.client, i)), watch()]);

    printTable(
      `the looping sessions (${SECONDS} s; admission budget ${REGEX_BUDGET_NS / 1e6} ms of worst-case regex work)`,
      QUERIES.map(([query, pattern], i) => ({
        query,
        'bound ns/byte': Math.round(userRegex(pattern).costPerByte),
        calls: answers[i]!.times.length,
        'median ms': quantile(answers[i]!.times, 0.5).toFixed(0),
        'p99 ms': quantile(answers[i]!.times, 0.99).toFixed(0),
        outcomes: [...answers[i]!.outcomes].map(([o, n]) => `${n}× ${o}`).join('; '),
      })),
    );
    printTable('the fourth session: get_logcat_stats (target p99 < 250 ms)', [
      {
        calls: stats.length,
        failures: statFailures,
        'median ms': quantile(stats, 0.5).toFixed(1),
        'p99 ms': quantile(stats, 0.99).toFixed(1),
        'max ms': Math.max(...stats).toFixed(1),
      },
    ]);
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await host.stop();
    await farm.stop();
    await server.stop();
    home.remove();
    work.remove();
  }
}

await main();
