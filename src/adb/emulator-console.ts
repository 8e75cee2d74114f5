/**
 * The emulator's console, reached the way `adb emu` reaches it: TCP to 127.0.0.1 on the console port
 * an `emulator-N` serial names, the greeting, `auth <token>` with `~/.emulator_console_auth_token`
 * when the console asks for it, then one command line per request, each answered by the lines before
 * an `OK` (or `OK: …`) or a `KO: …` line.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { homedir } from 'node:os';
import path from 'node:path';

const DEFAULT_TIMEOUT_MS = 10_000;

/** Why a console conversation failed. */
export class EmulatorConsoleError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'auth' | 'timeout' | 'cancelled' | 'closed',
    message: string,
  ) {
    super(message);
    this.name = 'EmulatorConsoleError';
  }
}

/** One answer: `ok` is false for `KO…`; `before` holds the lines printed ahead of the verdict. */
export interface ConsoleVerdict {
  ok: boolean;
  line: string;
  before: string[];
}

function authToken(): string | null {
  try {
    const token = readFileSync(path.join(homedir(), '.emulator_console_auth_token'), 'utf8').trim();
    return token === '' ? null : token;
  } catch {
    return null;
  }
}

/** Reads console lines; `verdict()` resolves with the next `OK`/`KO…` line and the lines before it. */
class ConsoleReader {
  private buffer = '';
  private readonly lines: string[] = [];
  private waiter: (() => void) | null = null;
  private failure: Error | null = null;

  constructor(socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        this.lines.push(this.buffer.slice(0, nl).replace(/\r$/, ''));
        this.buffer = this.buffer.slice(nl + 1);
      }
      // A console that floods without a verdict is cut off rather than buffered without bound.
      if (this.lines.length > 10_000 || this.buffer.length > 1_000_000) {
        socket.destroy(new EmulatorConsoleError('closed', 'the emulator console sent too much output'));
      }
      this.waiter?.();
    });
    const fail = (err: Error): void => {
      this.failure ??= err;
      this.waiter?.();
    };
    socket.on('error', fail);
    socket.on('close', () =>
      fail(new EmulatorConsoleError('closed', 'the emulator console closed the connection')),
    );
  }

  async verdict(): Promise<ConsoleVerdict> {
    const before: string[] = [];
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) {
        if (line === 'OK' || line.startsWith('OK:')) {
          return { ok: true, line, before };
        }
        if (line.startsWith('KO')) {
          return { ok: false, line, before };
        }
        before.push(line);
        continue;
      }
      if (this.failure) {
        throw this.failure;
      }
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
      this.waiter = null;
    }
  }
}

/** An open, authenticated console: send a line, get its verdict. */
export interface ConsoleSession {
  send(line: string): Promise<ConsoleVerdict>;
}

/**
 * Opens the console on 127.0.0.1:`port`, authenticates when asked, runs `talk`, then says `quit`.
 * The whole conversation gets `timeoutMs`; `signal` cuts it short. Failures throw EmulatorConsoleError.
 */
export async function withEmulatorConsole<T>(
  port: number,
  talk: (session: ConsoleSession) => Promise<T>,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<T> {
  const where = `127.0.0.1:${port}`;
  const socket = connect({ host: '127.0.0.1', port });
  const timer = setTimeout(
    () =>
      socket.destroy(
        new EmulatorConsoleError('timeout', `the emulator console on ${where} did not answer in time`),
      ),
    options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  );
  const onAbort = (): void => {
    socket.destroy(new EmulatorConsoleError('cancelled', 'cancelled'));
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const reader = new ConsoleReader(socket);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    }).catch((err: unknown) => {
      if (err instanceof EmulatorConsoleError) {
        throw err;
      }
      throw new EmulatorConsoleError(
        'unreachable',
        `cannot reach the emulator console on ${where}: ${err instanceof Error ? err.message : String(err)}`,
      );
    });
    const greeting = await reader.verdict();
    if (greeting.before.some((l) => /Authentication required/i.test(l))) {
      const token = authToken();
      if (token === null) {
        throw new EmulatorConsoleError(
          'auth',
          `the emulator console on ${where} asks for a token, but ~/.emulator_console_auth_token is missing or empty`,
        );
      }
      socket.write(`auth ${token}\r\n`);
      const auth = await reader.verdict();
      if (!auth.ok) {
        throw new EmulatorConsoleError(
          'auth',
          `the emulator console on ${where} refused the token: ${auth.line}`,
        );
      }
    }
    const result = await talk({
      send: (line: string) => {
        if (/[\r\n]/.test(line)) {
          throw new EmulatorConsoleError('closed', 'a console command is one line');
        }
        socket.write(`${line}\r\n`);
        return reader.verdict();
      },
    });
    if (!socket.destroyed) {
      socket.end('quit\r\n');
    }
    return result;
  } catch (err) {
    if (options.signal?.aborted) {
      throw new EmulatorConsoleError('cancelled', 'cancelled');
    }
    throw err;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    socket.destroy();
  }
}

/** Asks the emulator on console `port` for its AVD name (`avd name`); null when it cannot say. */
export async function emulatorAvdName(
  port: number,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<string | null> {
  return withEmulatorConsole(
    port,
    async (session) => {
      const answer = await session.send('avd name');
      const name = answer.before.map((l) => l.trim()).find((l) => l !== '');
      return answer.ok && name !== undefined ? name : null;
    },
    options,
  );
}
