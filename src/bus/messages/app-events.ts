import { z } from 'zod';
import { defineEvent } from '../contract.js';
import { originSchema } from '../origin.js';

/**
 * What happened to apps on devices, published by the actors that did it and read by the debug
 * sessions (a session per install per device and package) and the host's page.
 */

/** One install droidbus made, as installed-builds.json keeps it. */
export const installRecordSchema = z.object({
  id: z.string(),
  device: z.string(),
  package: z.string(),
  apk_path: z.string(),
  apk_sha256: z.string(),
  apk_size: z.number().int(),
  version_code: z.number().int().nullable(),
  version_name: z.string().nullable(),
  /** The build whose history lists this APK hash; null when no build matched. */
  build_id: z.string().nullable(),
  module: z.string().nullable(),
  variant: z.string().nullable(),
  project_root: z.string().nullable(),
  installed_at: z.string(),
  /** The package's lastUpdateTime as the device reported it right after the install (epoch ms). */
  device_last_update_ms: z.number().nullable(),
  installed_by: originSchema,
  /** Which kind of droidbus process recorded it. */
  recorded_by: z.enum(['standalone', 'host']),
});
export type InstallRecord = z.infer<typeof installRecordSchema>;

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
