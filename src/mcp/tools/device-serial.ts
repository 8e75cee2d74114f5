import { serialSchema } from '../../bus/messages/devices.js';
import type { ToolContext } from '../define-tool.js';
import { ArgumentError, ToolError } from '../define-tool.js';

/** The optional `device_serial` parameter of device tools. */
export const optionalSerial = serialSchema.optional().describe('Serial; optional with one device');

/** The required `device_serial` parameter of tools that change a device. */
export const requiredSerial = serialSchema.describe('Device serial as list_devices shows it');

/**
 * The device a call acts on: the given serial (or device id), else the only online device. Several online
 * devices without a serial is refused (`invalid_argument`) naming them; none is a tool error.
 */
export async function resolveSerial(ctx: ToolContext, serial: string | undefined): Promise<string> {
  if (serial !== undefined) {
    return (await canonicalSerial(ctx, serial))!;
  }
  const { devices } = await ctx.bus.request('devices.list', {}, { signal: ctx.signal });
  const online = devices.filter((d) => d.state === 'device').map((d) => d.serial);
  if (online.length === 1) {
    return online[0]!;
  }
  if (online.length === 0) {
    const others = devices.map((d) => `${d.serial} (${d.state})`);
    throw new ToolError(
      `No device is online${others.length ? `; adb lists ${others.join(', ')}` : ''}. Connect a device or start an emulator (launch_avd), then call list_devices.`,
    );
  }
  throw new ArgumentError(
    `Several devices are online (${online.join(', ')}): pass device_serial to choose one.`,
  );
}

/**
 * A serial a caller gave to filter or stop by (the device may be gone): with several adb servers a plain
 * serial only one server has stands for its `LABEL/serial`; undefined stays undefined.
 */
export async function canonicalSerial(
  ctx: ToolContext,
  serial: string | undefined,
): Promise<string | undefined> {
  return serial === undefined
    ? undefined
    : (await ctx.bus.request('devices.resolve', { serial }, { signal: ctx.signal })).serial;
}
