/**
 * Simulated devices for an end-to-end test: the BUILT CLI (`node dist/cli.js sim --json …`, so run
 * `npm run build` first) against a private adb server from ./adb-server.ts.
 *
 *   const server = await startAdbServer();
 *   const farm = await startSimFarm(server, { devices: 2, emulators: 1 });
 *   farm.devices[0].serial            // '127.0.0.1:40123' or 'emulator-5712'
 *   await server.adb(['-s', farm.devices[0].serial, 'shell', 'echo hi']);
 *   await farm.stop();                // SIGTERM; resolves with the exit code once the sim exited
 *   await server.stop();
 *
 * `startSimFarm` resolves when the sim printed `{"ready":true}` and `adb devices` lists every device
 * as `device` (as `unauthorized` with `auth: 'unauthorized'`), or rejects after `readyTimeoutMs`
 * with the sim's stderr. Emulators take the first free console/adb port pair at or above
 * `emulatorBasePort` (default: 5700 plus a per-process offset), which keeps them off the ports real
 * emulators and other test files use; the sim skips pairs that are taken.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AdbServer } from './adb-server.js';
import { readSimDevices } from '../../src/loadtest/sim-process.js';
import { lastRead } from './until.js';

/** The built CLI the helpers run. */
export const CLI_PATH = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface SimFarmDevice {
  serial: string;
  port: number;
  console_port: number | null;
  model: string;
  sdk: number;
}

export interface SimFarmOptions {
  devices?: number;
  emulators?: number;
  auth?: 'none' | 'any' | 'unauthorized';
  emulatorBasePort?: number;
  commandLog?: string;
  dumpLatencyMs?: number;
  logcatRate?: number;
  /** More `droidbus sim` arguments. */
  args?: string[];
  /**
   * How long to wait for every device to be listed (default 45 s: under the 60 s hook timeout, so a
   * farm that does not come up fails with the sim's own words and is stopped, not left running).
   */
  readyTimeoutMs?: number;
}

export interface SimFarm {
  devices: SimFarmDevice[];
  process: ChildProcess;
  /** What the sim wrote to stderr so far. */
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code when the sim has exited (SIGKILL after 20 s). */
  stop(): Promise<number | null>;
}

/** A default emulator port base per test process, so parallel files rarely even probe each other's ports. */
function defaultEmulatorBase(): number {
  return 5700 + 8 * (process.pid % 60);
}

/** True when `adb devices` printed every serial in `state`. */
function allIn(out: string, serials: string[], state: string): boolean {
  const states = new Map(
    out
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t') as [string, string | undefined]),
  );
  return serials.every((s) => states.get(s) === state);
}

async function pollDevices(
  server: AdbServer,
  serials: string[],
  state: string,
  deadline: number,
): Promise<void> {
  const listed = await lastRead(
    async () => (await server.adb(['devices'])).stdout,
    (out) => allIn(out, serials, state),
    Math.max(0, deadline - Date.now()),
    100,
  );
  if (!allIn(listed, serials, state)) {
    throw new Error(`adb devices did not list every sim device as ${state}:\n${listed}`);
  }
}

/** Starts `droidbus sim` against the server and waits until adb lists every device. */
export async function startSimFarm(server: AdbServer, options: SimFarmOptions = {}): Promise<SimFarm> {
  if (!existsSync(CLI_PATH)) {
    throw new Error(`${CLI_PATH} is missing: run npm run build before the e2e tests`);
  }
  const devices = options.devices ?? (options.emulators ? 0 : 1);
  const emulators = options.emulators ?? 0;
  const args = [CLI_PATH, 'sim', '--json', '--adb-port', String(server.port), '--devices', String(devices)];
  if (emulators > 0) {
    args.push('--emulators', String(emulators));
    args.push('--emulator-base-port', String(options.emulatorBasePort ?? defaultEmulatorBase()));
  }
  if (options.auth) {
    args.push('--auth', options.auth);
  }
  if (options.commandLog) {
    args.push('--command-log', options.commandLog);
  }
  if (options.dumpLatencyMs !== undefined) {
    args.push('--dump-latency', String(options.dumpLatencyMs));
  }
  if (options.logcatRate !== undefined) {
    args.push('--logcat-rate', String(options.logcatRate));
  }
  args.push(...(options.args ?? []));

  const child = spawn(process.execPath, args, { env: server.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    }
    return child.exitCode;
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 45_000);
  try {
    const listed = await readSimDevices<SimFarmDevice>(child, exited, () => stderr, deadline);
    await pollDevices(
      server,
      listed.map((d) => d.serial),
      options.auth === 'unauthorized' ? 'unauthorized' : 'device',
      deadline,
    );
    return { devices: listed, process: child, stderr: () => stderr, stop };
  } catch (err) {
    await stop();
    // Why the devices did not come online is usually in the sim's own words: keep them with the error.
    const said = stderr.trim().split('\n').slice(-40).join('\n');
    throw new Error(
      `${err instanceof Error ? err.message : String(err)}\nthe sim's stderr (last lines):\n${said || '(nothing)'}`,
      {
        cause: err,
      },
    );
  }
}
