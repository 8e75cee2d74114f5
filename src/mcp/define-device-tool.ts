/**
 * The family of tools that act on one device: `device_serial` comes first in their input, optional
 * on every one of them (an agent with one device never pays a list_devices call), it is resolved
 * before the handler runs (the only online device when left out; several is a refusal naming
 * them; a tool that wipes data asks for it explicitly in its handler), and the
 * tool keeps working in a pinned session whose project the host closed. Playwright's MCP server
 * has `defineTabTool` for the same seam.
 */
import { z } from 'zod';
import type { RequestOptions } from '../bus/client.js';
import type { RequestOf, RequestType, ResponseOf } from '../bus/registry.js';
import { NO_ARGUMENTS, defineTool } from './define-tool.js';
import type { ToolContext, ToolDefinition, ToolResult } from './define-tool.js';
import { optionalSerial, resolveSerial } from './tools/device-serial.js';

/** The bus requests addressed to one device (their payload names its `serial`). */
export type DeviceRequestType = {
  [T in RequestType]: RequestOf<T> extends { serial: string } ? T : never;
}[RequestType];

/** A device tool's context: the device it acts on, resolved. */
export interface DeviceToolContext extends ToolContext {
  serial: string;
  /** Asks the bus about this device: its `serial` filled in, the call's signal unless `options` say otherwise. */
  ask<T extends DeviceRequestType>(
    type: T,
    payload: Omit<RequestOf<T>, 'serial'>,
    options?: RequestOptions,
  ): Promise<ResponseOf<T>>;
}

export interface DeviceToolDefinition<I extends z.ZodObject, O extends z.ZodObject | undefined> extends Omit<
  ToolDefinition<I, O>,
  'input' | 'handle'
> {
  /** The tool's own arguments (none when left out); `device_serial` is put first. */
  input?: I;
  /** What the listing says `device_serial` is, when not a device of any kind (an emulator serial). */
  serialDescription?: string;
  /** `args.device_serial` is what the caller gave (undefined when left out); `ctx.serial` the device. */
  handle(
    args: z.output<I> & { device_serial?: string | undefined },
    ctx: DeviceToolContext,
  ): Promise<ToolResult>;
}

/** Declares a device tool (see the module comment). */
export function defineDeviceTool<
  I extends z.ZodObject = typeof NO_ARGUMENTS,
  O extends z.ZodObject | undefined = undefined,
>(def: DeviceToolDefinition<I, O>): ToolDefinition {
  const { serialDescription, input, handle, ...rest } = def;
  const serial = optionalSerial;
  const full = z
    .object({ device_serial: serialDescription !== undefined ? serial.describe(serialDescription) : serial })
    .extend((input ?? NO_ARGUMENTS).shape);
  return defineTool({
    projectIndependent: true,
    ...rest,
    family: 'device',
    input: full,
    async handle(args, ctx) {
      const given = (args as { device_serial?: string }).device_serial;
      const serial = await resolveSerial(ctx, given);
      return handle(args as z.output<I> & { device_serial?: string }, {
        ...ctx,
        serial,
        ask: (type, payload, options) =>
          ctx.bus.request(type, { ...payload, serial } as RequestOf<typeof type>, {
            signal: ctx.signal,
            ...options,
          }),
      });
    },
  }) as unknown as ToolDefinition;
}
