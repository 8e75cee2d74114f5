import { z } from 'zod';
import { defineRequest } from '../contract.js';
import { serialSchema } from './devices.js';

/** What a device has of the on-device UI helper (src/adb/uiautomator2-helper.ts). */
export const helperStateSchema = z.object({
  serial: z.string(),
  installed: z.boolean(),
  version: z.string().nullable(),
  current: z.boolean(),
  packages: z.object({ server: z.boolean(), test: z.boolean() }),
  running: z.boolean(),
});

const bySerial = (p: { serial: string }): string => p.serial;

/**
 * The on-device UI helper, through the device actor that uses it (so it knows at once when the
 * helper changed, and reaches the device over the adb servers droidbus was given). Installing and
 * removing are the person's decisions: the actor refuses every origin but the host's page (`host`)
 * and the CLI (`cli`).
 */
export const helperRequests = {
  /** The helper on a device (installed, version, running). */
  'device.helper': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema }),
    response: helperStateSchema,
    timeoutMs: 30_000,
  }),
  /** Installs (or updates) the helper. */
  'device.helper_install': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema }),
    response: helperStateSchema,
    timeoutMs: 240_000,
  }),
  /** Stops and uninstalls the helper. */
  'device.helper_remove': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema }),
    response: helperStateSchema,
    timeoutMs: 120_000,
  }),
};
