/**
 * The byte streams a shell command reads and writes: the transport's stdin/stdout, pipes between
 * pipeline stages (with backpressure and a broken-pipe signal), files and /dev/null.
 *
 * Evidence: POSIX write() on a pipe without a reader (EPIPE, SIGPIPE: XSH write); /dev/null.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Thrown by a write to a pipe whose reader has gone: the writer stops as if killed by SIGPIPE. */
export class BrokenPipeError extends Error {
  constructor() {
    super('Broken pipe');
  }
}

/** Where a command writes. Each write resolves when the destination has room again. */
export interface OutputStream {
  write(chunk: Uint8Array | string): Promise<void>;
  /** Set when writing can never succeed again (the reader of a pipe has gone). */
  readonly broken?: boolean;
}

/** What a command reads: chunks until null (end of input). */
export interface InputStream {
  read(): Promise<Uint8Array | null>;
}

/** UTF-8 bytes of a chunk. */
export function toBytes(chunk: Uint8Array | string): Uint8Array {
  return typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
}

/** Text of a byte chunk (UTF-8, lenient). */
export function toText(chunk: Uint8Array | string): string {
  return typeof chunk === 'string' ? chunk : decoder.decode(chunk);
}

/** An input with nothing in it (`< /dev/null`, or a command whose stdin is not connected). */
export const EMPTY_INPUT: InputStream = { read: () => Promise.resolve(null) };

/** An output that discards everything (`> /dev/null`). */
export const NULL_OUTPUT: OutputStream = { write: () => Promise.resolve() };

/** Wraps an async iterable (the transport's stdin) so that several commands can read it one after another. */
export class IterableInput implements InputStream {
  private iterator: AsyncIterator<Uint8Array> | null = null;
  private done = false;
  constructor(private readonly source: AsyncIterable<Uint8Array>) {}

  async read(): Promise<Uint8Array | null> {
    if (this.done) {
      return null;
    }
    this.iterator ??= this.source[Symbol.asyncIterator]();
    const next = await this.iterator.next();
    if (next.done === true) {
      this.done = true;
      return null;
    }
    return next.value;
  }
}

/** An input over bytes already in memory (`< file`, `$(…)` results fed to a pipe). */
export class BytesInput implements InputStream {
  private sent = false;
  constructor(private readonly bytes: Uint8Array) {}
  read(): Promise<Uint8Array | null> {
    if (this.sent || this.bytes.length === 0) {
      return Promise.resolve(null);
    }
    this.sent = true;
    return Promise.resolve(this.bytes);
  }
}

/** An output that keeps everything it is given (command substitution, files, tests). */
export class CollectOutput implements OutputStream {
  private chunks: Uint8Array[] = [];
  private size = 0;
  write(chunk: Uint8Array | string): Promise<void> {
    const bytes = toBytes(chunk);
    this.chunks.push(bytes);
    this.size += bytes.length;
    return Promise.resolve();
  }
  bytes(): Uint8Array {
    if (this.chunks.length === 1) {
      return this.chunks[0] as Uint8Array;
    }
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    this.chunks = [out];
    return out;
  }
  text(): string {
    return decoder.decode(this.bytes());
  }
}

const HIGH_WATER = 64 * 1024;

/**
 * A pipe between two pipeline stages. The writer waits while more than 64 KiB is queued; once the
 * reader is done, every write throws BrokenPipeError (the writer's SIGPIPE).
 */
export class Pipe implements InputStream, OutputStream {
  private queue: Uint8Array[] = [];
  private queued = 0;
  private ended = false;
  private readerGone = false;
  private wakeReader: (() => void) | null = null;
  private wakeWriters: (() => void)[] = [];
  private readonly onBroken: () => void;

  constructor(onBroken: () => void = () => undefined) {
    this.onBroken = onBroken;
  }

  get broken(): boolean {
    return this.readerGone;
  }

  async write(chunk: Uint8Array | string): Promise<void> {
    if (this.readerGone) {
      throw new BrokenPipeError();
    }
    const bytes = toBytes(chunk);
    if (bytes.length === 0) {
      return;
    }
    this.queue.push(bytes);
    this.queued += bytes.length;
    this.wake();
    while (this.queued > HIGH_WATER && !this.readerGone) {
      await new Promise<void>((resolve) => this.wakeWriters.push(resolve));
    }
    if (this.readerGone) {
      throw new BrokenPipeError();
    }
  }

  /** The writer is done: the reader sees end of input after the queued bytes. */
  end(): void {
    this.ended = true;
    this.wake();
  }

  /** The reader is done: writers get BrokenPipeError from now on. */
  closeRead(): void {
    if (this.readerGone) {
      return;
    }
    this.readerGone = true;
    this.queue = [];
    this.queued = 0;
    this.releaseWriters();
    this.onBroken();
  }

  async read(): Promise<Uint8Array | null> {
    for (;;) {
      const next = this.queue.shift();
      if (next !== undefined) {
        this.queued -= next.length;
        if (this.queued <= HIGH_WATER) {
          this.releaseWriters();
        }
        return next;
      }
      if (this.ended || this.readerGone) {
        return null;
      }
      await new Promise<void>((resolve) => {
        this.wakeReader = resolve;
      });
    }
  }

  private wake(): void {
    const w = this.wakeReader;
    this.wakeReader = null;
    w?.();
  }

  private releaseWriters(): void {
    const writers = this.wakeWriters;
    this.wakeWriters = [];
    for (const w of writers) {
      w();
    }
  }
}

/** Reads an input to its end. */
export async function readAll(input: InputStream): Promise<Uint8Array> {
  const out = new CollectOutput();
  for (let c = await input.read(); c !== null; c = await input.read()) {
    await out.write(c);
  }
  return out.bytes();
}

/** Yields an input line by line (without the newline); a last line without a newline is yielded too. */
export async function* readLines(input: InputStream): AsyncGenerator<string> {
  const dec = new TextDecoder();
  let rest = '';
  for (let c = await input.read(); c !== null; c = await input.read()) {
    rest += dec.decode(c, { stream: true });
    let start = 0;
    let nl = rest.indexOf('\n');
    while (nl >= 0) {
      yield rest.slice(start, nl);
      start = nl + 1;
      nl = rest.indexOf('\n', start);
    }
    rest = rest.slice(start);
  }
  rest += dec.decode();
  if (rest !== '') {
    yield rest;
  }
}
