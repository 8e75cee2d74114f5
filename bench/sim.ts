/**
 * Throughput and cost of the simulated device farm, through the real adb server.
 *
 *   npm run build && npx tsx bench/sim.ts [--seconds 5]
 *
 * Starts a private adb server and `droidbus sim --devices 16` (the built CLI, as users run it), then
 * drives `shell,v2,raw:echo hi` over the adb server's socket protocol from this process (no adb
 * process per command): sequentially on one device, then concurrently across all 16. Prints
 * commands/s, latency, the sim's own CPU per command (from /proc of the sim process) and the time
 * the device itself spent per command (from --command-log). Finally measures the idle RSS of a
 * 64-device farm. Never fails on timing.
 */
import { connect } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startAdbServer } from '../tests/helpers/adb-server.js';
import { startSimFarm, type SimFarm } from '../tests/helpers/sim-farm.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' } } });
const SECONDS = Number(values.seconds);

/** Runs one command through the adb server with the shell protocol; resolves to its exit code. */
function shellV2(port: number, serial: string, command: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let phase: 'transport' | 'open' | 'packets' = 'transport';
    let buf: Buffer = Buffer.alloc(0);
    const request = (text: string): void => {
      socket.write(Buffer.byteLength(text).toString(16).padStart(4, '0') + text);
    };
    socket.on('connect', () => request(`host:transport:${serial}`));
    socket.on('data', (chunk: Buffer) => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      for (;;) {
        if (phase !== 'packets') {
          if (buf.length < 4) {
            return;
          }
          if (buf.subarray(0, 4).toString('latin1') !== 'OKAY') {
            socket.destroy();
            reject(new Error(`adb server refused: ${buf.toString('latin1')}`));
            return;
          }
          buf = buf.subarray(4);
          if (phase === 'transport') {
            phase = 'open';
            request(`shell,v2,raw:${command}`);
          } else {
            phase = 'packets';
          }
          continue;
        }
        if (buf.length < 5) {
          return;
        }
        const length = buf.readUInt32LE(1);
        if (buf.length < 5 + length) {
          return;
        }
        const id = buf.readUInt8(0);
        if (id === 3) {
          socket.destroy();
          resolve(buf.readUInt8(5));
          return;
        }
        buf = buf.subarray(5 + length);
      }
    });
    socket.on('error', reject);
  });
}

/** CPU time (user + system, ms) a process has used, from /proc (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** The pid of the adb server listening on `port` (its command line names `tcp:PORT`), from /proc. */
function adbServerPid(port: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmdline.includes('fork-server') && cmdline.some((arg) => arg === `tcp:${port}`)) {
        return Number(entry);
      }
    } catch {
      // The process went away.
    }
  }
  return undefined;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

interface Phase {
  name: string;
  commands: number;
  seconds: number;
  median: number;
  p99: number;
  simCpuPerCommand: number;
  serverCpuPerCommand: number;
  clientCpuPerCommand: number;
}

async function phase(
  name: string,
  farm: SimFarm,
  port: number,
  serials: string[],
  concurrency: number,
): Promise<Phase> {
  const pid = farm.process.pid!;
  const serverPid = adbServerPid(port);
  const cpu0 = cpuMs(pid);
  const server0 = serverPid ? cpuMs(serverPid) : NaN;
  const client0 = process.cpuUsage();
  const latencies: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const serial = serials[next++ % serials.length]!;
        const t0 = performance.now();
        const code = await shellV2(port, serial, 'echo hi');
        latencies.push(performance.now() - t0);
        if (code !== 0) {
          throw new Error(`echo hi exited ${code}`);
        }
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const cpu = cpuMs(pid) - cpu0;
  const serverCpu = serverPid ? cpuMs(serverPid) - server0 : NaN;
  const client = process.cpuUsage(client0);
  latencies.sort((a, b) => a - b);
  return {
    name,
    commands: latencies.length,
    seconds,
    median: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    simCpuPerCommand: cpu / latencies.length,
    serverCpuPerCommand: serverCpu / latencies.length,
    clientCpuPerCommand: (client.user + client.system) / 1000 / latencies.length,
  };
}

const work = await mkdtemp(join(tmpdir(), 'droidbus-bench-sim-'));
const server = await startAdbServer();
try {
  const log = join(work, 'commands.jsonl');
  const farm = await startSimFarm(server, { devices: 16, commandLog: log, logcatRate: 0 });
  const serials = farm.devices.map((d) => d.serial);
  const phases: Phase[] = [];
  // Warm up the JIT on both sides.
  await phase('warm-up', farm, server.port, serials, 16);
  phases.push(await phase('sequential, 1 device', farm, server.port, serials.slice(0, 1), 1));
  phases.push(await phase('16 devices, 16 in flight', farm, server.port, serials, 16));
  phases.push(await phase('16 devices, 64 in flight', farm, server.port, serials, 64));
  await farm.stop();

  const deviceTimes = (await readFile(log, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { t0: number; t1: number; cmd: string })
    .filter((e) => e.cmd === 'echo hi')
    .map((e) => e.t1 - e.t0)
    .sort((a, b) => a - b);

  console.log(`droidbus sim through the real adb server (${SECONDS} s per phase, shell,v2,raw:echo hi)`);
  console.log(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log('');
  console.log(
    'CPU ms per command: sim = the droidbus sim process, server = adb server, client = this process',
  );
  console.log(
    'phase                       commands   cmd/s  median ms  p99 ms   sim CPU  server CPU  client CPU',
  );
  for (const p of phases) {
    console.log(
      `${p.name.padEnd(26)}  ${String(p.commands).padStart(8)}  ${(p.commands / p.seconds).toFixed(0).padStart(6)}  ` +
        `${p.median.toFixed(2).padStart(9)}  ${p.p99.toFixed(2).padStart(6)}   ${p.simCpuPerCommand.toFixed(3).padStart(7)}  ` +
        `${p.serverCpuPerCommand.toFixed(3).padStart(10)}  ${p.clientCpuPerCommand.toFixed(3).padStart(10)}`,
    );
  }
  console.log('');
  console.log(
    `time inside the device per command (command log t1-t0, ${deviceTimes.length} commands): ` +
      `median ${quantile(deviceTimes, 0.5).toFixed(3)} ms, p99 ${quantile(deviceTimes, 0.99).toFixed(3)} ms`,
  );

  const big = await startSimFarm(server, { devices: 64, readyTimeoutMs: 120_000 });
  const rssReady = rssMb(big.process.pid!);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const rssIdle = rssMb(big.process.pid!);
  await big.stop();
  console.log(
    `64-device farm RSS: ${rssReady.toFixed(0)} MB when ready, ${rssIdle.toFixed(0)} MB after 3 s idle (budget 300 MB)`,
  );
} finally {
  await server.stop();
  await rm(work, { recursive: true, force: true });
}
