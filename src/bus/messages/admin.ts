import { z } from 'zod';
import {
  ACTIVITY_CLASS_RE,
  AVD_NAME_RE,
  EMULATOR_SERIAL_RE,
  ORIENTATIONS,
  PERMISSION_RE,
} from '../../util/app-args.js';
import { defineRequest } from '../contract.js';
import { installRecordSchema } from './app-events.js';
import { serialSchema } from './devices.js';
import { packageNameSchema, packageScopeArgSchema } from './extras.js';
import { runConfigurationSchema } from './project.js';
import { afterActionSchema } from './ui.js';

/** What a launch left on the screen: one capture after it (see device.ui_input's `after`). */
const launchAfter = {
  after: afterActionSchema.nullable(),
  /** Why `after` is null. */
  after_note: z.string().nullable(),
};

/**
 * Requests of the device-admin toolset: installing (hashed, recorded, matched to its build),
 * launching, stopping and restarting apps, runtime permissions, network and orientation on the
 * device actors; the `Displayed` launch time from the logcat actor; AVDs through the SDK's emulator
 * on the avd actor; and a run configuration's plan on the project actor.
 */

const bySerial = (p: { serial: string }): string => p.serial;

export const activityClassSchema = z
  .string()
  .max(300)
  .regex(ACTIVITY_CLASS_RE, 'an activity is a class name, e.g. .MainActivity or com.example.app.MainActivity')
  .describe('Activity class, fully qualified or relative to the package (.MainActivity)');

export const permissionSchema = z
  .string()
  .max(255)
  .regex(PERMISSION_RE, 'a permission is a dotted name, e.g. android.permission.CAMERA')
  .describe('Runtime permission, e.g. android.permission.CAMERA');

export const avdNameSchema = z
  .string()
  .max(100)
  .regex(AVD_NAME_RE, 'an AVD name has letters, digits, . _ - only (as list_avds shows it), at most 100')
  .describe('AVD name as list_avds shows it, e.g. Pixel_8_API_34');

export const emulatorSerialSchema = z
  .string()
  .max(20)
  .regex(EMULATOR_SERIAL_RE, 'an emulator serial is emulator-N, e.g. emulator-5554')
  .describe('The emulator serial, e.g. emulator-5554');

export const orientationSchema = z
  .enum(ORIENTATIONS)
  .describe('portrait, landscape, reverse_portrait, reverse_landscape, or auto (the accelerometer decides)');

/** What `am start -W` and the log said about one launch. */
export const launchResultSchema = z.object({
  package: z.string(),
  /** The component started (`pkg/.Main`), or null for a monkey launch. */
  component: z.string().nullable(),
  /** `am_start` (timed) or `monkey` (the launcher intent, no time reported). */
  method: z.enum(['am_start', 'monkey']),
  /** The device command, as argv. */
  command: z.array(z.string()),
  /** What it printed, trimmed (bounded). */
  output: z.string(),
  total_ms: z.number().int().nullable(),
  wait_ms: z.number().int().nullable(),
  /** COLD, WARM, HOT, or what the device printed; null when it printed none. */
  launch_state: z.string().nullable(),
  /** From the logcat `Displayed` line of exactly this package; null when none appeared in time. */
  displayed_ms: z.number().int().nullable(),
  /** From its `Fully drawn` line (the app called reportFullyDrawn()) when logged by then, else null. */
  fully_drawn_ms: z.number().int().nullable(),
  /** `Launch time: 812 ms (cold), wait 815 ms`, or the sentence saying no time was reported. */
  timing_line: z.string(),
});
export type LaunchResult = z.infer<typeof launchResultSchema>;

/** The connectivity settings set_network_state reads and changes (null: the device has no value). */
export const networkStateSchema = z.object({
  wifi: z.boolean().nullable(),
  mobile_data: z.boolean().nullable(),
  airplane_mode: z.boolean().nullable(),
});
export type NetworkState = z.infer<typeof networkStateSchema>;

const rotationStateSchema = z.object({
  /** portrait, landscape, reverse_…, or auto; null when the settings say something unknown. */
  orientation: z.string().nullable(),
  accelerometer_rotation: z.boolean().nullable(),
  user_rotation: z.number().int().nullable(),
});

const displayedSchema = z.object({
  ms: z.number().int(),
  total_ms: z.number().int().nullable(),
  component: z.string(),
  /** ActivityTaskManager (Android 10+) or ActivityManager. */
  tag: z.string(),
  /** The log line's time as logcat printed it. */
  time: z.string(),
});

const runningAvdSchema = z.object({
  serial: z.string(),
  /** What the emulator console answers to `avd name`; null when it could not be asked. */
  avd_name: z.string().nullable(),
  state: z.string(),
});

