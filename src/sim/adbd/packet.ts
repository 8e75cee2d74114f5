/**
 * The adb transport's message framing: a 24-byte little-endian header (command, arg0, arg1, payload
 * length, payload checksum, magic = command ^ 0xffffffff) followed by the payload.
 *
 * Evidence: packages/modules/adb/protocol.txt (the 24-byte header, the checksum, magic) and adb.h (the
 * command words).
 */

/** Command words, as the ASCII of their names read little-endian. */
export const A_SYNC = 0x434e5953;
export const A_CNXN = 0x4e584e43;
export const A_AUTH = 0x48545541;
export const A_OPEN = 0x4e45504f;
export const A_OKAY = 0x59414b4f;
export const A_CLSE = 0x45534c43;
export const A_WRTE = 0x45545257;
export const A_STLS = 0x534c5453;

/** The protocol version that lets both sides skip the payload checksum. */
export const A_VERSION = 0x01000001;

/** AUTH arg0 values. */
export const AUTH_TOKEN = 1;
export const AUTH_SIGNATURE = 2;
export const AUTH_RSAPUBLICKEY = 3;

export const HEADER_SIZE = 24;
/** The largest payload this side ever accepts; adb servers since 2016 offer 1 MiB. */
export const MAX_PAYLOAD = 1024 * 1024;

/** One decoded transport message. */
export interface AdbPacket {
  command: number;
  arg0: number;
  arg1: number;
  payload: Buffer;
}

const EMPTY = Buffer.alloc(0);

/** Encodes a header (the payload is written separately so big payloads are not copied). */
export function encodeHeader(command: number, arg0: number, arg1: number, payloadLength: number): Buffer {
  const header = Buffer.allocUnsafe(HEADER_SIZE);
  header.writeUInt32LE(command >>> 0, 0);
  header.writeUInt32LE(arg0 >>> 0, 4);
  header.writeUInt32LE(arg1 >>> 0, 8);
  header.writeUInt32LE(payloadLength, 12);
  // The checksum is ignored by peers that negotiated A_VERSION (every adb since 2016).
  header.writeUInt32LE(0, 16);
  header.writeUInt32LE((command ^ 0xffffffff) >>> 0, 20);
  return header;
}

/** A readable name for a command word, for logs. */
export function commandName(command: number): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(command >>> 0, 0);
  return /^[A-Z]{4}$/.test(bytes.toString('latin1')) ? bytes.toString('latin1') : `0x${command.toString(16)}`;
}

/**
 * Splits a TCP byte stream into packets. Chunks are kept as a list so a 1 MiB payload arriving in
 * 64 KiB reads is assembled once, not re-concatenated on every read.
 */
export class PacketDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private header: { command: number; arg0: number; arg1: number; length: number } | undefined;

  constructor(private readonly maxPayload: number = MAX_PAYLOAD) {}

  /** Feeds bytes; returns every packet completed by them. Throws on a corrupt header. */
  push(chunk: Buffer): AdbPacket[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const packets: AdbPacket[] = [];
    for (;;) {
      if (!this.header) {
        if (this.buffered < HEADER_SIZE) {
          break;
        }
        const raw = this.take(HEADER_SIZE);
        const command = raw.readUInt32LE(0);
        const length = raw.readUInt32LE(12);
        const magic = raw.readUInt32LE(20);
        if (magic !== (command ^ 0xffffffff) >>> 0) {
          throw new Error(`bad packet magic for ${commandName(command)}`);
        }
        if (length > this.maxPayload) {
          throw new Error(`${commandName(command)} payload of ${length} bytes exceeds ${this.maxPayload}`);
        }
        this.header = { command, arg0: raw.readUInt32LE(4), arg1: raw.readUInt32LE(8), length };
      }
      if (this.buffered < this.header.length) {
        break;
      }
      const { command, arg0, arg1, length } = this.header;
      this.header = undefined;
      packets.push({ command, arg0, arg1, payload: length === 0 ? EMPTY : this.take(length) });
    }
    return packets;
  }

  private take(n: number): Buffer {
    const first = this.chunks[0];
    if (first && first.length >= n) {
      // The common case: no copy.
      const out = first.subarray(0, n);
      if (first.length === n) {
        this.chunks.shift();
      } else {
        this.chunks[0] = first.subarray(n);
      }
      this.buffered -= n;
      return out;
    }
    const out = Buffer.allocUnsafe(n);
    let filled = 0;
    while (filled < n) {
      const head = this.chunks[0]!;
      const used = Math.min(head.length, n - filled);
      head.copy(out, filled, 0, used);
      filled += used;
      if (used === head.length) {
        this.chunks.shift();
      } else {
        this.chunks[0] = head.subarray(used);
      }
    }
    this.buffered -= n;
    return out;
  }
}
