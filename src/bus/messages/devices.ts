import { z } from 'zod';
import { defineEvent, defineRequest } from '../contract.js';

/** Serial numbers as adb prints them (`emulator-5554`, `R58M…`, `192.168.1.5:5555`, mDNS names). */
export const serialSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:@\-[\]%]+$/, 'a device serial has only letters, digits and . _ : @ - [ ] %')
  .describe('Device serial as list_devices shows it');

export const deviceEntrySchema = z.object({
  serial: z.string(),
  /** device, offline, unauthorized, authorizing, recovery, … */
  state: z.string(),
  /** emulator, tcp (adb connect / wireless), usb. */
  connection: z.enum(['emulator', 'tcp', 'usb']),
  model: z.string().nullable(),
  product: z.string().nullable(),
  device: z.string().nullable(),
  transport_id: z.string().nullable(),
  /** What a person must do when the device is not usable; null when it is. */
  hint: z.string().nullable(),
});
export type DeviceEntry = z.infer<typeof deviceEntrySchema>;

const serverSchema = z.object({
  address: z.string(),
  up: z.boolean(),
  message: z.string(),
});

export const devicesRequests = {
  'devices.list': defineRequest({
    actor: 'devices',
    request: z.object({}),
    response: z.object({ server: serverSchema, devices: z.array(deviceEntrySchema) }),
    timeoutMs: 20_000,
  }),
  /** One device's entry; DEVICE_OFFLINE when adb does not list it as `device`. */
  'devices.require': defineRequest({
    actor: 'devices',
    request: z.object({ serial: serialSchema }),
    response: deviceEntrySchema,
    timeoutMs: 20_000,
  }),
};

export const devicesEvents = {
  /** The adb server's device list changed (every state). */
  'devices.changed': defineEvent(z.object({ devices: z.array(deviceEntrySchema) })),
  /** One device changed state (`gone` when adb no longer lists it). */
  'device.state': defineEvent(
    z.object({ serial: z.string(), state: z.string(), previous: z.string().nullable() }),
  ),
};
