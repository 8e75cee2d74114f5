import { serialSchema } from '../../bus/messages/devices.js';
import type { ToolContext } from '../define-tool.js';
import { ArgumentError, ToolError } from '../define-tool.js';

/** The optional `device_serial` parameter of device tools. */
export const optionalSerial = serialSchema.optional().describe('Optional with one device');

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

/** Per bus: the serials that resolve to the same id whatever devices come and go (see devices.resolve). */
const fixedIds = new WeakMap<object, Map<string, string>>();

/**
 * A serial a caller gave to filter or stop by (the device may be gone): with several adb servers a plain
 * serial only one server has stands for its `LABEL/serial`; undefined stays undefined. An answer the
 * devices actor calls fixed is remembered, so a device tool's call costs no round trip for it.
 */
export async function canonicalSerial(
  ctx: ToolContext,
  serial: string | undefined,
): Promise<string | undefined> {
  if (serial === undefined) {
    return undefined;
  }
  const known = fixedIds.get(ctx.bus)?.get(serial);
  if (known !== undefined) {
    return known;
  }
  const resolved = await ctx.bus.request('devices.resolve', { serial }, { signal: ctx.signal });
  if (resolved.fixed) {
    const ids = fixedIds.get(ctx.bus) ?? new Map<string, string>();
    if (ids.size >= 1024) {
      ids.clear(); // serials an agent made up, over and over: a bound, not a policy
    }
    fixedIds.set(ctx.bus, ids.set(serial, resolved.serial));
  }
  return resolved.serial;
}
