/**
 * Newline-delimited JSON for the bus socket: one envelope per line, lines capped, binary payloads
 * (Uint8Array) carried as `{"$b64": "…"}` and turned back into Uint8Array on arrival.
 */

/** Encodes one value as a JSON line (with the trailing newline). */
export function encodeLine(value: unknown): string {
  return (
    JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
      // `v` is after toJSON (a Buffer becomes {type, data}); the holder still has the original.
      const raw = this[key];
      if (raw instanceof Uint8Array) {
        return { $b64: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64') };
      }
      return v;
    }) + '\n'
  );
}

/** Decodes one JSON line, reviving binary payloads. Throws on malformed JSON. */
export function decodeLine(line: string): unknown {
  return JSON.parse(line, (_key, v: unknown) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const b64 = (v as { $b64?: unknown }).$b64;
      if (typeof b64 === 'string' && Object.keys(v).length === 1) {
        return new Uint8Array(Buffer.from(b64, 'base64'));
      }
    }
    return v;
  });
}

/** Thrown when a line exceeds its cap. */
export class LineTooLongError extends Error {}

/**
 * Splits a byte stream into lines. Multi-byte characters split across chunks are kept intact
 * because lines are cut on bytes and decoded whole. A line longer than `maxBytes` throws.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;

  constructor(private maxBytes: number) {}

  /** Changes the cap (the handshake line has a smaller one than the traffic after it). */
  setMaxBytes(maxBytes: number): void {
    this.maxBytes = maxBytes;
  }

  /** Feeds a chunk; returns the complete lines it finished, without their newlines. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) {
        break;
      }
      const piece = chunk.subarray(start, nl);
      if (this.size + piece.length > this.maxBytes) {
        throw new LineTooLongError(`a line is longer than ${this.maxBytes} bytes`);
      }
      if (this.parts.length > 0) {
        this.parts.push(piece);
        lines.push(Buffer.concat(this.parts).toString('utf8'));
        this.parts = [];
        this.size = 0;
      } else {
        lines.push(piece.toString('utf8'));
      }
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.size + rest.length > this.maxBytes) {
        throw new LineTooLongError(`a line is longer than ${this.maxBytes} bytes`);
      }
      this.parts.push(Buffer.from(rest));
      this.size += rest.length;
    }
    return lines;
  }
}
