import net from 'node:net';
import type { AdbServerAddress } from './server-address.js';
import { describeAdbServer } from './server-address.js';
import { AdbError, adbFailure } from './errors.js';

/**
 * The error an aborted command ends with: the abort's own reason when the caller gave one (a
 * device that went away, a deadline), else a plain cancellation.
 */
function abortError(signal: AbortSignal | undefined, message: string): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error && !(reason.name === 'AbortError')
    ? reason
    : new AdbError('cancelled', message);
}

/** Frames one smart-socket request: 4 hex digits of length, then the payload. */
export function frameRequest(payload: string): Buffer {
  const body = Buffer.from(payload, 'utf8');
  if (body.length > 0xffff) {
    throw new AdbError('too_large', `an adb request is limited to 65535 bytes (this one has ${body.length})`);
  }
  return Buffer.concat([Buffer.from(body.length.toString(16).padStart(4, '0'), 'latin1'), body]);
}

export interface ServiceOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Payload kept at most; more fails the call with too_large (default 64 MiB). */
  maxBytes?: number;
  /** Bytes written to the service after it is open (e.g. an APK for `exec:cmd package install`). */
  input?: Uint8Array | AsyncIterable<Uint8Array>;
}

function connectTo(address: AdbServerAddress): net.Socket {
  const socket =
    address.kind === 'tcp'
      ? net.createConnection(address.port, address.host)
      : net.createConnection(address.path);
  socket.setNoDelay(true);
  return socket;
}

/**
 * Opens a service on the adb server: `host:…` services when `serial` is null, else the device's
 * (through `host:transport:SERIAL` first). The service request goes only after the transport's
 * OKAY: the server drops bytes that arrive with the transport request.
 * Resolves with the socket positioned at the service's payload, and any payload bytes that came
 * with the status words.
 */
export function openService(
  address: AdbServerAddress,
  serial: string | null,
  service: string,
  options: Pick<ServiceOptions, 'signal' | 'timeoutMs'> = {},
): Promise<{ socket: net.Socket; head: Buffer }> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new AdbError('cancelled', 'cancelled before it started'));
      return;
    }
    const socket = connectTo(address);
    let statuses = serial === null ? 1 : 2;
    let buffered: Buffer = Buffer.alloc(0);
    let done = false;
    const finish = (err: Error | null, head?: Buffer): void => {
      if (done) {
        return;
      }
      done = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
      if (err) {
        socket.destroy();
        reject(err);
      } else {
        resolve({ socket, head: head ?? Buffer.alloc(0) });
      }
    };
    const onAbort = (): void => finish(abortError(options.signal, `${service.split(':')[0]} was cancelled`));
    const onError = (err: NodeJS.ErrnoException): void =>
      finish(
        err.code === 'ECONNREFUSED' || err.code === 'ENOENT'
          ? new AdbError('server_unreachable', `no adb server answers at ${describeAdbServer(address)}`)
          : new AdbError('failed', `the connection to the adb server failed: ${err.message}`),
      );
    const onClose = (): void =>
      finish(
        new AdbError('failed', `the adb server closed the connection while opening ${service.split(':')[0]}`),
      );
    const onData = (chunk: Buffer): void => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      while (statuses > 0) {
        if (buffered.length < 4) {
          return;
        }
        const word = buffered.toString('latin1', 0, 4);
        if (word === 'OKAY') {
          buffered = buffered.subarray(4);
          statuses--;
          if (statuses === 1 && serial !== null) {
            socket.write(frameRequest(service));
          }
          continue;
        }
        if (word === 'FAIL') {
          if (buffered.length < 8) {
            return;
          }
          const len = parseInt(buffered.toString('latin1', 4, 8), 16);
          if (buffered.length < 8 + len) {
            return;
          }
          finish(adbFailure(buffered.toString('utf8', 8, 8 + len), serial));
          return;
        }
        finish(new AdbError('failed', `the adb server answered '${word}' (expected OKAY or FAIL)`));
        return;
      }
      finish(null, buffered);
    };
    const timer = setTimeout(
      () =>
        finish(
          new AdbError(
            'timeout',
            `the adb server did not open ${service.split(':')[0]} within ${options.timeoutMs} ms`,
          ),
        ),
      options.timeoutMs ?? 10_000,
    );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('close', onClose);
    const requests =
      serial === null
        ? [frameRequest(service)]
        : [frameRequest(`host:transport:${serial}`), frameRequest(service)];
    socket.write(Buffer.concat(requests));
  });
}

