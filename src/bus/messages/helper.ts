import { z } from 'zod';
import { defineRequest } from '../contract.js';
import { serialSchema } from './devices.js';

/** What a device has of the on-device UI helper (src/device/uiautomator2-helper.ts). */
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
  /**
   * Lends the device's UI Automator to another client for a while — an app's connected tests, which
   * need the device's only UiAutomation: no droidbus process reads the screen meanwhile (each is told
   * why), and droidbus's own helper is stopped; one run by another client's Appium session is left.
   * The next read after `device.ui_reclaim` starts the helper again.
   */
  'device.ui_lend': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      /** Who borrows it, as readers are told (`the connected tests of build b-…`). */
      purpose: z.string().min(1).max(300),
      /** The hold ends by itself after this long (a build that never says it is done). */
      max_ms: z
        .number()
        .int()
        .positive()
        .max(24 * 3_600_000),
    }),
    response: z.object({
      serial: z.string(),
      /** What became of the helper: stopped, was not running, is not installed, or serves another client. */
      helper: z.enum(['stopped', 'not_running', 'not_installed', 'foreign']),
    }),
    timeoutMs: 60_000,
  }),
  /** Ends a `device.ui_lend` of this purpose; `returned` is false when none was held. */
  'device.ui_reclaim': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema, purpose: z.string().min(1).max(300) }),
    response: z.object({ serial: z.string(), returned: z.boolean() }),
    timeoutMs: 15_000,
  }),
};
