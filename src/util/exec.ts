import { spawn } from 'node:child_process';

export interface RunResult {
  /** Exit code, or null when the process was killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Set when the process could not be started at all (ENOENT, EACCES). */
  spawnError?: string;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Output kept per stream; the rest is dropped (default 1 MiB). */
  maxOutputBytes?: number;
  input?: string | Uint8Array;
}

/**
 * Runs a program with an argument vector — never a shell string — and collects its output.
 * Resolves in every case (timeouts and spawn failures included), so probes can report rather than throw.
 */
export function runProcess(
  file: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<RunResult> {
  const limit = options.maxOutputBytes ?? 1024 * 1024;
  return new Promise((resolve) => {
    let timedOut = false;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
          }, options.timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (outBytes < limit) {
        out.push(chunk);
        outBytes += chunk.length;
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      if (errBytes < limit) {
        err.push(chunk);
        errBytes += chunk.length;
      }
    });
    if (options.input !== undefined && child.stdin) {
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.input);
    }
    let spawnError: string | undefined;
    child.on('error', (e) => {
      spawnError = e.message;
    });
    child.on('close', (code, signal) => {
      if (timer) {
        clearTimeout(timer);
      }
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8').slice(0, limit),
        stderr: Buffer.concat(err).toString('utf8').slice(0, limit),
        timedOut,
        ...(spawnError !== undefined ? { spawnError } : {}),
      });
    });
  });
}
