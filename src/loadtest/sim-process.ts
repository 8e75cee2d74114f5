import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { AdbClient } from '../adb/client.js';
import { Device } from '../device/device.js';
import { sh } from '../adb/shell-command.js';

/** A running `droidbus sim` child process and its devices. */
export interface SimProcess {
  pid: number;
  serials: string[];
  /** Sums `sim stats` over the devices: UI dumps, and dumps that overlapped another on one device. */
  stats(): Promise<{ dumps: number; overlapping_dumps: number; devices_read: number }>;
  stop(): Promise<void>;
}

/**
 * Starts `droidbus sim --json` with N devices against the adb server on `adbPort`, and waits until
 * the server lists every one of them as `device`.
 */
export async function startSimProcess(options: {
  cli: string;
  adbPort: number;
  client: AdbClient;
  devices: number;
  dumpLatencyMs: number;
  logcatRate: number;
  env: Record<string, string>;
  readyTimeoutMs?: number;
  /** More `droidbus sim` arguments (`--command-log FILE`). */
  extraArgs?: string[];
}): Promise<SimProcess> {
  const args = [
    options.cli,
    'sim',
    '--json',
    '--adb-port',
    String(options.adbPort),
    '--devices',
    String(options.devices),
    '--dump-latency',
    String(options.dumpLatencyMs),
    '--logcat-rate',
    String(options.logcatRate),
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(process.execPath, args, { env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => {
    stderr = (stderr + c).slice(-8_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000 + options.devices * 2_000);
  try {
    const serials = (await readSimDevices<{ serial: string }>(child, exited, () => stderr, deadline)).map(
      (d) => d.serial,
    );
    await waitUntilOnline(options.client, serials, deadline);
    return {
      pid: child.pid ?? -1,
      serials,
      async stats() {
        let dumps = 0;
        let overlapping = 0;
        let read = 0;
        await Promise.all(
          serials.map(async (serial) => {
            try {
              const r = await new Device(serial, options.client).shell(sh`sim stats`, { timeoutMs: 10_000 });
              const s = JSON.parse(r.stdout) as { dumps?: number; overlapping_dumps?: number };
              dumps += s.dumps ?? 0;
              overlapping += s.overlapping_dumps ?? 0;
              read++;
            } catch {
              // A device that does not answer is reported as not read.
            }
          }),
        );
        return { dumps, overlapping_dumps: overlapping, devices_read: read };
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * What `droidbus sim --json` prints before it is ready: one JSON object per device, then
 * `{"ready":true}`. Rejects when the child exits first or the deadline passes.
 */
export function readSimDevices<T extends { serial: string }>(
  child: ChildProcess,
  exited: Promise<unknown>,
  stderr: () => string,
  deadline: number,
): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const devices: T[] = [];
    let buffer = '';
    const timer = setTimeout(
      () => reject(new Error(`droidbus sim was not ready in time: ${stderr().slice(-2000)}`)),
      Math.max(0, deadline - Date.now()),
    );
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line === '') {
          continue;
        }
        const value = JSON.parse(line) as T | { ready: true };
        if ('ready' in value) {
          clearTimeout(timer);
          resolve(devices);
          return;
        }
        devices.push(value);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`droidbus sim exited before it was ready: ${stderr().slice(-2000)}`));
    });
  });
}

/** How long a simulated device may stay unlisted or offline before the server is asked to connect it again. */
const RECONNECT_AFTER_MS = 10_000;

/**
 * Waits until the server lists every serial as `device`; one that stays unlisted or offline is
 * connected again every `reconnectAfterMs`.
 */
export async function waitUntilOnline(
  client: AdbClient,
  serials: string[],
  deadline: number,
  reconnectAfterMs = RECONNECT_AFTER_MS,
): Promise<void> {
  let lastError = '';
  let reconnectAt = Date.now() + reconnectAfterMs;
  for (;;) {
    const listed = await client.devices().catch((err: unknown) => {
      lastError = err instanceof Error ? err.message : String(err);
      return [];
    });
    const online = new Set(listed.filter((d) => d.state === 'device').map((d) => d.serial));
    if (serials.every((s) => online.has(s))) {
      return;
    }
    if (Date.now() > deadline) {
      const states = serials.map((s) => `${s} ${listed.find((d) => d.serial === s)?.state ?? 'not listed'}`);
      throw new Error(
        `the adb server lists ${serials.filter((s) => online.has(s)).length} of the ${serials.length} simulated devices as online (${states.join(', ')})${lastError ? `; the last adb error: ${lastError}` : ''}`,
      );
    }
    if (Date.now() > reconnectAt) {
      // `adb connect` again: harmless for a device that is there ("already connected"), and what
      // brings back one whose connection the server dropped.
      reconnectAt = Date.now() + reconnectAfterMs;
      for (const serial of serials.filter((s) => !online.has(s))) {
        await client.connect(serial).catch((err: unknown) => {
          lastError = err instanceof Error ? err.message : String(err);
        });
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
