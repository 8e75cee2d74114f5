/**
 * Evidence: none — a harness for tests and benches that run the model without a transport.
 */
import type { ShellIo, SimDevice } from '../device-api.js';

/** What a command printed and returned. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout as bytes (for binary output such as PNGs). */
  bytes: Uint8Array;
}

/**
 * Runs a command line on a device with an in-memory ShellIo (stdin optional), collecting its
 * output. For tests and benchmarks that drive the device model without a transport.
 */
export async function runOn(
  device: SimDevice,
  line: string,
  opts: { stdin?: Uint8Array | string; signal?: AbortSignal } = {},
): Promise<CommandResult> {
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  const enc = new TextEncoder();
  const stdinBytes = typeof opts.stdin === 'string' ? enc.encode(opts.stdin) : opts.stdin;
  const io: ShellIo = {
    stdout: (c) => {
      out.push(typeof c === 'string' ? enc.encode(c) : c.slice());
      return Promise.resolve();
    },
    stderr: (c) => {
      err.push(typeof c === 'string' ? enc.encode(c) : c.slice());
      return Promise.resolve();
    },
    stdin: (async function* () {
      if (stdinBytes !== undefined && stdinBytes.length > 0) {
        yield stdinBytes;
      }
    })(),
    signal: opts.signal ?? new AbortController().signal,
  };
  const code = await device.run(line, io);
  const bytes = Buffer.concat(out);
  return {
    code,
    stdout: bytes.toString('utf8'),
    stderr: Buffer.concat(err).toString('utf8'),
    bytes: new Uint8Array(bytes),
  };
}
