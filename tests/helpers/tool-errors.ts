/**
 * Tool execution errors as MCP 2025-11-25 has them: a refused argument or rule is a result with
 * `isError: true` whose text the model reads and whose `structuredContent.error.code` is stable.
 */
import { expect } from 'vitest';

interface ResultLike {
  isError?: boolean;
  text?: string;
  content?: { type: string; text?: string }[];
  structured?: Record<string, unknown>;
  structuredContent?: Record<string, unknown>;
}

/** The error text of a call that must be refused as a tool error (with `code`, when given). */
export async function refusedWith(call: Promise<unknown>, code?: string): Promise<string> {
  const r = (await call) as ResultLike;
  const text =
    r.text ??
    (r.content ?? [])
      .filter((c) => c.type === 'text')
      .map((c) => c.text ?? '')
      .join('\n');
  expect(r.isError, `expected a tool error, the call answered: ${text.slice(0, 300)}`).toBe(true);
  const structured = r.structured ?? r.structuredContent ?? {};
  const got = (structured['error'] as { code?: unknown } | undefined)?.code;
  expect(typeof got, `no structuredContent.error.code in ${JSON.stringify(structured).slice(0, 300)}`).toBe(
    'string',
  );
  if (code !== undefined) {
    expect(got, text).toBe(code);
  }
  return text;
}

/** A refused argument: a tool error coded invalid_argument. */
export function invalidArgument(call: Promise<unknown>): Promise<string> {
  return refusedWith(call, 'invalid_argument');
}
