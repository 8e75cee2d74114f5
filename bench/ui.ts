/**
 * bench/ui: UI Automator captures end to end (SDK client → droidbus mcp → device actors → real adb
 * server → droidbus sim), side by side with the same work through spawned `adb` processes:
 *   1. parallel efficiency: one capture on each of N devices at once (N = 1, 4, 16), with the sim's
 *      dump latency at 700 ms; efficiency = time for 1 / time for N (1.0 is perfect);
 *   2. host-side time per capture of a 100 KB and a 1 MB dump (transfer + parse + format; the sim's
 *      dump latency set to 0 so what is left is droidbus's own work and the transport);
 *   3. screenshots of a 1080×2400 and a 1440×3200 screen scaled to 1,280 px;
 *   4. a UI read through `uiautomator dump` vs through the on-device helper (Appium's UiAutomator2
 *      server, `droidbus helper install`), with real-phone latencies set on the sim: a dump 2 s
 *      (droidbus issue 18: a fresh UiAutomation per call costs 1–3 s on phones), the helper 100 ms
 *      per request ("milliseconds to a few hundred ms"); and a screen that never goes idle (its
 *      dump waits 10 s, AOSP DumpCommand) without and with the helper.
 *
 * Run: npm run build && npx tsx bench/ui.ts   (BENCH_ONLY=4 for one section)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { formatHierarchy, parseUiDump, scaleScreenshot } from '../src/actors/device/index.js';
import { AdbClient } from '../src/adb/client.js';
import { READS, readCommand } from '../src/device/reads.js';
import { startAdbServer } from '../tests/helpers/adb-server.js';
import type { AdbServer } from '../tests/helpers/adb-server.js';
import { EVERY_TOOLSET, startMcp } from '../tests/helpers/mcp-client.js';
import type { McpSessionHandle } from '../tests/helpers/mcp-client.js';
import { startSimFarm } from '../tests/helpers/sim-farm.js';
import { deviceTime, now, readLog } from './lib/device-time.js';
import { printTable, quantile, timeLoop } from './stats.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
/** `BENCH_ONLY=4` runs one section (1–4). */
const ONLY = process.env['BENCH_ONLY'];
const runs = (n: number): boolean => ONLY === undefined || ONLY === String(n);

function spawnAdb(port: number, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('adb', ['-P', String(port), ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.on('error', reject);
    child.on('close', () => resolve(Buffer.concat(out)));
  });
}

async function call(
  mcp: McpSessionHandle,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const r = await mcp.client.callTool({ name, arguments: args });
  if (r.isError) {
    throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  }
  return (r.structuredContent ?? {}) as Record<string, unknown>;
}

async function median(rounds: number, fn: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return quantile(samples, 0.5);
}

async function parallelEfficiency(
  server: AdbServer,
  home: string,
): Promise<Record<string, string | number>[]> {
  const farm = await startSimFarm(server, { devices: 16, dumpLatencyMs: 700, logcatRate: 0 });
  const mcp = await startMcp(EVERY_TOOLSET, {
    env: { ...(server.env as Record<string, string>), DROIDBUS_HOME: home },
  });
  const rows: Record<string, string | number>[] = [];
  try {
    const serials = farm.devices.map((d) => d.serial);
    await Promise.all(serials.map((s) => call(mcp, 'get_ui_hierarchy', { device_serial: s }))); // start the actors
    let one = 0;
    for (const n of [1, 4, 16]) {
      const ours = await median(ROUNDS, () =>
        Promise.all(serials.slice(0, n).map((s) => call(mcp, 'get_ui_hierarchy', { device_serial: s }))),
      );
      const theirs = await median(ROUNDS, () =>
        Promise.all(
          serials
            .slice(0, n)
            .map((s) => spawnAdb(server.port, ['-s', s, 'exec-out', 'uiautomator', 'dump', '/dev/tty'])),
        ),
      );
      if (n === 1) {
        one = ours;
      }
      rows.push({
        devices: n,
        droidbus_ms: Math.round(ours),
        efficiency: (one / ours).toFixed(2),
        spawned_adb_dump_only_ms: Math.round(theirs),
      });
    }
  } finally {
    await mcp.close();
    await farm.stop();
  }
  return rows;
}

