/**
 * Cost of the simulated device model itself (no adb transport):
 *
 *   npx tsx bench/sim-device.ts [--seconds 5]
 *
 * 1. RSS of 64 idle devices (default logcat rate) after they have run for a while.
 * 2. CPU share and event-loop delay while 16 devices generate 2,000 log lines/s each, with and
 *    without a `logcat -v threadtime` reader streaming every device.
 * 3. Device commands per second on one device: `echo hi`, `uiautomator dump` (latency 0),
 *    `screencap -p` (cached and uncached rendering).
 * Prints figures; never fails on timing.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { type ShellIo, type SimDevice, runOn, createSimDevice } from '../src/sim/index.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' } } });
const SECONDS = Number(values.seconds);

function identity(i: number): Parameters<typeof createSimDevice>[0]['identity'] {
  return {
    serial: `127.0.0.1:${20000 + i}`,
    product: 'shiba',
    model: 'Pixel 8',
    device: 'shiba',
    sdk: 34,
    release: '14',
    width: 1080,
    height: 2400,
    density: 420,
  };
}

const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function idleMemory(): Promise<void> {
  global.gc?.();
  const before = process.memoryUsage();
  const devices = Array.from({ length: 64 }, (_, i) => createSimDevice({ identity: identity(i) }));
  await sleep(SECONDS * 1000);
  global.gc?.();
  const after = process.memoryUsage();
  console.log(`64 idle devices after ${SECONDS}s (logcat 5 lines/s each):`);
  console.log(
    `  process RSS ${mb(after.rss)} (baseline ${mb(before.rss)}, +${mb(after.rss - before.rss)}), heap used +${mb(after.heapUsed - before.heapUsed)}, per device ${((after.heapUsed - before.heapUsed) / 64 / 1024).toFixed(0)} KB heap`,
  );
  devices.forEach((d) => d.close());
}

/** A ShellIo whose stdout counts bytes and lines without keeping them. */
function sinkIo(signal: AbortSignal, counter: { bytes: number }): ShellIo {
  return {
    stdout: (c) => {
      counter.bytes += typeof c === 'string' ? c.length : c.length;
      return Promise.resolve();
    },
    stderr: () => Promise.resolve(),
    stdin: (async function* () {})(),
    signal,
  };
}

async function logcatLoad(readers: boolean): Promise<void> {
  const devices: SimDevice[] = Array.from({ length: 16 }, (_, i) =>
    createSimDevice({ identity: identity(100 + i), logcatRate: 2000 }),
  );
  const controllers = devices.map(() => new AbortController());
  const counter = { bytes: 0 };
  const runs = readers
    ? devices.map((d, i) =>
        d.run('logcat -v threadtime', sinkIo((controllers[i] as AbortController).signal, counter)),
      )
    : [];
  await sleep(500);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const bytes0 = counter.bytes;
  await sleep(SECONDS * 1000);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  delay.disable();
  controllers.forEach((c) => c.abort());
  await Promise.all(runs);
  devices.forEach((d) => d.close());
  const share = ((cpu.user + cpu.system) / 1000 / wall) * 100;
  console.log(
    `16 devices x 2,000 lines/s${readers ? ' + a threadtime reader each' : ''}: CPU ${share.toFixed(1)}% of one core, event-loop delay p50 ${(delay.percentile(50) / 1e6).toFixed(1)} ms p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms${readers ? `, streamed ${((counter.bytes - bytes0) / 1024 / 1024 / (wall / 1000)).toFixed(1)} MB/s (${Math.round((counter.bytes - bytes0) / 105 / (wall / 1000))} lines/s approx.)` : ''}`,
  );
}

async function commandRate(label: string, d: SimDevice, line: string, n: number): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await runOn(d, line);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  const p99 = times[Math.floor(times.length * 0.99)] ?? 0;
  console.log(
    `  ${label.padEnd(34)} median ${median.toFixed(3)} ms  p99 ${p99.toFixed(3)} ms  (${Math.round(1000 / median)}/s)`,
  );
}

async function commands(): Promise<void> {
  const d = createSimDevice({ identity: identity(300), logcatRate: 0, dumpLatencyMs: 0 });
  console.log('device commands (direct, one device):');
  await commandRate('echo hi', d, 'echo hi', 5000);
  await commandRate('getprop ro.build.version.sdk', d, 'getprop ro.build.version.sdk', 2000);
  await commandRate('uiautomator dump /dev/tty', d, 'uiautomator dump /dev/tty', 1000);
  await commandRate('input tap 540 1200', d, 'input tap 540 1200', 2000);
  await commandRate('screencap -p (same screen, cached)', d, 'screencap -p', 50);
  await commandRate(
    'screencap -p (new screen each time)',
    d,
    'input keyevent HOME; am start -n com.droidbus.sample/.HomeActivity; input swipe 540 2000 540 1900 0; screencap -p',
    20,
  );
  d.close();
}

await idleMemory();
await logcatLoad(false);
await logcatLoad(true);
await commands();
