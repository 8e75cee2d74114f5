import { z } from 'zod';
import { defineEvent } from '../contract.js';
import { originSchema } from '../origin.js';
import { installRecordSchema, type InstallRecord } from '../../store/formats/install-record.js';

/**
 * What happened to apps on devices, published by the actors that did it and read by the debug
 * sessions (a session per install per device and package) and the host's page.
 */

// Install records are a file format (installed-builds.json, debug sessions), carried as they are.
export { installRecordSchema };
export type { InstallRecord };

/** A launch and what the device reported about its timing (`am start -W`, the logcat `Displayed` line). */
export const launchEventSchema = z.object({
  device: z.string(),
  package: z.string(),
  activity: z.string().nullable(),
  /** A restart_app (force-stop then launch), as opposed to launch_app. */
  restart: z.boolean(),
  total_ms: z.number().nullable(),
  wait_ms: z.number().nullable(),
  launch_state: z.string().nullable(),
  displayed_ms: z.number().nullable(),
  by: originSchema,
  at: z.string(),
});
export type LaunchEvent = z.infer<typeof launchEventSchema>;

export const appEvents = {
  /** droidbus installed an APK (install_apk, run_run_configuration, the demo). */
  'app.installed': defineEvent(installRecordSchema),
  /** droidbus launched or restarted an app. */
  'app.launched': defineEvent(launchEventSchema),
  /** droidbus stopped an app, or cleared its data. */
  'app.stopped': defineEvent(
    z.object({
      device: z.string(),
      package: z.string(),
      clear_data: z.boolean(),
      by: originSchema,
      at: z.string(),
    }),
  ),
};
