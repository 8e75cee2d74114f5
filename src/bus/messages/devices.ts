import { z } from 'zod';
import { defineEvent, defineRequest } from '../contract.js';

/**
 * Serial numbers as adb prints them (`emulator-5554`, `R58M…`, `192.168.1.5:5555`, mDNS names), and
 * with several adb servers `LABEL/serial`.
 */
export const serialSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(
    /^(?:[A-Za-z][A-Za-z0-9_-]{0,31}\/)?[A-Za-z0-9._:@\-[\]%]+$/,
    'a device serial has only letters, digits and . _ : @ - [ ] % (LABEL/serial with several adb servers)',
  )
  .describe('Device serial as list_devices shows it');

export const deviceEntrySchema = z.object({
  /** The device's id: its serial, or `LABEL/serial` when droidbus serves several adb servers. */
  serial: z.string(),
  /** The adb server's label when there are several; null with one. */
  server: z.string().nullable(),
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

export const adbServerStateSchema = serverSchema.extend({
  label: z.string(),
  /** The server's protocol version (41 for adb 1.0.41); null until reached. */
  version: z.number().int().nullable(),
  /** How many devices it lists, in any state. */
  devices: z.number().int(),
});
export type AdbServerState = z.infer<typeof adbServerStateSchema>;

export const devicesRequests = {
  'devices.list': defineRequest({
    actor: 'devices',
    request: z.object({}),
    response: z.object({
      /** The first server (all of them: `servers`). */
      server: serverSchema,
      servers: z.array(adbServerStateSchema),
      devices: z.array(deviceEntrySchema),
    }),
    timeoutMs: 20_000,
  }),
  /**
   * The id of the device a caller named: an id as listed, or a plain serial only one server has.
   * INVALID when several servers have it (the message lists the ids).
   */
  'devices.resolve': defineRequest({
    actor: 'devices',
    request: z.object({ serial: serialSchema }),
    response: z.object({
      serial: z.string(),
      /** The serial stands for this id whatever devices come and go (one adb server, or an id already): callers may remember it. */
      fixed: z.boolean(),
    }),
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
    z.object({
      serial: z.string(),
      state: z.string(),
      previous: z.string().nullable(),
      /** Why a device is gone when adb did not say it left: its adb server became unreachable. */
      reason: z.string().optional(),
    }),
  ),
};
