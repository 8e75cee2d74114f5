/**
 * An MCP client as an agent pays for it: every call counted, with the bytes of text and images its
 * answers put in the model's context and their tokens by the usual estimates — text bytes / 4, an
 * image w·h / 750 (Anthropic's published rule for images) — and what the model reads of the server
 * before its first call.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import sharp from 'sharp';

export interface Answer {
  text: string;
  structured: Record<string, unknown>;
  isError: boolean;
}

export interface Bill {
  calls: number;
  textBytes: number;
  imageBytes: number;
  imageTokens: number;
  /** Image sizes returned, `WxH format`. */
  images: string[];
}

export const emptyBill = (): Bill => ({ calls: 0, textBytes: 0, imageBytes: 0, imageTokens: 0, images: [] });

export const tokensOf = (b: Pick<Bill, 'textBytes' | 'imageTokens'>): number =>
  b.textBytes / 4 + b.imageTokens;

const bytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v), 'utf8');

/**
 * What the model reads before its first call: the server's `instructions` (clients put them in the
 * system prompt) and of tools/list each tool's name, title, description and input schema.
 */
export async function listingBytes(
  client: Client,
): Promise<{ tools: number; bytes: number; instructions: number; whole: number }> {
  const { tools } = await client.listTools();
  const instructions = Buffer.byteLength(client.getInstructions() ?? '', 'utf8');
  const listed = tools.reduce(
    (n, t) =>
      n + bytes({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema }),
    0,
  );
  return { tools: tools.length, bytes: listed + instructions, instructions, whole: bytes({ tools }) };
}

export class Agent {
  bill: Bill = emptyBill();
  /** Every call's name and the first line of its answer, for a failed job's report. */
  readonly trail: string[] = [];
  /** Every call with its whole answer text. */
  readonly transcript: string[] = [];

  constructor(readonly client: Client) {}

  async call(name: string, args: Record<string, unknown> = {}, timeoutMs = 60_000): Promise<Answer> {
    let r: CallToolResult;
    try {
      r = (await this.client.callTool({ name, arguments: args }, undefined, {
        timeout: timeoutMs,
      })) as CallToolResult;
    } catch (err) {
      // A protocol error is an answer the model reads too.
      const text = err instanceof Error ? err.message : String(err);
      this.count(name, text);
      return { text, structured: {}, isError: true };
    }
    const texts: string[] = [];
    for (const c of r.content) {
      if (c.type === 'text') {
        texts.push(c.text);
      } else if (c.type === 'image') {
        const data = Buffer.from(c.data, 'base64');
        const meta = await sharp(data).metadata();
        this.bill.imageBytes += data.length;
        this.bill.imageTokens += ((meta.width ?? 0) * (meta.height ?? 0)) / 750;
        this.bill.images.push(`${meta.width}x${meta.height} ${meta.format}`);
      }
    }
    const text = texts.join('\n');
    this.count(name, text);
    return {
      text,
      structured: (r.structuredContent ?? {}) as Record<string, unknown>,
      isError: r.isError === true,
    };
  }

  /** `call`, failing the job with the tool's own words when it answers an error. */
  async must(name: string, args: Record<string, unknown> = {}, timeoutMs = 60_000): Promise<Answer> {
    const a = await this.call(name, args, timeoutMs);
    if (a.isError) {
      throw new Error(`${name}: ${a.text.slice(0, 300)}`);
    }
    return a;
  }

  private count(name: string, text: string): void {
    this.bill.calls++;
    this.bill.textBytes += Buffer.byteLength(text, 'utf8');
    this.trail.push(`${name}: ${text.split('\n')[0]?.slice(0, 160) ?? ''}`);
    this.transcript.push(`> ${name}\n${text}`);
  }
}
