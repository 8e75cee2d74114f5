/** adb's shell protocol v2 (shell_protocol.h): 1-byte id, 4-byte little-endian length, data. */
export const SHELL_V2 = { stdin: 0, stdout: 1, stderr: 2, exit: 3, closeStdin: 4, windowSize: 5 } as const;

export interface ShellV2Result {
  stdout: Buffer;
  stderr: Buffer;
  /** null when the stream ended without an exit packet (the connection broke). */
  exitCode: number | null;
}

/** Decodes a whole shell v2 stream. A truncated last packet is ignored. */
export function decodeShellV2(data: Buffer): ShellV2Result {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let exitCode: number | null = null;
  let at = 0;
  while (at + 5 <= data.length) {
    const id = data[at]!;
    const len = data.readUInt32LE(at + 1);
    const start = at + 5;
    const end = start + len;
    if (end > data.length) {
      break;
    }
    if (id === SHELL_V2.stdout) {
      out.push(data.subarray(start, end));
    } else if (id === SHELL_V2.stderr) {
      err.push(data.subarray(start, end));
    } else if (id === SHELL_V2.exit && len >= 1) {
      exitCode = data[start]!;
    }
    at = end;
  }
  return {
    stdout: out.length === 1 ? out[0]! : Buffer.concat(out),
    stderr: err.length === 1 ? err[0]! : Buffer.concat(err),
    exitCode,
  };
}

/** Encodes one packet (the client sends stdin and close-stdin). */
export function encodeShellV2(id: number, data: Uint8Array = new Uint8Array(0)): Buffer {
  const header = Buffer.alloc(5);
  header[0] = id;
  header.writeUInt32LE(data.length, 1);
  return Buffer.concat([header, data]);
}

/** Splits a live shell v2 stream into packets as chunks arrive. */
export class ShellV2Decoder {
  private pending: Buffer = Buffer.alloc(0);

  /** Feeds a chunk; returns the complete packets it finished. */
  push(chunk: Buffer): { id: number; data: Buffer }[] {
    const data = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const packets: { id: number; data: Buffer }[] = [];
    let at = 0;
    while (at + 5 <= data.length) {
      const len = data.readUInt32LE(at + 1);
      if (at + 5 + len > data.length) {
        break;
      }
      packets.push({ id: data[at]!, data: data.subarray(at + 5, at + 5 + len) });
      at += 5 + len;
    }
    this.pending = at === data.length ? Buffer.alloc(0) : Buffer.from(data.subarray(at));
    return packets;
  }
}