/** A dump of about `bytes` bytes: the sim's own screens repeated under one root. */
function bigDump(base: string, bytes: number): string {
  const inner = base.slice(base.indexOf('<node'), base.lastIndexOf('</hierarchy>'));
  const copies = Math.max(1, Math.ceil(bytes / inner.length));
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.droidbus.sample" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">${inner.repeat(copies)}</node></hierarchy>`;
}

/** Host time of a UI read per dump size (issue 24's targets: list_clickable_elements, median). */
const HOST_TARGETS: Array<[label: string, bytes: number | 'real', targetMs: number]> = [
  ['8 KB, the real launcher screen', 'real', 3],
  ['100 KB', 100 * 1024, 10],
  ['1 MB', 1024 * 1024, 60],
];

/**
 * A UI read per dump size, the sim's dump latency 0: each tool call's time, and its host time (the
 * call minus the device's busy time from the sim's command log: droidbus, the MCP transport and the
 * adb server's hop); beside it the host time of the bare dump through the adb server's socket (the
 * floor every client pays) and the same dump through a spawned `adb` plus the same parse.
 */
async function captureCost(server: AdbServer, home: string): Promise<Record<string, string | number>[]> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'droidbus-bench-ui-'));
  const log = path.join(tmp, 'commands.jsonl');
  const farm = await startSimFarm(server, { devices: 1, dumpLatencyMs: 0, logcatRate: 0, commandLog: log });
  const mcp = await startMcp(EVERY_TOOLSET, {
    env: { ...(server.env as Record<string, string>), DROIDBUS_HOME: home },
  });
  const serial = farm.devices[0]!.serial;
  const adb = new AdbClient({ kind: 'tcp', host: '127.0.0.1', port: server.port, source: 'bench' });
  const rows: Record<string, string | number>[] = [];
  const rounds = Math.max(ROUNDS, 20);
  try {
    await spawnAdb(server.port, ['-s', serial, 'shell', 'am start -W -n com.droidbus.sample/.LoginActivity']);
    const base = (
      await spawnAdb(server.port, ['-s', serial, 'exec-out', 'uiautomator', 'dump', '/dev/tty'])
    ).toString();
    for (const [label, size, target] of HOST_TARGETS) {
      const file = path.join(tmp, `dump-${label.length}.xml`);
      writeFileSync(
        file,
        size === 'real'
          ? readFileSync(new URL('../tests/fixtures/ui/launcher-pixel.xml', import.meta.url))
          : bigDump(base, size),
      );
      await spawnAdb(server.port, ['-s', serial, 'push', file, '/data/local/tmp/dump.xml']);
      await spawnAdb(server.port, ['-s', serial, 'shell', 'sim screen load /data/local/tmp/dump.xml']);
      // Warm: the reader's code is compiled for this size before it is timed.
      for (let i = 0; i < 10; i++) {
        await call(mcp, 'list_clickable_elements', { device_serial: serial });
      }
      const calls: Array<[number, number]> = [];
      const ours = await median(rounds, async () => {
        const t0 = now();
        await call(mcp, 'list_clickable_elements', { device_serial: serial });
        calls.push([t0, now()]);
      });
      // The floor any client pays: the same dump through the adb server's socket, no MCP, no droidbus.
      const bare: Array<[number, number]> = [];
      await median(rounds, async () => {
        const t0 = now();
        await adb.exec(serial, readCommand(READS.uiDump));
        bare.push([t0, now()]);
      });
      const hierarchy = await median(ROUNDS, () => call(mcp, 'get_ui_hierarchy', { device_serial: serial }));
      const theirs = await median(ROUNDS, async () => {
        const bytes = await spawnAdb(server.port, [
          '-s',
          serial,
          'exec-out',
          'uiautomator',
          'dump',
          '/dev/tty',
        ]);
        const tree = parseUiDump(bytes);
        if (tree.ok) {
          formatHierarchy(tree.value);
        }
      });
      // The sim writes its log within 50 ms.
      await new Promise((res) => setTimeout(res, 100));
      const commands = readLog(log);
      const beyond = (spans: Array<[number, number]>): number =>
        Math.round(
          quantile(
            spans.map(([a, b]) => b - a - deviceTime(commands, serial, a, b).busy),
            0.5,
          ) * 10,
        ) / 10;
      rows.push({
        dump: `${label} (${readFileSync(file).length} B)`,
        list_clickable_elements_ms: Math.round(ours * 10) / 10,
        host_ms: beyond(calls),
        host_target_ms: target,
        bare_adb_exec_host_ms: beyond(bare),
        get_ui_hierarchy_ms: Math.round(hierarchy),
        spawned_adb_plus_same_parse_ms: Math.round(theirs),
      });
    }
    await spawnAdb(server.port, ['-s', serial, 'shell', 'sim screen reset']);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    await mcp.close();
    await farm.stop();
  }
  return rows;
}

async function screenshots(server: AdbServer, home: string): Promise<Record<string, string | number>[]> {
  const farm = await startSimFarm(server, { devices: 1, logcatRate: 0 });
  const mcp = await startMcp(EVERY_TOOLSET, {
    env: { ...(server.env as Record<string, string>), DROIDBUS_HOME: home },
  });
  const serial = farm.devices[0]!.serial;
  const rows: Record<string, string | number>[] = [];
  try {
    for (const size of ['1080x2400', '1440x3200']) {
      await spawnAdb(server.port, ['-s', serial, 'shell', `wm size ${size}`]);
      await call(mcp, 'screenshot', { device_serial: serial });
      const ours = await median(ROUNDS, () => call(mcp, 'screenshot', { device_serial: serial }));
      const theirs = await median(ROUNDS, async () => {
        const png = await spawnAdb(server.port, ['-s', serial, 'exec-out', 'screencap', '-p']);
        await scaleScreenshot(png, { max_dimension: 1280 });
      });
      const sharpOnly = await median(ROUNDS, async () => {
        const png = await spawnAdb(server.port, ['-s', serial, 'exec-out', 'screencap', '-p']);
        await sharp(png).resize({ height: 1280, width: 1280, fit: 'inside' }).png().toBuffer();
      });
      rows.push({
        screen: size,
        droidbus_screenshot_ms: Math.round(ours),
        spawned_adb_plus_same_scale_ms: Math.round(theirs),
        spawned_adb_plus_sharp_lanczos_ms: Math.round(sharpOnly),
      });
    }
    await spawnAdb(server.port, ['-s', serial, 'shell', 'wm size reset']);
  } finally {
    await mcp.close();
    await farm.stop();
  }
  return rows;
}

async function helperVsDump(server: AdbServer, home: string): Promise<Record<string, string | number>[]> {
  const farm = await startSimFarm(server, { devices: 1, dumpLatencyMs: 2_000, logcatRate: 0 });
  const serial = farm.devices[0]!.serial;
  const env = { ...(server.env as Record<string, string>), DROIDBUS_HOME: home };
  const mcp = await startMcp(EVERY_TOOLSET, { env });
  const rows: Record<string, string | number>[] = [];
  const sample = (n: number, fn: () => Promise<unknown>): Promise<number[]> => timeLoop(n, fn, 0);
  const timeOnce = async (fn: () => Promise<unknown>): Promise<number> => (await sample(1, fn))[0]!;
  const read = (): Promise<unknown> =>
    mcp.client.callTool({ name: 'get_ui_hierarchy', arguments: { device_serial: serial } });
  const shell = (command: string): Promise<unknown> =>
    spawnAdb(server.port, ['-s', serial, 'shell', command]);
  try {
    await shell('am start -W -n com.droidbus.sample/.HomeActivity');
    const dump = await sample(ROUNDS, read);
    await shell('am start -W -n com.droidbus.sample/.DetailActivity --es live true');
    const neverIdleDump = await timeOnce(read);
    await shell('input keyevent KEYCODE_BACK');
    const { runCli } = await import('../tests/helpers/run-cli.js');
    const installed = await runCli(['helper', 'install', '--serial', serial], { env });
    if (installed.code !== 0) {
      throw new Error(`droidbus helper install failed: ${installed.stderr}`);
    }
    // A fresh session, so the device actor sees the helper at once.
    await mcp.close();
    const mcp2 = await startMcp(EVERY_TOOLSET, { env });
    const read2 = (): Promise<unknown> =>
      mcp2.client.callTool({ name: 'get_ui_hierarchy', arguments: { device_serial: serial } });
    try {
      const firstHelper = await timeOnce(read2); // starts the instrumentation (2.5 s in the sim, as real logs)
      const helper = await sample(ROUNDS, read2);
      // Taps, keys and swipes: through the helper while it serves the device, and through `adb
      // shell input` (its Java start-up set to the cited 1,160 ms) once droidbus no longer reads
      // through the helper.
      await shell('sim latency input 1160');
      const actions: [string, string, Record<string, unknown>][] = [
        ['ui_tap', 'tap', { x: 10, y: 10 }],
        ['send_ui_key', 'keyevent', { key: 'DPAD_DOWN' }],
        ['ui_swipe', 'swipe', { x1: 540, y1: 1800, x2: 540, y2: 1700, duration_ms: 100 }],
      ];
      const act = (c: typeof mcp2, name: string, args: Record<string, unknown>) => (): Promise<unknown> =>
        c.client.callTool({ name, arguments: { device_serial: serial, ...args } });
      const viaHelper: number[][] = [];
      for (const [name, , args] of actions) {
        viaHelper.push(await sample(ROUNDS, act(mcp2, name, args)));
      }
      await shell('am start -W -n com.droidbus.sample/.DetailActivity --es live true');
      const neverIdleHelper = await timeOnce(read2);
      const mcp3 = await startMcp(EVERY_TOOLSET, { env });
      const viaInput: number[][] = [];
      try {
        for (const [name, , args] of actions) {
          viaInput.push(await sample(Math.min(ROUNDS, 5), act(mcp3, name, args)));
        }
      } finally {
        await mcp3.close();
      }
      const fmt = (xs: number[], q: number): number => Math.round(quantile(xs, q));
      rows.push(
        { read: 'get_ui_hierarchy, uiautomator dump (2 s)', p50_ms: fmt(dump, 0.5), p95_ms: fmt(dump, 0.95) },
        {
          read: 'get_ui_hierarchy, the helper (100 ms)',
          p50_ms: fmt(helper, 0.5),
          p95_ms: fmt(helper, 0.95),
        },
        {
          read: 'the first read through the helper (starts it)',
          p50_ms: Math.round(firstHelper),
          p95_ms: '',
        },
        {
          read: 'a never-idle screen, dump (an error after the idle wait)',
          p50_ms: Math.round(neverIdleDump),
          p95_ms: '',
        },
        { read: 'a never-idle screen, the helper (read)', p50_ms: Math.round(neverIdleHelper), p95_ms: '' },
        ...actions.flatMap(([name, verb], i) => [
          {
            read: `${name} through the helper${name === 'ui_swipe' ? ' (a 100 ms swipe)' : ''}`,
            p50_ms: fmt(viaHelper[i]!, 0.5),
            p95_ms: fmt(viaHelper[i]!, 0.95),
          },
          {
            read: `${name} through input ${verb} (1,160 ms Java start)`,
            p50_ms: fmt(viaInput[i]!, 0.5),
            p95_ms: fmt(viaInput[i]!, 0.95),
          },
        ]),
      );
    } finally {
      await mcp2.close();
    }
  } finally {
    await mcp.close().catch(() => undefined);
    await farm.stop();
  }
  return rows;
}

async function main(): Promise<void> {
  const server = await startAdbServer();
  const home = mkdtempSync(path.join(os.tmpdir(), 'droidbus-bench-home-'));
  try {
    if (runs(1)) {
      printTable(
        `1. parallel captures (dump latency 700 ms, median of ${ROUNDS}; target efficiency ≥ 0.9 at 16)`,
        await parallelEfficiency(server, home),
      );
    }
    if (runs(2)) {
      printTable(
        `2. a UI read's host time per dump size (dump latency 0; list_clickable_elements median of ${Math.max(ROUNDS, 20)}, the others of ${ROUNDS})`,
        await captureCost(server, home),
      );
    }
    if (runs(3)) {
      printTable(`3. screenshots scaled to 1280 px (median of ${ROUNDS})`, await screenshots(server, home));
    }
    if (runs(4)) {
      printTable(
        `4. a UI read: uiautomator dump vs the on-device helper (${ROUNDS} reads each)`,
        await helperVsDump(server, home),
      );
    }
  } finally {
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