export const adminRequests = {
  /**
   * Installs an APK from the project's build outputs: resolved inside the project (symlinks out
   * refused), opened once, hashed and streamed from that one handle, recorded in installed-builds.json
   * matched to the build that wrote it, and published as `app.installed`.
   */
  'device.install_app': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      root: z.string().min(1).max(4096),
      apk_path: z.string().min(1).max(4096),
    }),
    response: z.object({
      record: installRecordSchema,
      /** What the package manager answered. */
      output: z.string(),
      /** The `Recorded …` line the result ends with. */
      recorded: z.string(),
      launchable_activity: z.string().nullable(),
    }),
    timeoutMs: 200_000,
  }),
  /** `am start -W` of an activity (the launcher one when none is named), or the monkey fallback. */
  'device.launch_app': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      package: packageNameSchema,
      activity: activityClassSchema.optional(),
      /** Also read the `Displayed` time from the log. */
      displayed: z.boolean().default(true),
    }),
    response: launchResultSchema.extend(launchAfter),
    timeoutMs: 95_000,
  }),
  /** Force-stop, optionally `pm clear`, then a launch of the launcher activity with its times. */
  'device.restart_app': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      package: packageNameSchema,
      clear_data: z.boolean(),
      scope: packageScopeArgSchema,
    }),
    response: launchResultSchema.extend({ was_running: z.boolean(), cleared: z.boolean(), ...launchAfter }),
    timeoutMs: 110_000,
  }),
  'device.stop_app': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      package: packageNameSchema,
      scope: packageScopeArgSchema,
      /**
       * `force-stop` (the default: every process, alarms and jobs gone) or `kill`: `am kill`, the
       * process death the system deals a background app for memory — its saved state survives, and
       * an app in front is left running (ActivityManagerService.killBackgroundProcesses).
       */
      how: z.enum(['force-stop', 'kill']).optional(),
    }),
    response: z.object({ package: z.string(), was_running: z.boolean(), installed: z.boolean() }),
    timeoutMs: 35_000,
  }),
  /** `pm grant` / `pm revoke` of a runtime permission; the package manager's refusals fail. */
  'device.set_permission': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      package: packageNameSchema,
      permission: permissionSchema,
      grant: z.boolean(),
      scope: packageScopeArgSchema,
    }),
    response: z.object({
      package: z.string(),
      permission: z.string(),
      granted: z.boolean(),
      /** A revoke that stopped the app's process. */
      process_killed: z.boolean(),
    }),
    timeoutMs: 35_000,
  }),
  /** Wi-Fi, mobile data and airplane mode; refuses what would cut a wireless adb connection. */
  'device.network': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      wifi: z.boolean().optional(),
      mobile_data: z.boolean().optional(),
      airplane_mode: z.boolean().optional(),
    }),
    response: z.object({
      previous: networkStateSchema,
      current: networkStateSchema,
      /** The device commands run, as argv. */
      commands: z.array(z.array(z.string())),
      /** How airplane mode was changed, when it was. */
      airplane_method: z.enum(['cmd_connectivity', 'settings_broadcast']).nullable(),
    }),
    timeoutMs: 45_000,
  }),
  'device.orientation': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema, orientation: orientationSchema }),
    response: z.object({ previous: rotationStateSchema, current: rotationStateSchema }),
    timeoutMs: 35_000,
  }),
  /**
   * The `Displayed` line of exactly `package` logged since `since_s` (device epoch seconds), read
   * from the device's log buffer (no stream needed); waits up to `timeout_ms` for it to appear. Its
   * `Fully drawn` line too, when already logged.
   */
  'logcat.launch_time': defineRequest({
    actor: 'logcat',
    request: z.object({
      serial: serialSchema,
      package: packageNameSchema,
      since_s: z.number().int().min(0),
      timeout_ms: z.number().int().min(0).max(10_000).default(3_000),
    }),
    response: z.object({
      displayed: displayedSchema.nullable(),
      fully_drawn: displayedSchema.nullable(),
    }),
    timeoutMs: 20_000,
  }),
  /** The SDK's AVDs (`emulator -list-avds`) and the emulators running now with their AVD names. */
  'avd.list': defineRequest({
    actor: 'avd',
    request: z.object({ root: z.string().max(4096).nullable() }),
    response: z.object({
      /** The emulator binary; null when no SDK with one was found. */
      emulator: z.string().nullable(),
      sdk: z.string().nullable(),
      avds: z.array(z.string()),
      running: z.array(runningAvdSchema),
      /** What to install or set when no emulator was found. */
      hint: z.string().nullable(),
    }),
    timeoutMs: 30_000,
  }),
  /** Starts an AVD (or finds it running) and waits until adb lists its emulator online and booted. */
  'avd.launch': defineRequest({
    actor: 'avd',
    request: z.object({ root: z.string().max(4096).nullable(), name: avdNameSchema }),
    response: z.object({
      serial: z.string(),
      avd_name: z.string(),
      already_running: z.boolean(),
      /** The emulator process this droidbus started, when it started one. */
      pid: z.number().int().nullable(),
      elapsed_ms: z.number().int(),
    }),
    timeoutMs: 75_000,
  }),
  /** `kill` through the emulator console; done once adb no longer lists the emulator. */
  'avd.stop': defineRequest({
    actor: 'avd',
    request: z.object({ serial: emulatorSerialSchema }),
    response: z.object({ serial: z.string(), avd_name: z.string().nullable(), elapsed_ms: z.number().int() }),
    timeoutMs: 45_000,
  }),
  /**
   * Resolves a run configuration for running (build, install, launch) on the devices given: which
   * device, which activity or deep link. INVALID for an unknown name or an untrusted project; FAILED
   * with the reason (and hint) when it cannot run now.
   */
  'project.run_plan': defineRequest({
    actor: 'project',
    request: z.object({
      root: z.string().max(4096),
      name: z.string().min(1).max(300),
      device_serial: serialSchema.optional(),
      devices: z
        .array(z.object({ serial: z.string(), state: z.string(), avd: z.string().nullable() }))
        .max(512),
    }),
    response: z.object({
      configuration: runConfigurationSchema,
      plan: z.object({
        steps: z.array(z.enum(['build', 'install', 'launch'])),
        module: z.string(),
        variant: z.string(),
        task: z.string(),
        application_id: z.string().nullable(),
        activity: z.string().nullable(),
        deep_link: z.string().nullable(),
        device: z.string(),
      }),
    }),
    timeoutMs: 15_000,
  }),
};
