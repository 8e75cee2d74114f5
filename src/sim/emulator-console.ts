/**
 * Evidence: the emulator console's protocol and auth token
 * (https://developer.android.com/studio/run/emulator-console: `auth`, `OK`, `KO:`,
 * ~/.emulator_console_auth_token); notes/adb-facts.md.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { SimDevice } from './device-api.js';

/** Where emulators and `adb emu` keep the console token: `~/.emulator_console_auth_token`. */
export function consoleTokenPath(): string {
  return join(homedir(), '.emulator_console_auth_token');
}

/**
 * Creates the token file with a random token when it does not exist, as the emulator does at boot
 * (adb then sends `auth <token>` before every `adb emu` command). Returns true when it was created.
 */
export function ensureConsoleToken(path = consoleTokenPath()): boolean {
  if (existsSync(path)) {
    return false;
  }
  writeFileSync(path, randomBytes(12).toString('base64url'), { mode: 0o600, flag: 'wx' });
  return true;
}

/** The token the console demands now, or undefined when none is required (no file, or an empty one). */
function currentToken(path: string): string | undefined {
  try {
    const token = readFileSync(path, 'utf8').trim();
    return token === '' ? undefined : token;
  } catch {
    return undefined;
  }
}

export interface ConsoleOptions {
  device: SimDevice;
  avdName: string;
  /** Called for `kill`: the emulator goes away (its adb socket must close too). */
  onKill: () => void;
  /** The token file (default ~/.emulator_console_auth_token). */
  tokenPath?: string;
}

const CRLF = '\r\n';
const HELP_UNAUTHENTICATED = ['auth', 'help', 'quit'];
const HELP = ['avd', 'geo', 'help', 'kill', 'ping', 'quit'];

/**
 * The emulator's telnet console on port N (the adb port is N+1): the greeting, `auth`, `avd name`,
 * `geo fix`, `kill`, `ping`, `help`, `quit`. Replies end with `OK` or start with `KO:` like the
 * real console, so `adb emu` (which skips the greeting's and auth's two `OK` lines) prints the rest.
 */
export class EmulatorConsole {
  private options: ConsoleOptions | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {
    server.on('connection', (socket) => this.accept(socket));
  }

  /** Listens on 127.0.0.1:port. Rejects with EADDRINUSE when taken. */
  static listen(port: number): Promise<EmulatorConsole> {
    return new Promise((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen({ host: '127.0.0.1', port, exclusive: true }, () => {
        server.off('error', reject);
        resolve(new EmulatorConsole(server, port));
      });
    });
  }

  attach(options: ConsoleOptions): void {
    this.options = options;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) {
      if (socket.writableEnded) {
        // A session that is saying goodbye (`kill`) gets a moment to deliver it.
        setTimeout(() => socket.destroy(), 1_000).unref();
      } else {
        socket.destroy();
      }
    }
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    const options = this.options;
    if (!options) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const tokenPath = options.tokenPath ?? consoleTokenPath();
    let authenticated = currentToken(tokenPath) === undefined;
    if (authenticated) {
      socket.write(`Android Console: type 'help' for a list of commands${CRLF}OK${CRLF}`);
    } else {
      socket.write(
        `Android Console: Authentication required${CRLF}` +
          `Android Console: type 'auth <auth_token>' to authenticate${CRLF}` +
          `Android Console: you can find your <auth_token> in ${CRLF}` +
          `'${tokenPath}'${CRLF}OK${CRLF}`,
      );
    }
    let pending = '';
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      pending += text;
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0 && !socket.destroyed) {
        const line = pending.slice(0, newline).replace(/\r$/, '').trim();
        pending = pending.slice(newline + 1);
        if (line !== '') {
          authenticated = this.command(socket, options, line, authenticated, tokenPath);
        }
      }
    });
  }

  /** Runs one console line; returns whether the session is authenticated afterwards. */
  private command(
    socket: Socket,
    options: ConsoleOptions,
    line: string,
    authenticated: boolean,
    tokenPath: string,
  ): boolean {
    const words = line.split(/\s+/);
    const [verb = '', sub] = words;
    if (verb === 'quit' || verb === 'exit') {
      socket.end();
      return authenticated;
    }
    if (verb === 'auth') {
      const expected = currentToken(tokenPath);
      const given = line.slice('auth'.length).trim();
      if (expected === undefined || given === expected) {
        socket.write(`Android Console: type 'help' for a list of commands${CRLF}OK${CRLF}`);
        return true;
      }
      socket.write(`KO: authentication token does not match ${tokenPath}${CRLF}`);
      return authenticated;
    }
    if (verb === 'help') {
      const names = authenticated ? HELP : HELP_UNAUTHENTICATED;
      socket.write(
        `Android console commands:${CRLF}${CRLF}${names.map((n) => `    ${n}${CRLF}`).join('')}${CRLF}OK${CRLF}`,
      );
      return authenticated;
    }
    if (!authenticated) {
      socket.write(`KO: unknown command, try 'help'${CRLF}`);
      return authenticated;
    }
    switch (verb) {
      case 'ping':
        socket.write(`I am alive!${CRLF}OK${CRLF}`);
        break;
      case 'avd':
        if (sub === 'name') {
          socket.write(`${options.avdName}${CRLF}OK${CRLF}`);
        } else if (sub === 'status') {
          socket.write(`virtual device is running${CRLF}OK${CRLF}`);
        } else {
          socket.write(`KO: bad sub-command${CRLF}`);
        }
        break;
      case 'geo':
        this.geo(socket, options, words.slice(1));
        break;
      case 'kill':
        socket.write(`OK: killing emulator, bye bye${CRLF}`);
        socket.end();
        options.onKill();
        break;
      default:
        socket.write(`KO: unknown command, try 'help'${CRLF}`);
    }
    return authenticated;
  }

  private geo(socket: Socket, options: ConsoleOptions, args: string[]): void {
    if (args[0] !== 'fix') {
      socket.write(`KO: bad sub-command${CRLF}`);
      return;
    }
    const numbers = args.slice(1).map(Number);
    const [longitude, latitude, altitude] = numbers;
    if (
      longitude === undefined ||
      latitude === undefined ||
      numbers.some((n) => !Number.isFinite(n)) ||
      Math.abs(longitude) > 180 ||
      Math.abs(latitude) > 90
    ) {
      socket.write(`KO: argument '${args.slice(1).join(' ')}' is not a valid location${CRLF}`);
      return;
    }
    options.device.setLocation(longitude, latitude, altitude);
    socket.write(`OK${CRLF}`);
  }
}
