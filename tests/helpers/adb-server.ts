/**
 * A private adb server for one test file, run with the real `adb` binary.
 *
 *   const server = await startAdbServer();
 *   const { code, stdout, stderr } = await server.adb(['-s', serial, 'shell', 'echo hi']);
 *   ...
 *   await server.stop();   // adb -P PORT kill-server, then removes the private HOME
 *
 * `startAdbServer()` picks a free port, gives the server a fresh HOME (its own ~/.android keys and
 * ~/.emulator_console_auth_token, nothing of the user's touched) and starts it with
 * `adb -P PORT start-server`. The server does not scan the machine-global emulator ports
 * (NO_EMULATOR_SCAN: ADB_EMU=0), so the developer's and other test files' emulators never show up in it.
 *
 * `server.env` is the environment to give every process of the test (droidbus, `droidbus sim`):
 * ANDROID_ADB_SERVER_PORT and HOME point at this server and its home.
 * `server.adb(args, { input?, timeoutMs? })` runs the adb client against it and resolves to
 * `{ code, stdout, stderr, stdoutBytes }` (it never rejects on a non-zero exit).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NO_EMULATOR_SCAN } from '../../src/adb/private-server.js';
import { freePort } from '../../src/util/free-port.js';

export { freePort };

export interface AdbResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout as bytes, for binary output (`exec-out`). */
  stdoutBytes: Buffer;
}

export interface AdbRunOptions {
  /** Bytes for adb's stdin (default: none, stdin is closed). */
  input?: Buffer | string;
  /** Kills adb after this long (default 60 s). */
  timeoutMs?: number;
}

export interface AdbServer {
  port: number;
  /** The private HOME the server (and everything started with `env`) uses. */
  home: string;
  env: NodeJS.ProcessEnv;
  adb(args: string[], options?: AdbRunOptions): Promise<AdbResult>;
  stop(): Promise<void>;
}

/** The adb binary tests use: $ADB, else `adb` on PATH. */
export const ADB_BINARY = process.env['ADB'] ?? 'adb';

/** Runs a program and collects its output; resolves with its exit code whatever it is. */
export function run(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: AdbRunOptions = {},
): Promise<AdbResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      const stdoutBytes = Buffer.concat(out);
      resolve({
        code,
        stdout: stdoutBytes.toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        stdoutBytes,
      });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}

/** Starts a private adb server on a free port with its own HOME. */
export async function startAdbServer(): Promise<AdbServer> {
  const home = await mkdtemp(join(tmpdir(), 'droidbus-adb-home-'));
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      ANDROID_ADB_SERVER_PORT: String(port),
      // Keep this server off the machine-global emulator ports 5555-5585 (the developer's emulator,
      // other tests' emulators): ADB_EMU=0 skips adb's scan of them; announced emulators still attach.
      ...NO_EMULATOR_SCAN,
    };
    const started = await run(ADB_BINARY, ['-P', String(port), 'start-server'], env, { timeoutMs: 30_000 });
    if (started.code === 0) {
      const adb = (args: string[], options?: AdbRunOptions): Promise<AdbResult> =>
        run(ADB_BINARY, ['-P', String(port), ...args], env, options);
      let stopped = false;
      return {
        port,
        home,
        env,
        adb,
        async stop() {
          if (stopped) {
            return;
          }
          stopped = true;
          await adb(['kill-server'], { timeoutMs: 15_000 }).catch(() => undefined);
          await rm(home, { recursive: true, force: true });
        },
      };
    }
    lastError = started.stderr;
  }
  await rm(home, { recursive: true, force: true });
  throw new Error(`could not start a private adb server: ${lastError}`);
}
