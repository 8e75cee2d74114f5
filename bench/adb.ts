/**
 * bench/adb: what one device command costs through droidbus's adb client (the server's socket
 * protocol, shell v2) next to a spawned `adb` process, on sim devices behind the real adb server;
 * and whether the client's heap stays flat over many commands.
 *
 * Run: npm run build && node --expose-gc --import tsx bench/adb.ts   (BENCH_ADB_N=100000 for the soak)
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { AdbClient } from '../src/adb/client.js';
import { sh } from '../src/adb/shell-command.js';
import { startAdbServer } from '../tests/helpers/adb-server.js';
import { startSimFarm } from '../tests/helpers/sim-farm.js';
import { printTable, quantile } from './stats.js';

const N = Number(process.env['BENCH_N'] ?? 2000);
const SOAK = Number(process.env['BENCH_ADB_N'] ?? 20_000);

function spawnAdb(port: number, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('adb', ['-P', String(port), ...args], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

async function timed(
  n: number,
  fn: () => Promise<unknown>,
): Promise<{ samples: number[]; cpuMsPerOp: number }> {
  for (let i = 0; i < Math.min(100, n); i++) {
    await fn();
  }
  const cpu0 = process.cpuUsage();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  return { samples, cpuMsPerOp: (cpu.user + cpu.system) / 1000 / n };
}

async function concurrent(
  total: number,
  width: number,
  fn: (i: number) => Promise<unknown>,
): Promise<number[]> {
  const samples: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        await fn(i);
        samples.push(performance.now() - t0);
      }
    }),
  );
  return samples;
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round((process.memoryUsage().heapUsed / 1048576) * 10) / 10;
}

async function main(): Promise<void> {
  const server = await startAdbServer();
  const farm = await startSimFarm(server, { devices: 4, logcatRate: 0 });
  const serials = farm.devices.map((d) => d.serial);
  const client = new AdbClient({ kind: 'tcp', host: '127.0.0.1', port: server.port, source: 'bench' });
  try {
    const ours = await timed(N, () => client.shell(serials[0]!, sh`echo hi`));
    const theirs = await timed(Math.max(50, Math.round(N / 20)), () =>
      spawnAdb(server.port, ['-s', serials[0]!, 'shell', 'echo', 'hi']),
    );
    const ours20 = await concurrent(N, 20, (i) => client.shell(serials[i % 4]!, sh`echo hi`));
    const theirs20 = await concurrent(Math.max(100, Math.round(N / 10)), 20, (i) =>
      spawnAdb(server.port, ['-s', serials[i % 4]!, 'shell', 'echo', 'hi']),
    );
    const row = (path: string, samples: number[], cpu: string) => ({
      path,
      median_ms: quantile(samples, 0.5).toFixed(2),
      p99_ms: quantile(samples, 0.99).toFixed(2),
      client_cpu_ms_per_cmd: cpu,
      n: samples.length,
    });
    printTable(
      `bench/adb — \`echo hi\` on sim devices through the real adb server (${os.cpus().length} cores)`,
      [
        row('droidbus adb client, sequential', ours.samples, ours.cpuMsPerOp.toFixed(3)),
        row('spawned `adb -s … shell`, sequential', theirs.samples, '(child process)'),
        row('droidbus adb client, 20 concurrent / 4 devices', ours20, '-'),
        row('spawned adb, 20 concurrent / 4 devices', theirs20, '-'),
      ],
    );
    process.stdout.write(
      `\nratio spawned/droidbus (median, sequential): ${(quantile(theirs.samples, 0.5) / quantile(ours.samples, 0.5)).toFixed(1)}x; target ≤ 1.5 ms and ≤ 1.5 ms client CPU per command\n`,
    );

    const heap: { commands: number; heap_mb: number }[] = [{ commands: 0, heap_mb: heapMb() }];
    const step = Math.max(1000, Math.round(SOAK / 4));
    for (let done = 0; done < SOAK; done += step) {
      await concurrent(step, 8, (i) => client.shell(serials[i % 4]!, sh`echo hi`));
      heap.push({ commands: done + step, heap_mb: heapMb() });
    }
    printTable(
      `heap after GC over ${SOAK} commands (8 in flight)${(globalThis as { gc?: unknown }).gc ? '' : ' — run with --expose-gc for exact figures'}`,
      heap,
    );
  } finally {
    await farm.stop();
    await server.stop();
  }
}

await main();
