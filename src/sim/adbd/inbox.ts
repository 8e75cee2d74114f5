/**
 * Bytes a client sent on one stream (WRTE payloads), waiting for the service to read them. The
 * stream acknowledges a WRTE only while the inbox holds less than its limit, so a client that sends
 * faster than the service reads is slowed down instead of filling memory.
 *
 * Evidence: packages/modules/adb/protocol.txt: each WRTE is acknowledged with OKAY and the sender
 * waits for it before the next — the flow control this limit rides on.
 */
export class Inbox {
  private chunks: Buffer[] = [];
  private size = 0;
  private ended = false;
  private wake: (() => void) | undefined;

  /** `onTaken` runs after a read removed bytes (the stream may owe the client an OKAY). */
  constructor(private readonly onTaken: () => void) {}

  /** Bytes waiting to be read. */
  get buffered(): number {
    return this.size;
  }

  push(chunk: Buffer): void {
    if (this.ended || chunk.length === 0) {
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.notify();
  }

  /** No more bytes will come (the client closed the stream or the connection dropped). */
  end(): void {
    this.ended = true;
    this.notify();
  }

  /** Whatever bytes are available (waiting for some), or undefined at the end. */
  async next(): Promise<Buffer | undefined> {
    while (this.chunks.length === 0) {
      if (this.ended) {
        return undefined;
      }
      await this.waitForData();
    }
    const chunk = this.chunks.shift()!;
    this.size -= chunk.length;
    this.onTaken();
    return chunk;
  }

  /** Exactly `n` bytes, or undefined if the stream ends first. */
  async readExact(n: number): Promise<Buffer | undefined> {
    while (this.size < n) {
      if (this.ended) {
        return undefined;
      }
      await this.waitForData();
    }
    const out = this.take(n);
    this.onTaken();
    return out;
  }

  private take(n: number): Buffer {
    const first = this.chunks[0];
    if (n === 0) {
      return Buffer.alloc(0);
    }
    if (first && first.length >= n) {
      if (first.length === n) {
        this.chunks.shift();
      } else {
        this.chunks[0] = first.subarray(n);
      }
      this.size -= n;
      return first.subarray(0, n);
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
    this.size -= n;
    return out;
  }

  private waitForData(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
