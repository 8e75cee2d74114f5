/**
 * `batch`: several tool calls in one, in order — a form's fields and its submit, an install and its
 * launch, starting logcat and reading it — so an agent pays one round trip and one answer for a
 * sequence it already knows. Each step runs exactly as its own tools/call would (ctx.callTool).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { defineTool, ToolError, TOOL_ERROR_CODES } from '../define-tool.js';
import type { ExtraContent, ToolErrorCode } from '../define-tool.js';
import { serialSchema } from '../../bus/messages/devices.js';
import { answerText } from '../call-result.js';

export const MAX_STEPS = 10;

const stepSchema = z
  .object({
    tool: z.string().min(1).max(64),
    args: z.looseObject({}).optional(),
  })
  .strict();

const stepResultSchema = z.object({
  tool: z.string(),
  is_error: z.boolean(),
  /** The step's structuredContent, as its own call answers it. */
  result: z.record(z.string(), z.unknown()).nullable(),
});

function errorCodeOf(r: CallToolResult): ToolErrorCode {
  const code = (r.structuredContent?.['error'] as { code?: unknown } | undefined)?.code;
  return (TOOL_ERROR_CODES as readonly unknown[]).includes(code) ? (code as ToolErrorCode) : 'failed';
}

export const batch = defineTool({
  name: 'batch',
  answers: null,
  toolset: 'core',
  kind: 'open_world',
  title: 'Run tools in order',
  description: `Runs up to ${MAX_STEPS} tool calls in order, stopping at the first error. Action steps but the last answer one line.`,
  nests: false,
  input: z.object({
    device_serial: serialSchema.optional().describe('Given to every step that takes one'),
    steps: z.array(stepSchema).min(1).max(MAX_STEPS).describe('{tool, args}, as the tool takes them'),
  }),
  output: z.object({
    steps: z.array(stepResultSchema),
  }),
  async handle(args, ctx) {
    const done: z.infer<typeof stepResultSchema>[] = [];
    const texts: string[] = [];
    const images: ExtraContent[] = [];
    for (const [i, step] of args.steps.entries()) {
      if (ctx.cancelSignal.aborted) {
        throw new ToolError(`Cancelled before step ${i + 1} (${step.tool}).`, { steps: done }, 'cancelled');
      }
      const { result: r, kind } = await ctx.callTool(step.tool, step.args ?? {}, {
        device_serial: args.device_serial,
      });
      const isError = r.isError === true;
      done.push({ tool: step.tool, is_error: isError, result: r.structuredContent ?? null });
      for (const c of r.content) {
        if (c.type === 'image') {
          images.push({ type: 'image', data: c.data, mimeType: c.mimeType });
        }
      }
      const text = answerText(r);
      if (isError) {
        const left = args.steps.length - i - 1;
        throw new ToolError(
          [
            ...texts,
            `${i + 1}. ${step.tool} failed: ${text}${left > 0 ? `\nThe ${left} step${left > 1 ? 's' : ''} after it did not run.` : ''}`,
          ].join('\n'),
          { steps: done },
          errorCodeOf(r),
        );
      }
      const last = i === args.steps.length - 1;
      texts.push(`${i + 1}. ${step.tool}: ${last || kind === 'read' ? text : (text.split('\n')[0] ?? '')}`);
    }
    return { text: texts.join('\n'), structured: { steps: done }, before: images };
  },
});
