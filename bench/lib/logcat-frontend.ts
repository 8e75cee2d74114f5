/**
 * What the logcat actor buys the MCP frontend: the frontend's event-loop delay while 16 sim devices
 * stream logcat at 2,000 lines/s each, measured twice through the same real adb server —
 *  1. droidbus's way: one `droidbus mcp` session (the built CLI) with start_logcat on every device;
 *     its logcat actor parses on its own worker thread; the frontend's delay is read from
 *     `droidbus://runtime` (since the frontend started, so it includes its own startup);
 *  2. the same parsing on the frontend's own thread: this process opens the 16 streams itself and
 *     parses them inline with the same LogcatPipeline, measuring its own loop from before the
 *     streams open to the end of the window.
 * Both read each device's buffer first, as start_logcat does, then the live lines.
 * Used by bench/logcat.ts; needs `npm run build` (the CLI under dist/) and Debian's adb.
 */
import { setMaxListeners } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AdbClient } from '../../src/adb/client.js';
import { sh } from '../../src/adb/shell-command.js';
import { CrashGroups, LogcatPipeline, LogStore } from '../../src/actors/logcat/index.js';
import { startEventLoopProbe } from '../../src/util/event-loop.js';
import { startAdbServer } from '../../tests/helpers/adb-server.js';
import { startMcp } from '../../tests/helpers/mcp-client.js';
import { CLI } from '../../tests/helpers/paths.js';
import { startSimFarm } from '../../tests/helpers/sim-farm.js';

export interface FrontendFigures {
  label: string;
  /** Event-loop delay beyond the sampling tick, as src/util/event-loop.ts reports it. */
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  lines_per_s: number;
}

/** The sampling tick of droidbus's probe (src/util/event-loop.ts) and of the inline measurement. */
const RESOLUTION_MS = 10;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface RuntimeJson {
  event_loop: { p50_ms: number; p99_ms: number; max_ms: number };
}

/** Runs both scenarios; resolves with their figures, or null (with a reason printed) when it cannot run. */
export async function frontendLoopDelay(options: {
  devices: number;
  rate: number;
  seconds: number;
}): Promise<FrontendFigures[] | null> {
  if (!existsSync(CLI)) {
    console.log(`\n(skipping the frontend figures: ${CLI} is missing — run npm run build)`);
    return null;
  }
  const server = await startAdbServer();
  const home = mkdtempSync(path.join(tmpdir(), 'droidbus-bench-home-'));
  const farm = await startSimFarm(server, {
    devices: options.devices,
    logcatRate: options.rate,
    readyTimeoutMs: 120_000,
  });
  const serials = farm.devices.map((d) => d.serial);
  const out: FrontendFigures[] = [];
  try {
    // 1. The logcat actor parses; the frontend only answers JSON-RPC.
    const session = await startMcp(['--toolsets', 'core,inspect'], {
      env: { ANDROID_ADB_SERVER_PORT: String(server.port), DROIDBUS_HOME: home },
    });
    try {
      for (const serial of serials) {
        const r = await session.client.callTool({
          name: 'start_logcat',
          arguments: { device_serial: serial },
        });
        if (r.isError) {
          throw new Error(`start_logcat ${serial}: ${JSON.stringify(r.content)}`);
        }
      }
      const received = async (): Promise<number> => {
        const r = await session.client.callTool({ name: 'get_logcat_stats', arguments: {} });
        return (r.structuredContent as { store: { received: number } }).store.received;
      };
      const from = await received();
      const t0 = performance.now();
      for (let s = 0; s < options.seconds; s++) {
        await sleep(1000);
        await received(); // the frontend keeps answering calls while the devices stream
      }
      const lines = (await received()) - from;
      const elapsed = (performance.now() - t0) / 1000;
      const read = await session.client.readResource({ uri: 'droidbus://runtime' });
      const loop = (JSON.parse((read.contents[0] as { text: string }).text) as RuntimeJson).event_loop;
      out.push({
        label: 'logcat actor (droidbus mcp frontend)',
        p50_ms: loop.p50_ms,
        p99_ms: loop.p99_ms,
        max_ms: loop.max_ms,
        lines_per_s: lines / elapsed,
      });
      await session.client.callTool({ name: 'stop_logcat', arguments: {} });
    } finally {
      await session.close();
    }

    // 2. The same streams parsed inline on this thread.
    const client = new AdbClient({ kind: 'tcp', host: '127.0.0.1', port: server.port, source: 'bench' });
    const store = new LogStore();
    const groups = new CrashGroups();
    const controller = new AbortController();
    setMaxListeners(serials.length + 8, controller.signal); // one listener per stream
    const pipelines = serials.map((serial) => new LogcatPipeline({ device: serial, store, groups }));
    // Measured from before the streams open, as the frontend's probe is: reading each device's
    // buffer when its stream starts is part of the load.
    const probe = startEventLoopProbe(RESOLUTION_MS);
    const reading = serials.map(async (serial, i) => {
      try {
        for await (const chunk of client.stream(serial, sh`logcat -v threadtime`, controller.signal)) {
          pipelines[i]!.push(chunk);
        }
      } catch {
        // Aborted at the end of the window.
      }
    });
    const ticker = setInterval(() => pipelines.forEach((p) => p.tick()), 1000);
    await sleep(1000); // every stream opens and reads its device's buffer
    const from = store.stats().received;
    const t0 = performance.now();
    await sleep(options.seconds * 1000);
    const inline = probe.read();
    probe.stop();
    const lines = store.stats().received - from;
    const elapsed = (performance.now() - t0) / 1000;
    clearInterval(ticker);
    controller.abort();
    await Promise.all(reading);
    out.push({
      label: 'inline on the frontend thread',
      p50_ms: inline.p50_ms,
      p99_ms: inline.p99_ms,
      max_ms: inline.max_ms,
      lines_per_s: lines / elapsed,
    });
  } finally {
    await farm.stop();
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  }
  return out;
}
