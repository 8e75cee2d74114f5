/**
 * The family of tools that act on one device: `device_serial` comes first in their input (optional
 * with one device online, or required for tools that change a device), it is resolved before the
 * handler runs (the only online device when left out; several is a refusal naming them), and the
 * tool keeps working in a pinned session whose project the host closed. Playwright's MCP server
 * has `defineTabTool` for the same seam.
 */
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import type { ToolContext, ToolDefinition, ToolResult } from './define-tool.js';
import { optionalSerial, requiredSerial, resolveSerial } from './tools/device-serial.js';

/** A device tool's context: the device it acts on, resolved. */
export interface DeviceToolContext extends ToolContext {
  serial: string;
}

export interface DeviceToolDefinition<I extends z.ZodObject, O extends z.ZodObject | undefined> extends Omit<
  ToolDefinition<I, O>,
  'input' | 'handle'
> {
  /** The tool's own arguments; `device_serial` is put first. */
  input: I;
  /** `optional` (the default): left out with one device online; `required`: tools that change a device. */
  serial?: 'optional' | 'required';
  /** What the listing says `device_serial` is, when not a device of any kind (an emulator serial). */
  serialDescription?: string;
  /** `args.device_serial` is what the caller gave (undefined when left out); `ctx.serial` the device. */
  handle(
    args: z.output<I> & { device_serial?: string | undefined },
    ctx: DeviceToolContext,
  ): Promise<ToolResult>;
}

/** Declares a device tool (see the module comment). */
export function defineDeviceTool<I extends z.ZodObject, O extends z.ZodObject | undefined = undefined>(
  def: DeviceToolDefinition<I, O>,
): ToolDefinition {
  const { serial: mode, serialDescription, input, handle, ...rest } = def;
  const serial = mode === 'required' ? requiredSerial : optionalSerial;
  const full = z
    .object({ device_serial: serialDescription !== undefined ? serial.describe(serialDescription) : serial })
    .extend(input.shape);
  return defineTool({
    projectIndependent: true,
    ...rest,
    family: 'device',
    input: full,
    async handle(args, ctx) {
      const given = (args as { device_serial?: string }).device_serial;
      return handle(args as z.output<I> & { device_serial?: string }, {
        ...ctx,
        serial: await resolveSerial(ctx, given),
      });
    },
  }) as unknown as ToolDefinition;
}
