/**
 * Gradle as a child process: the project's wrapper run with an argument vector (never a shell
 * string), its stdout and stderr split into lines as they arrive, and a stop that reaches the whole
 * process tree. On POSIX the wrapper runs in its own process group (detached), so a stop signals
 * the group: the wrapper's shell, the Gradle client JVM and anything they started. Gradle's client
 * cancels its build on SIGINT; SIGTERM and then SIGKILL follow when it does not exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { logger } from '../../util/log.js';

const log = logger('gradle-process');

/** Grace between the stop signals. */
const STOP_STEP_MS = 3_000;
/** A partial line longer than this is delivered without waiting for its newline. */
const MAX_PARTIAL = 64 * 1024;

export interface GradleExit {
  code: number | null;
  signal: string | null;
  /** Set when the wrapper could not be started at all. */
  spawnError?: string;
}

export interface GradleProcess {
  readonly pid: number | undefined;
  /** Settles when the process has exited and its output has been delivered. */
  readonly exited: Promise<GradleExit>;
  /** Stops the build's process tree (idempotent). */
  stop(): void;
}

export interface GradleStart {
  /** The Gradle root (the wrapper's folder); the working directory. */
  root: string;
  /** Arguments after the wrapper (`--console=plain`, the task). */
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  onLine(line: string, stream: 'stdout' | 'stderr'): void;
}

/** The wrapper's file name on this platform. */
export function wrapperName(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? 'gradlew.bat' : 'gradlew';
}

function lineReader(onLine: (line: string) => void): { push(chunk: Buffer): void; end(): void } {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  const drain = (text: string): void => {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) {
        break;
      }
      onLine(text.slice(start, nl));
      start = nl + 1;
    }
    partial = text.slice(start);
    if (partial.length > MAX_PARTIAL) {
      onLine(partial);
      partial = '';
    }
  };
  return {
    push: (chunk) => drain(partial + decoder.write(chunk)),
    end: () => {
      const rest = partial + decoder.end();
      partial = '';
      if (rest !== '') {
        onLine(rest);
      }
    },
  };
}

function spawnWrapper(start: GradleStart): ChildProcess {
  const wrapper = path.join(start.root, wrapperName());
  if (process.platform === 'win32') {
    // Node will not run a .bat without a shell. The arguments are checked task names and fixed
    // options (letters, digits, : . _ -), so cmd.exe reads them back unchanged.
    const line = [`"${wrapper}"`, ...start.args].join(' ');
    return spawn(process.env['ComSpec'] ?? 'cmd.exe', ['/d', '/s', '/c', `"${line}"`], {
      cwd: start.root,
      env: start.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      windowsVerbatimArguments: true,
    });
  }
  return spawn(wrapper, [...start.args], {
    cwd: start.root,
    env: start.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    shell: false,
    detached: true,
  });
}

function signalTree(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) {
    return;
  }
  try {
    if (process.platform === 'win32') {
      spawn('taskkill', ['/pid', String(pid), '/T', ...(signal === 'SIGKILL' ? ['/F'] : [])], {
        stdio: 'ignore',
        windowsHide: true,
      }).on('error', () => undefined);
    } else {
      process.kill(-pid, signal);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') {
      log.warn('could not signal the Gradle process group', { pid, signal, error: String(err) });
    }
  }
}

/** Starts the project's Gradle wrapper. */
export function startGradle(start: GradleStart): GradleProcess {
  const child = spawnWrapper(start);
  const out = lineReader((l) => start.onLine(l, 'stdout'));
  const err = lineReader((l) => start.onLine(l, 'stderr'));
  child.stdout?.on('data', (c: Buffer) => out.push(c));
  child.stderr?.on('data', (c: Buffer) => err.push(c));
  let exitedProcess = false;
  const timers: NodeJS.Timeout[] = [];
  const exited = new Promise<GradleExit>((resolve) => {
    let spawnError: string | undefined;
    child.on('error', (e) => {
      spawnError = e.message;
    });
    child.on('exit', () => {
      exitedProcess = true;
      // A grandchild that kept the pipes open must not hold the build open.
      timers.push(
        setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
        }, 2_000),
      );
    });
    child.on('close', (code, signal) => {
      timers.forEach(clearTimeout);
      out.end();
      err.end();
      resolve({ code, signal, ...(spawnError !== undefined ? { spawnError } : {}) });
    });
  });
  let stopping = false;
  return {
    pid: child.pid,
    exited,
    stop() {
      if (stopping || child.pid === undefined) {
        return;
      }
      stopping = true;
      signalTree(child, process.platform === 'win32' ? 'SIGTERM' : 'SIGINT');
      const escalate = (signal: NodeJS.Signals, after: number): void => {
        timers.push(
          setTimeout(() => {
            if (!exitedProcess) {
              signalTree(child, signal);
            }
          }, after),
        );
      };
      escalate('SIGTERM', STOP_STEP_MS);
      escalate('SIGKILL', 2 * STOP_STEP_MS);
    },
  };
}
