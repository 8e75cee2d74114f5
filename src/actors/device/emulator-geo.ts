/**
 * `set_emulator_location`: the emulator console's `geo fix LONGITUDE LATITUDE [ALTITUDE]` (longitude
 * first), sent the way `adb emu` sends it: to 127.0.0.1 on the console port that the serial
 * `emulator-N` names, after `auth <token>` with the token from `~/.emulator_console_auth_token`
 * when that file exists.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { homedir } from 'node:os';
import path from 'node:path';
import { BusError } from '../../bus/errors.js';

const CONSOLE_TIMEOUT_MS = 10_000;

/** The console port of an emulator serial, or null for any other device. */
export function emulatorConsolePort(serial: string): number | null {
  const m = /^emulator-(\d{2,5})$/.exec(serial);
  const port = m ? Number(m[1]) : NaN;
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
}

/** A coordinate as the console reads it: plain decimal, never exponent notation. */
export function consoleNumber(n: number): string {
  const fixed = n.toFixed(7).replace(/0+$/, '').replace(/\.$/, '');
  return fixed === '-0' ? '0' : fixed;
}

/** The `geo fix` line: longitude, latitude, then the altitude when given. */
export function geoFixCommand(latitude: number, longitude: number, altitude?: number): string {
  const parts = ['geo', 'fix', consoleNumber(longitude), consoleNumber(latitude)];
  if (altitude !== undefined) {
    parts.push(consoleNumber(altitude));
  }
  return parts.join(' ');
}

function authToken(): string | null {
  try {
    const token = readFileSync(path.join(homedir(), '.emulator_console_auth_token'), 'utf8').trim();
    return token === '' ? null : token;
  } catch {
    return null;
  }
}

/** Reads console lines; `next()` resolves with the next `OK`/`KO…` verdict and the lines before it. */
class ConsoleReader {
  private buffer = '';
  private lines: string[] = [];
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
      this.waiter?.();
    });
    const fail = (err: Error): void => {
      this.failure ??= err;
      this.waiter?.();
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the emulator console closed the connection')));
  }

  async verdict(): Promise<{ ok: boolean; line: string; before: string[] }> {
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

/** Sends `geo fix` to the emulator behind `serial`; refuses any serial that is not `emulator-N`. */
export async function setEmulatorLocation(
  serial: string,
  latitude: number,
  longitude: number,
  altitude: number | undefined,
  signal: AbortSignal,
): Promise<{ console_port: number; command: string }> {
  const port = emulatorConsolePort(serial);
  if (port === null) {
    throw new BusError(
      'INVALID',
      `${serial} is not an emulator (emulator serials are emulator-N); a real device's location cannot be set over adb`,
    );
  }
  const command = geoFixCommand(latitude, longitude, altitude);
  const socket = connect({ host: '127.0.0.1', port });
  const timer = setTimeout(
    () => socket.destroy(new Error('the emulator console did not answer in time')),
    CONSOLE_TIMEOUT_MS,
  );
  const onAbort = (): void => {
    socket.destroy(new Error('cancelled'));
  };
  signal.addEventListener('abort', onAbort, { once: true });
  const reader = new ConsoleReader(socket);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    }).catch((err: unknown) => {
      throw new BusError(
        'FAILED',
        `cannot reach the console of ${serial} on 127.0.0.1:${port}: ${err instanceof Error ? err.message : String(err)}. Is the emulator running on this machine?`,
      );
    });
    const greeting = await reader.verdict();
    if (greeting.before.some((l) => /Authentication required/i.test(l))) {
      const token = authToken();
      if (token === null) {
        throw new BusError(
          'FAILED',
          `the console of ${serial} asks for a token, but ~/.emulator_console_auth_token is missing or empty`,
        );
      }
      socket.write(`auth ${token}\r\n`);
      const auth = await reader.verdict();
      if (!auth.ok) {
        throw new BusError('FAILED', `the console of ${serial} refused the token: ${auth.line}`);
      }
    }
    socket.write(`${command}\r\n`);
    const answer = await reader.verdict();
    if (!answer.ok) {
      throw new BusError('FAILED', `the console of ${serial} refused \`${command}\`: ${answer.line}`);
    }
    socket.end('quit\r\n');
    return { console_port: port, command };
  } catch (err) {
    if (err instanceof BusError) {
      throw err;
    }
    if (signal.aborted) {
      throw new BusError('CANCELLED', 'cancelled');
    }
    throw new BusError(
      'FAILED',
      `the console of ${serial}: ${err instanceof Error ? err.message : String(err)}`,
    );
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    socket.destroy();
  }
}
