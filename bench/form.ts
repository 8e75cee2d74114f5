/**
 * bench/form: the login-form job of issue 34 (fill user name and password, sign in, see the next
 * screen) through droidbus mcp on a sim device, two ways an agent can drive it:
 *   * "read after acting": read the screen, fill, fill, tap, then wait_for_element for the next
 *     screen — what an agent had to do while actions answered only "done";
 *   * "act on the answers": read the screen, fill, fill, and tap with `then: "welcome"` — every
 *     action answers the screen it left, so nothing is read again.
 * Each at the sim's dump latency of a fast device (100 ms) and of a phone (1,000 ms; real phones
 * take 1–3 s per `uiautomator dump`, issue 18), with no pause between calls (a script) and with a
 * 1 s pause (a model thinking: past the 500 ms in which an action reuses the capture before it).
 * Every run is checked through adb: the welcome screen is what `uiautomator dump` shows after it.
 *
 * Run: npm run build && npx tsx bench/form.ts   (BENCH_ROUNDS=3 by default)
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { startAdbServer } from '../tests/helpers/adb-server.js';
import { startMcp } from '../tests/helpers/mcp-client.js';
import type { McpSessionHandle } from '../tests/helpers/mcp-client.js';
import { startSimFarm } from '../tests/helpers/sim-farm.js';
import { tempDir } from '../tests/helpers/paths.js';
import { printTable, quantile } from './stats.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const SAMPLE = 'com.droidbus.sample';

interface Row {
  tree_path: string;
  resource_id?: string;
}
interface Tally {
  calls: number;
  textBytes: number;
}

async function call(
  mcp: McpSessionHandle,
  tally: Tally,
  pauseMs: number,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (tally.calls > 0 && pauseMs > 0) {
    await sleep(pauseMs);
  }
  const r = await mcp.client.callTool({ name, arguments: args });
  tally.calls++;
  tally.textBytes += (r.content as { type: string; text?: string }[])
    .filter((c) => c.type === 'text')
    .reduce((n, c) => n + Buffer.byteLength(c.text ?? '', 'utf8'), 0);
  if (r.isError) {
    throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  }
  return (r.structuredContent ?? {}) as Record<string, unknown>;
}

function pathOf(rows: Row[], id: string): string {
  const row = rows.find((r) => r.resource_id === id || r.resource_id?.endsWith(`:id/${id}`));
  if (!row) {
    throw new Error(`no ${id} on the login screen`);
  }
  return row.tree_path;
}

type Flow = 'read after acting' | 'act on the answers';

async function runForm(mcp: McpSessionHandle, serial: string, flow: Flow, pauseMs: number): Promise<Tally> {
  const tally: Tally = { calls: 0, textBytes: 0 };
  const read = await call(mcp, tally, pauseMs, 'get_ui_hierarchy', { device_serial: serial });
  const rows = read['rows'] as Row[];
  let hash = read['screen_hash'] as string;
  for (const [id, text] of [
    ['username', 'ada'],
    ['password', 'analytical'],
  ] as const) {
    const filled = await call(mcp, tally, pauseMs, 'ui_fill_input', {
      device_serial: serial,
      tree_path: pathOf(rows, id),
      text,
      ...(flow === 'act on the answers' ? { expect_screen_hash: hash } : {}),
    });
    hash = (filled['after'] as { screen_hash: string } | null)?.screen_hash ?? hash;
  }
  await call(mcp, tally, pauseMs, 'ui_tap_element', {
    device_serial: serial,
    tree_path: pathOf(rows, 'sign_in'),
    ...(flow === 'act on the answers' ? { expect_screen_hash: hash, then: 'welcome, ada' } : {}),
  });
  if (flow === 'read after acting') {
    await call(mcp, tally, pauseMs, 'wait_for_element', {
      device_serial: serial,
      text_contains: 'welcome, ada',
      timeout_ms: 10_000,
    });
  }
  return tally;
}

async function main(): Promise<void> {
  const server = await startAdbServer();
  const home = tempDir('droidbus-bench-form-');
  const rows: Record<string, string | number>[] = [];
  try {
    for (const dumpLatencyMs of [100, 1_000]) {
      const farm = await startSimFarm(server, { devices: 1, dumpLatencyMs, logcatRate: 0 });
      const mcp = await startMcp([], {
        env: { ...(server.env as Record<string, string>), DROIDBUS_HOME: home.dir },
      });
      const serial = farm.devices[0]!.serial;
      try {
        for (const pauseMs of [0, 1_000]) {
          for (const flow of ['read after acting', 'act on the answers'] as Flow[]) {
            const times: number[] = [];
            let tally: Tally = { calls: 0, textBytes: 0 };
            for (let i = 0; i < ROUNDS; i++) {
              await server.adb([
                '-s',
                serial,
                'shell',
                `am force-stop ${SAMPLE}; am start -W -n ${SAMPLE}/.LoginActivity`,
              ]);
              const t0 = performance.now();
              tally = await runForm(mcp, serial, flow, pauseMs);
              times.push(performance.now() - t0 - pauseMs * (tally.calls - 1));
              const screen = await server.adb(['-s', serial, 'shell', 'uiautomator dump /dev/tty']);
              if (!screen.stdout.includes('Welcome, ada')) {
                throw new Error(`${flow}: the welcome screen is not on the device after the job`);
              }
            }
            rows.push({
              dump_ms: dumpLatencyMs,
              pause_ms: pauseMs,
              flow,
              calls: tally.calls,
              text_bytes: tally.textBytes,
              median_ms: Math.round(quantile(times, 0.5)),
              max_ms: Math.round(Math.max(...times)),
              checked: `${ROUNDS}/${ROUNDS}`,
            });
          }
        }
      } finally {
        await mcp.close();
        await farm.stop();
      }
    }
  } finally {
    await server.stop();
    home.remove();
  }
  printTable(
    `the login-form job, ${ROUNDS} rounds each (time: droidbus's, the pauses between calls left out)`,
    rows,
  );
}

await main();
