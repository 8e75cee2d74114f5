/**
 * One `adb shell` session on a simulated device: a command line run by the shell interpreter, or —
 * with none — an interactive shell without a terminal that runs each line read from stdin until
 * `exit` or its end. The session ends when the transport aborts it or the device closes.
 *
 * Evidence: packages/modules/adb/daemon/shell_service.cpp (a command runs as `sh -c CMD`; no command
 * starts an interactive shell, which without a pty reads its commands from stdin line by line).
 */
import type { ShellIo } from '../device-api.js';
import { runShell } from '../shell/interpreter.js';
import { IterableInput, readLines, type InputStream, type OutputStream } from '../shell/streams.js';

type ShellOptions<H> = Parameters<typeof runShell<H>>[0];

/** Runs the session; `running` holds its abort controller while it runs (the device aborts them at close). */
export async function runShellSession<H>(
  opts: ShellOptions<H>,
  commandLine: string,
  io: ShellIo,
  running: Set<AbortController>,
): Promise<number> {
  const stdout: OutputStream = { write: (c) => io.stdout(c) };
  const stderr: OutputStream = { write: (c) => io.stderr(c) };
  const stdin = new IterableInput(io.stdin);
  const ctl = new AbortController();
  const onAbort = (): void => ctl.abort();
  io.signal.addEventListener('abort', onAbort, { once: true });
  if (io.signal.aborted) {
    ctl.abort();
  }
  running.add(ctl);
  try {
    if (commandLine.trim() === '') {
      return await interactive(opts, stdin, stdout, stderr, ctl.signal);
    }
    return await runShell(opts, commandLine, { stdin, stdout, stderr, signal: ctl.signal });
  } finally {
    io.signal.removeEventListener('abort', onAbort);
    running.delete(ctl);
  }
}

/** An interactive shell without a terminal: runs each line read from stdin. */
async function interactive<H>(
  opts: ShellOptions<H>,
  stdin: InputStream,
  stdout: OutputStream,
  stderr: OutputStream,
  signal: AbortSignal,
): Promise<number> {
  let status = 0;
  for await (const line of readLines(stdin)) {
    if (signal.aborted || line.trim() === 'exit') {
      break;
    }
    status = await runShell(opts, line, { stdin, stdout, stderr, signal });
  }
  return status;
}
