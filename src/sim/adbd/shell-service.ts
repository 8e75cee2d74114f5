import type { ShellIo, SimDevice } from '../device-api.js';
import type { AdbdStream } from './stream.js';
import type { ServiceContext } from './service-context.js';
import { nowMs } from './command-log.js';

/** Shell protocol packet ids (adb's shell_protocol.h). */
export const SHELL_STDIN = 0;
export const SHELL_STDOUT = 1;
export const SHELL_STDERR = 2;
export const SHELL_EXIT = 3;
export const SHELL_CLOSE_STDIN = 4;
export const SHELL_WINDOW_SIZE = 5;

/** The largest shell-protocol packet body we send; far below any client's buffer. */
const SHELL_PACKET_MAX = 64 * 1024;

/** How a command's bytes travel: `shell:` (v1), `shell,v2,…:` or `exec:`. */
export type ShellMode = 'v1' | 'v2' | 'exec';

function toBuffer(chunk: Uint8Array | string): Buffer {
  if (typeof chunk === 'string') {
    return Buffer.from(chunk, 'utf8');
  }
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** Frames `data` as shell-protocol packets of type `id`. */
export function shellPackets(id: number, data: Buffer): Buffer {
  if (data.length <= SHELL_PACKET_MAX) {
    const header = Buffer.allocUnsafe(5);
    header.writeUInt8(id, 0);
    header.writeUInt32LE(data.length, 1);
    return Buffer.concat([header, data]);
  }
  const parts: Buffer[] = [];
  for (let at = 0; at < data.length; at += SHELL_PACKET_MAX) {
    parts.push(shellPackets(id, data.subarray(at, at + SHELL_PACKET_MAX)));
  }
  return Buffer.concat(parts);
}

/** stdin for shell v2: the bodies of stdin packets, ending at close-stdin or when the stream ends. */
async function* shellV2Stdin(stream: AdbdStream): AsyncGenerator<Uint8Array> {
  for (;;) {
    const header = await stream.inbox.readExact(5);
    if (!header) {
      return;
    }
    const id = header.readUInt8(0);
    const body = await stream.inbox.readExact(header.readUInt32LE(1));
    if (!body) {
      return;
    }
    if (id === SHELL_STDIN && body.length > 0) {
      yield body;
    } else if (id === SHELL_CLOSE_STDIN) {
      return;
    }
    // Window-size changes (5) and anything unknown are ignored, as adbd does without a pty.
  }
}

/** stdin for `shell:` and `exec:`: the raw WRTE payloads until the client closes the stream. */
async function* rawStdin(stream: AdbdStream): AsyncGenerator<Uint8Array> {
  for (;;) {
    const chunk = await stream.inbox.next();
    if (!chunk) {
      return;
    }
    yield chunk;
  }
}

/**
 * Runs one command line on the device for a shell or exec stream, then closes the stream (after the
 * exit packet under shell v2, which is what tells the client the exit code).
 */
export async function runShellService(
  ctx: ServiceContext,
  stream: AdbdStream,
  commandLine: string,
  mode: ShellMode,
): Promise<void> {
  const device: SimDevice = ctx.device;
  const t0 = nowMs();
  let outBytes = 0;
  const out =
    (id: number) =>
    (chunk: Uint8Array | string): Promise<void> => {
      const data = toBuffer(chunk);
      outBytes += data.length;
      return stream.write(mode === 'v2' ? shellPackets(id, data) : data);
    };
  const io: ShellIo = {
    stdout: out(SHELL_STDOUT),
    // Without the shell protocol there is one byte stream: stderr joins stdout, as through adbd's pty.
    stderr: out(SHELL_STDERR),
    stdin: mode === 'v2' ? shellV2Stdin(stream) : rawStdin(stream),
    signal: stream.abort.signal,
  };
  let code: number;
  try {
    code = await device.run(commandLine, io);
  } catch (err) {
    ctx.log.warn('device command failed', {
      serial: device.identity.serial,
      cmd: commandLine,
      err: String(err),
    });
    await io.stderr(`sim: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    code = 1;
  }
  if (mode === 'v2') {
    await stream.write(shellPackets(SHELL_EXIT, Buffer.from([code & 0xff])));
  }
  stream.end();
  ctx.commandLog?.record({
    t0,
    t1: nowMs(),
    dev: device.identity.serial,
    kind: mode === 'exec' ? 'exec' : 'shell',
    cmd: commandLine,
    code,
    out: outBytes,
  });
}