/**
 * Runs a service to its end and returns its whole payload (bounded). The socket is always closed,
 * also on cancel and timeout, which makes the device stop the command.
 */
export async function runService(
  address: AdbServerAddress,
  serial: string | null,
  service: string,
  options: ServiceOptions = {},
): Promise<Buffer> {
  const started = Date.now();
  const { socket, head } = await openService(address, serial, service, options);
  const limit = options.maxBytes ?? 64 * 1024 * 1024;
  const remaining =
    options.timeoutMs === undefined ? undefined : Math.max(1, options.timeoutMs - (Date.now() - started));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = head.length > 0 ? [head] : [];
    let size = head.length;
    let done = false;
    const finish = (err: Error | null): void => {
      if (done) {
        return;
      }
      done = true;
      if (timer) {
        clearTimeout(timer);
      }
      options.signal?.removeEventListener('abort', onAbort);
      if (err) {
        socket.destroy();
        reject(err);
      } else {
        socket.destroy();
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      }
    };
    const onAbort = (): void => finish(abortError(options.signal, `${service.split(':')[0]} was cancelled`));
    const timer =
      remaining === undefined
        ? undefined
        : setTimeout(
            () => finish(new AdbError('timeout', `the device did not finish within ${options.timeoutMs} ms`)),
            remaining,
          );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        finish(new AdbError('too_large', `the device sent more than ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    socket.on('error', (err) =>
      finish(new AdbError('failed', `the connection to the device failed: ${err.message}`)),
    );
    socket.on('close', () => finish(null));
    if (options.input !== undefined) {
      void writeInput(socket, options.input).catch((err: unknown) => finish(err as Error));
    }
  });
}

async function writeInput(socket: net.Socket, input: Uint8Array | AsyncIterable<Uint8Array>): Promise<void> {
  const write = (chunk: Uint8Array): Promise<void> =>
    new Promise((resolve, reject) => {
      if (socket.write(chunk)) {
        resolve();
        return;
      }
      const onDrain = (): void => {
        socket.off('close', onClose);
        resolve();
      };
      const onClose = (): void => {
        socket.off('drain', onDrain);
        reject(new AdbError('failed', 'the device closed the stream while data was being sent'));
      };
      socket.once('drain', onDrain);
      socket.once('close', onClose);
    });
  if (input instanceof Uint8Array) {
    await write(input);
  } else {
    for await (const chunk of input) {
      await write(chunk);
    }
  }
}

/**
 * Opens a long-running service (logcat) and yields its payload chunks as they arrive, until the
 * device closes it or `signal` aborts (which closes the socket, so the device stops the command).
 */
export async function* streamService(
  address: AdbServerAddress,
  serial: string,
  service: string,
  signal: AbortSignal,
): AsyncGenerator<Buffer> {
  const { socket, head } = await openService(address, serial, service, { signal });
  const onAbort = (): void => {
    socket.destroy();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    if (head.length > 0) {
      yield head;
    }
    try {
      for await (const chunk of socket) {
        yield chunk as Buffer;
      }
    } catch (err) {
      // Destroying the socket on abort ends the iteration with "Premature close": that is the stop we asked for.
      if (!signal.aborted) {
        throw new AdbError('failed', `the stream from the device broke: ${(err as Error).message}`);
      }
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    socket.destroy();
  }
}
