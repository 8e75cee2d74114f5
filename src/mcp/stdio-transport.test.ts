import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineStdioTransport } from './stdio-transport.js';

/** A stdout that is full until `drain()`: every write returns false, as a pipe nobody reads does. */
class FullStdout extends Writable {
  lines: string[] = [];
  constructor() {
    super({ highWaterMark: 1 });
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.lines.push(chunk.toString('utf8'));
    this.pending.push(done);
  }
  private pending: ((err?: Error | null) => void)[] = [];
  release(): void {
    const waiting = this.pending;
    this.pending = [];
    waiting.forEach((done) => done());
  }
}

describe('the stdio transport under backpressure', () => {
  it('answers a burst of bad lines on a full stdout with one drain listener, not one per line', async () => {
    const stdin = new PassThrough();
    const stdout = new FullStdout();
    const transport = new LineStdioTransport(stdin, stdout);
    await transport.start();
    stdin.write('{"jsonrpc":"2.0","id":1,"method":\n'.repeat(200));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(stdout.listenerCount('drain')).toBeLessThanOrEqual(1);
    for (let i = 0; i < 400 && stdout.lines.length < 200; i++) {
      stdout.release();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(stdout.lines.length).toBe(200);
    expect(stdout.lines.every((l) => JSON.parse(l).error.code === -32700)).toBe(true);
    await transport.close();
  });
});
