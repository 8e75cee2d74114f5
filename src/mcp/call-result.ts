import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The text blocks of a tool's answer, as a client of droidbus reads them (the demo, `droidbus flow run`). */
export function answerText(result: CallToolResult): string {
  return result.content
    .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}
