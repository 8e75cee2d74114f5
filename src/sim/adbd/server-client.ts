/**
 * Evidence: packages/modules/adb/OVERVIEW.TXT and SERVICES.TXT (smart-socket requests: a 4-hex-digit
 * length, OKAY/FAIL, length-prefixed replies).
 */
import { connect } from 'node:net';

/** What a host request gives back: nothing, the OKAY status alone, or OKAY and a length-prefixed string. */
type ReplyKind = 'none' | 'status' | 'string';

/** An error answered by the adb server (FAIL) or met on the way (refused, timeout). */
export class AdbServerError extends Error {
  constructor(
    message: string,
    readonly code: 'FAIL' | 'UNREACHABLE' | 'TIMEOUT' | 'PROTOCOL',
  ) {
    super(message);
  }
}

/**
 * Sends one smart-socket request (`host:…`) to the adb server on 127.0.0.1:port: a 4-hex-digit
 * length, the request, then OKAY/FAIL and (for most host requests) a length-prefixed reply.
 */
export function hostRequest(
  port: number,
  request: string,
  reply: ReplyKind,
  timeoutMs = 10_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let data = Buffer.alloc(0);
    let settled = false;
    const finish = (err: Error | undefined, value = ''): void => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) {
        reject(err);
      } else {
        resolve(value);
      }
    };
    const timer = setTimeout(
      () => finish(new AdbServerError(`adb server on port ${port} did not answer ${request}`, 'TIMEOUT')),
      timeoutMs,
    );
    const parse = (ended: boolean): void => {
      if (reply === 'none') {
        if (ended) {
          finish(undefined);
        }
        return;
      }
      if (data.length < 4) {
        if (ended) {
          finish(new AdbServerError(`adb server closed before answering ${request}`, 'PROTOCOL'));
        }
        return;
      }
      const status = data.subarray(0, 4).toString('latin1');
      if (status === 'OKAY' && reply === 'status') {
        finish(undefined);
        return;
      }
      if (status !== 'OKAY' && status !== 'FAIL') {
        finish(new AdbServerError(`unexpected adb server reply ${JSON.stringify(status)}`, 'PROTOCOL'));
        return;
      }
      if (data.length < 8) {
        if (ended) {
          finish(status === 'FAIL' ? new AdbServerError('adb server failed', 'FAIL') : undefined);
        }
        return;
      }
      const length = Number.parseInt(data.subarray(4, 8).toString('latin1'), 16);
      if (data.length < 8 + length) {
        if (ended) {
          finish(new AdbServerError(`truncated adb server reply to ${request}`, 'PROTOCOL'));
        }
        return;
      }
      const text = data.subarray(8, 8 + length).toString('utf8');
      finish(status === 'FAIL' ? new AdbServerError(text, 'FAIL') : undefined, text);
    };
    socket.on('connect', () => {
      const body = Buffer.from(request, 'utf8');
      socket.write(body.length.toString(16).padStart(4, '0'));
      socket.write(body);
      if (reply === 'none') {
        socket.end();
      }
    });
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      parse(false);
    });
    socket.on('end', () => parse(true));
    socket.on('close', () => parse(true));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      finish(
        new AdbServerError(
          `cannot reach the adb server on port ${port}: ${err.code ?? err.message}`,
          err.code === 'ECONNREFUSED' ? 'UNREACHABLE' : 'PROTOCOL',
        ),
      ),
    );
  });
}

/** One line of `host:devices`. */
export interface ListedDevice {
  serial: string;
  state: string;
}

/** The devices the server lists, with their states (`device`, `offline`, `unauthorized`, …). */
export async function listDevices(port: number): Promise<ListedDevice[]> {
  const text = await hostRequest(port, 'host:devices', 'string');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [serial = '', state = ''] = line.split('\t');
      return { serial, state };
    });
}

/**
 * `adb connect 127.0.0.1:PORT`, done by the device itself. Resolves to the server's message. A
 * device that never accepts the key is "failed to authenticate" yet stays listed as `unauthorized`,
 * so `unauthorizedOk` accepts that answer.
 */
export async function connectDevice(port: number, target: string, unauthorizedOk = false): Promise<string> {
  const message = await hostRequest(port, `host:connect:${target}`, 'string', 30_000);
  const accepted =
    /^(already )?connected to /.test(message) ||
    (unauthorizedOk && message.startsWith('failed to authenticate'));
  if (!accepted) {
    throw new AdbServerError(message, 'FAIL');
  }
  return message;
}

/** `adb disconnect 127.0.0.1:PORT`. */
export function disconnectDevice(port: number, target: string): Promise<string> {
  return hostRequest(port, `host:disconnect:${target}`, 'string');
}

/** Tells the server an emulator now listens on adbPort (its console on adbPort - 1), as emulators do at boot. */
export async function announceEmulator(port: number, adbPort: number): Promise<void> {
  await hostRequest(port, `host:emulator:${adbPort}`, 'none', 5_000);
}
