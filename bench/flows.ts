/**
 * bench/flows: one Maestro flow (the demo's sign-in job, then a scroll to a list row) run with
 * run_flow on 1, 4 and 16 sim devices at once (issue 59), through droidbus mcp → the flows actor →
 * the device actors → the real adb server → `droidbus sim`. Per device count: the run's wall time
 * (median and worst of the rounds), the median time one device took, and the parallel efficiency
 * T(1) / T(N) — 1.0 when N devices finish as fast as one (each runs its own sequence; they share the
 * host's two device-worker threads, the adb server and the sim process). At the sim's default dump
 * latency and at 1,000 ms, a phone's (`uiautomator dump` takes 1–3 s on real phones, issue 18).
 *
 * Run: npm run build && npx tsx bench/flows.ts [--rounds 3]
 */
import { startAdbServer } from '../tests/helpers/adb-server.js';
import { startMcp } from '../tests/helpers/mcp-client.js';
import { tempDir } from '../tests/helpers/paths.js';
import { startSimFarm } from '../tests/helpers/sim-farm.js';
import { numberFlag } from './lib/flags.js';
import { printTable, quantile } from './stats.js';

const ROUNDS = numberFlag('rounds', 3);
const COUNTS = [1, 4, 16];
const PACKAGE = 'com.droidbus.sample';

const FLOW = `appId: ${PACKAGE}
name: sign in, then the list
---
- launchApp:
    clearState: true
- tapOn:
    id: username
- inputText: ada@example.com
- tapOn:
    id: password
- inputText: \${PASSWORD}
- tapOn:
    id: sign_in
- extendedWaitUntil:
    visible: ".*welcome.*"
    timeout: 10000
- scrollUntilVisible:
    element: Item 20
- assertVisible: Item 20
`;

interface Run {
  wall_ms: number;
  passed: number;
  failed: number;
  devices: { serial: string; duration_ms: number; failed: { reason: string } | null }[];
}

async function measure(dumpLatencyMs: number | undefined): Promise<Record<string, string | number>[]> {
  const home = tempDir('droidbus-bench-flows-');
  const server = await startAdbServer();
  const farm = await startSimFarm(server, {
    devices: Math.max(...COUNTS),
    ...(dumpLatencyMs !== undefined ? { dumpLatencyMs } : {}),
  });
  const env = { ...(server.env as Record<string, string>), DROIDBUS_HOME: home.dir };
  const mcp = await startMcp(['--toolsets', 'flows'], { env });
  const serials = farm.devices.map((d) => d.serial);
  const rows: Record<string, string | number>[] = [];
  let t1 = NaN;
  try {
    for (const n of COUNTS) {
      const walls: number[] = [];
      const perDevice: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const r = await mcp.client.callTool(
          {
            name: 'run_flow',
            arguments: {
              yaml: FLOW,
              device_serials: serials.slice(0, n),
              env: { PASSWORD: 'analytical engine' },
              allow_foreign_package: true,
            },
          },
          undefined,
          { timeout: 600_000 },
        );
        const run = r.structuredContent as unknown as Run;
        if (r.isError || run.failed > 0) {
          const why =
            run?.devices?.find((d) => d.failed)?.failed?.reason ?? JSON.stringify(r.content).slice(0, 300);
          throw new Error(`the flow failed on ${n} devices: ${why}`);
        }
        walls.push(run.wall_ms);
        perDevice.push(...run.devices.map((d) => d.duration_ms));
      }
      const median = quantile(walls, 0.5);
      if (n === 1) {
        t1 = median;
      }
      rows.push({
        dump_latency: dumpLatencyMs === undefined ? 'sim default' : `${dumpLatencyMs} ms`,
        devices: n,
        'wall median ms': Math.round(median),
        'wall max ms': Math.round(Math.max(...walls)),
        'one device median ms': Math.round(quantile(perDevice, 0.5)),
        'parallel efficiency T1/TN': (t1 / median).toFixed(2),
        'device-runs per minute': Math.round((n * 60_000) / median),
      });
    }
  } finally {
    await mcp.close().catch(() => undefined);
    await farm.stop().catch(() => undefined);
    await server.stop().catch(() => undefined);
    home.remove();
  }
  return rows;
}

const rows = [...(await measure(undefined)), ...(await measure(1000))];
printTable(
  `run_flow: a ${FLOW.split('\n- ').length - 1}-command flow on 1, 4 and 16 sim devices at once (${ROUNDS} rounds each)`,
  rows,
);
