import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../util/free-port.js';
import os from 'node:os';
import path from 'node:path';
import { AdbClient } from './client.js';
import { locateAdb, locateSdk } from './sdk.js';
import { runProcess } from '../util/exec.js';

/**
 * The environment that keeps an adb server from scanning the emulator ports 5555–5585 when it
 * starts, so it never attaches the developer's emulators: `ADB_EMU=0` skips the scanner (adb's
 * client/main.cpp); emulators that announce themselves (`host:emulator:PORT`) still attach.
 * `ADB_LOCAL_TRANSPORT_MAX_PORT` below 5555 alone is not enough on adb 29: measured here, 1 start in
 * 12 under load still connected to an emulator on 5555 (the override races the scanner thread).
 */
export const NO_EMULATOR_SCAN = { ADB_EMU: '0', ADB_LOCAL_TRANSPORT_MAX_PORT: '5553' } as const;

/** A private adb server (the load test's, the demo's), on a free port with a HOME of its own. */
export interface PrivateAdbServer {
  port: number;
  adb: string;
  /** ANDROID_ADB_SERVER_PORT and the server's HOME, for every process of the run. */
  env: Record<string, string>;
  client: AdbClient;
  /**
   * `adb kill-server` and `adb start-server` on the same port (a fault drill): every transport and
   * forward goes; devices reached over TCP must be connected again.
   */
  restart(): Promise<void>;
  /** `adb kill-server` alone (the server-kill fault); `startAgain` brings it back on the same port. */
  kill(): Promise<void>;
  startAgain(): Promise<void>;
  /** `adb -P PORT kill-server`, then removes its HOME. */
  stop(): Promise<void>;
}

/**
 * Starts `adb -P PORT start-server` with the adb droidbus itself would use (the SDK's, else PATH),
 * on a free port and with a HOME of its own, so the user's server, keys and emulators are left
 * alone: the server does not scan the emulator ports (NO_EMULATOR_SCAN), it sees only
 * the devices its owner connects. `owner` names it in the client's messages ("droidbus loadtest").
 */
export async function startPrivateAdbServer(owner: string): Promise<PrivateAdbServer> {
  const adb = locateAdb(locateSdk(null, false).path);
  if (!adb) {
    throw new Error(
      'no adb found (ANDROID_HOME/platform-tools, ANDROID_SDK_ROOT, the default SDK folder, PATH): install Android SDK Platform-Tools',
    );
  }
  const home = mkdtempSync(path.join(os.tmpdir(), 'droidbus-private-adb-'));
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const env: Record<string, string> = {
      HOME: home,
      ANDROID_ADB_SERVER_PORT: String(port),
      ...NO_EMULATOR_SCAN,
    };
    const started = await runProcess(adb, ['-P', String(port), 'start-server'], {
      env: { ...process.env, ...env },
      timeoutMs: 30_000,
    });
    if (started.code === 0) {
      let stopped = false;
      const run = (verb: string) =>
        runProcess(adb, ['-P', String(port), verb], { env: { ...process.env, ...env }, timeoutMs: 30_000 });
      const startAgain = async (): Promise<void> => {
        const again = await run('start-server');
        if (again.code !== 0) {
          throw new Error(
            `the adb server on port ${port} did not start again: ${(again.stderr || again.stdout).trim()}`,
          );
        }
      };
      return {
        port,
        adb,
        env,
        client: new AdbClient({ kind: 'tcp', host: '127.0.0.1', port, source: owner }),
        async restart() {
          await run('kill-server');
          await startAgain();
        },
        async kill() {
          await run('kill-server');
        },
        startAgain,
        async stop() {
          if (stopped) {
            return;
          }
          stopped = true;
          await run('kill-server');
          rmSync(home, { recursive: true, force: true });
        },
      };
    }
    lastError = (started.stderr || started.stdout || started.spawnError || '').trim();
  }
  rmSync(home, { recursive: true, force: true });
  throw new Error(`could not start a private adb server with ${adb}: ${lastError}`);
}
