/**
 * MCP over stdio, newline-delimited JSON-RPC, with an answer for every line a client can send. The
 * SDK's StdioServerTransport closes the session when its buffer passes 10 MiB and drops lines it
 * cannot parse without a word; here a line longer than MAX_LINE_BYTES, a line that is not UTF-8 or
 * not JSON gets JSON-RPC's parse error (-32700, id null), a batch (removed by MCP 2025-06-18) or a
 * value that is no JSON-RPC message gets invalid request (-32600, its id when it has one); the line
 * is discarded and the session goes on. Only the partial line is held in memory, at most
 * MAX_LINE_BYTES of it.
 */
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The longest line read (16 MiB: a 10 MiB base64 payload with room to spare). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const NEWLINE = 0x0a;

/** What one line is: a message to hand on, or the error to answer it with. */
type LineOutcome =
  { message: JSONRPCMessage } | { error: { code: number; message: string }; id: string | number | null };

function idOf(value: unknown): string | number | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Reads one complete line (without its newline). */
export function readLine(bytes: Buffer): LineOutcome {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { error: { code: PARSE_ERROR, message: 'Parse error: the line is not valid UTF-8' }, id: null };
  }
  text = text.replace(/\r$/, '');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: { code: PARSE_ERROR, message: `Parse error: ${(err as Error).message}` }, id: null };
  }
  if (Array.isArray(value)) {
    return {
      error: {
        code: INVALID_REQUEST,
        message:
          'Invalid Request: JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send one message per line',
      },
      id: null,
    };
  }
  const id = (value as { id?: unknown } | null)?.id;
  if (typeof id === 'number' && Number.isInteger(id) && !Number.isSafeInteger(id)) {
    // JSON.parse has already rounded it (2^64 reads as 18446744073709552000): an answer would carry
    // another id than the one sent, which a client cannot match. Refused plainly instead.
    return {
      error: {
        code: INVALID_REQUEST,
        message:
          'Invalid Request: the id is a number beyond 2^53, which JSON numbers cannot carry exactly here; use a string id or a smaller number',
      },
      id: null,
    };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) {
    return {
      error: {
        code: INVALID_REQUEST,
        message: 'Invalid Request: not a JSON-RPC 2.0 request, notification or response',
      },
      id: idOf(value),
    };
  }
  return { message: parsed.data };
}

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private held = 0;
  /** Past MAX_LINE_BYTES: the rest of the line is dropped up to its newline. */
  private discarding = false;
  private started = false;
  private closed = false;
  /** Resolves when a full stdout drains; shared by every write waiting for it. */
  private drained: Promise<void> | null = null;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  async start(): Promise<void> {
    if (this.started) {
      throw new Error('LineStdioTransport already started');
    }
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStdinError);
  }

  private readonly onStdinError = (err: Error): void => {
    this.onerror?.(err);
  };

  private readonly onData = (chunk: Buffer): void => {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, from);
      if (nl < 0) {
        this.hold(chunk.subarray(from));
        return;
      }
      this.hold(chunk.subarray(from, nl));
      this.endLine();
      from = nl + 1;
    }
  };

  private hold(part: Buffer): void {
    if (this.discarding || part.length === 0) {
      return;
    }
    if (this.held + part.length > this.maxLineBytes) {
      this.chunks = [];
      this.held = 0;
      this.discarding = true;
      return;
    }
    this.chunks.push(part);
    this.held += part.length;
  }

  private endLine(): void {
    if (this.discarding) {
      this.discarding = false;
      this.answerError(
        null,
        PARSE_ERROR,
        `Parse error: the line is longer than ${this.maxLineBytes} bytes; it was discarded`,
      );
      return;
    }
    const line = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.held);
    this.chunks = [];
    this.held = 0;
    if (line.length === 0 || (line.length === 1 && line[0] === 0x0d)) {
      return; // an empty line is no message
    }
    const outcome = readLine(line);
    if ('message' in outcome) {
      this.onmessage?.(outcome.message);
    } else {
      this.answerError(outcome.id, outcome.error.code, outcome.error.message);
    }
  }

  private answerError(id: string | number | null, code: number, message: string): void {
    // JSON-RPC 2.0 §5.1: an error whose request id could not be read has id null.
    this.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }) + '\n').catch(
      (err: unknown) => this.onerror?.(err as Error),
    );
  }

  /**
   * Writes one line; while stdout is full every writer waits for the same `drain` (one listener,
   * however many lines a burst queues: a listener per write tripped Node's MaxListeners warning).
   */
  private write(line: string): Promise<void> {
    if (this.closed) {
      return Promise.resolve();
    }
    let failed: Error | undefined;
    const ok = this.stdout.write(line, (err) => {
      failed = err ?? undefined;
    });
    if (ok) {
      return Promise.resolve();
    }
    this.drained ??= new Promise<void>((resolve) => {
      this.stdout.once('drain', () => {
        this.drained = null;
        resolve();
      });
    });
    return this.drained.then(() => {
      if (failed) {
        throw failed;
      }
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(JSON.stringify(message) + '\n');
  }

  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStdinError);
    if (this.stdin.listenerCount('data') === 0) {
      this.stdin.pause();
    }
    this.chunks = [];
    this.onclose?.();
  }
}
