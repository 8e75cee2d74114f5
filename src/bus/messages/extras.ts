import { z } from 'zod';
import { checkDevicePath } from '../../util/device-path.js';
import {
  COMPONENT_RE,
  EXTRA_KEY_RE,
  EXTRA_TYPES,
  INTENT_NAME_RE,
  MAX_EXTRA_VALUE,
  PACKAGE_NAME_RE,
  extraValueProblem,
} from '../../util/intent-args.js';
import { checkOpenableUri } from '../../util/uri-scheme.js';
import { defineRequest } from '../contract.js';
import { packageScopeSchema } from './project.js';
import { serialSchema } from './devices.js';

/**
 * Requests of the device actors for the host-side device features (the `device-extras` toolset):
 * notifications, files in folders the user allowed, intents, installed apps, windows and location.
 */

const bySerial = (p: { serial: string }): string => p.serial;

export const packageNameSchema = z
  .string()
  .max(255)
  .regex(PACKAGE_NAME_RE, 'a package name is dotted identifiers, e.g. com.example.app')
  .describe('Android package name, e.g. com.example.app');

export const devicePathSchema = z
  .string()
  .max(1024)
  .superRefine((value, ctx) => {
    const checked = checkDevicePath(value);
    if (!checked.ok) {
      ctx.addIssue({ code: 'custom', message: checked.message });
    }
  })
  .describe('Absolute device path, e.g. /sdcard/Download/report.txt (no . or .. components)');

/** Names Windows keeps for devices, with any extension (`CON`, `nul.txt`, `COM1`): not files anywhere a folder is copied. */
const RESERVED_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

export const exchangeNameSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(
    /^[A-Za-z0-9_+()@,=][A-Za-z0-9 ._+()@,=-]*$/,
    'an exchange file name has letters, digits, spaces and . _ - + ( ) @ , = only, no folders, and does not start with a dot or a dash',
  )
  .refine((n) => !/[ .]$/.test(n), 'an exchange file name does not end with a space or a dot')
  .refine(
    (n) => !RESERVED_NAME.test(n),
    'an exchange file name is not a name Windows reserves (CON, NUL, COM1…)',
  )
  .describe("A file name in droidbus's exchange folder (<data dir>/exchange/), no folders");

export const notificationKeySchema = z
  .string()
  .min(3)
  .max(1024)

  .regex(/^[^\u0000-\u001f\u007f]+$/, 'a notification key has no control characters')
  .describe('The key list_notifications returned, e.g. 0|com.example.app|1|null|10123');

export const dataUriSchema = z
  .string()
  .max(2048)
  .superRefine((value, ctx) => {
    const checked = checkOpenableUri(value);
    if (!checked.ok) {
      ctx.addIssue({ code: 'custom', message: checked.message });
    }
  })
  .describe('Data URI of the intent (-d), e.g. https://example.com/item/1 or myapp://open');

export const intentNameSchema = (what: string) =>
  z.string().max(255).regex(INTENT_NAME_RE, `${what} is dotted identifiers, e.g. android.intent.action.VIEW`);

export const componentSchema = z
  .string()
  .max(512)
  .regex(COMPONENT_RE, 'a component is package/class, e.g. com.example/.MainActivity')
  .describe('Explicit component, package/class, e.g. com.example.app/.MainActivity');

export const intentExtraSchema = z
  .object({
    key: z
      .string()
      .max(200)
      .regex(EXTRA_KEY_RE, 'an extra key is letters, digits and _ . : - (starting with a letter or _)')
      .describe('Extra name, e.g. user_id or com.example.extra.MODE'),
    type: z.enum(EXTRA_TYPES).describe('Value type: string, int (32-bit), long (64-bit), bool or float'),
    value: z.string().max(MAX_EXTRA_VALUE).describe('The value as text: "42", "true", "1.5", or any string'),
  })
  .superRefine((extra, ctx) => {
    const problem = extraValueProblem(extra.type, extra.value);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: `extra '${extra.key}': ${problem}`, path: ['value'] });
    }
  });
export type IntentExtra = z.infer<typeof intentExtraSchema>;

export const notificationSchema = z.object({
  key: z.string(),
  package: z.string(),
  id: z.number().int().nullable(),
  tag: z.string().nullable(),
  user: z.number().int().nullable(),
  title: z.string().nullable(),
  text: z.string().nullable(),
  sub_text: z.string().nullable(),
  big_text: z.string().nullable(),
  /** When the notification was posted (epoch ms), or null when the dump does not say. */
  post_time: z.number().nullable(),
  /** The notification's own `when` (epoch ms; apps may set it to any time). */
  when: z.number().nullable(),
  ongoing: z.boolean(),
  clearable: z.boolean(),
  channel: z.string().nullable(),
  importance: z.number().int().nullable(),
  category: z.string().nullable(),
  actions: z.array(z.string()),
  /** True when the device hid the texts (`String [length=N]`): they are null then. */
  redacted: z.boolean(),
});
export type NotificationEntry = z.infer<typeof notificationSchema>;

export const fileEntrySchema = z.object({
  name: z.string(),
  type: z.enum(['file', 'dir', 'link', 'other']),
  size: z.number(),
  /** Permission bits in octal, e.g. 0660. */
  mode: z.string(),
  /** Modification time, ISO 8601. */
  modified: z.string(),
});

const rectSchema = z.object({
  left: z.number().int(),
  top: z.number().int(),
  right: z.number().int(),
  bottom: z.number().int(),
});

export const windowEntrySchema = z.object({
  /** Position in the window manager's list, top-most first. */
  index: z.number().int(),
  title: z.string(),
  package: z.string().nullable(),
  /** The window manager's type (`BASE_APPLICATION`, `INPUT_METHOD`, `2040`, …), or null. */
  type: z.string().nullable(),
  /** application, system_dialog, input_method, status_bar, navigation_bar, notification_shade, wallpaper, toast, overlay, system, unknown. */
  kind: z.string(),
  focused: z.boolean(),
  visible: z.boolean(),
  frame: rectSchema.nullable(),
});
export type WindowEntry = z.infer<typeof windowEntrySchema>;

const locationFixSchema = z.object({
  provider: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  altitude: z.number().nullable(),
  /** Horizontal accuracy in metres. */
  accuracy_m: z.number().nullable(),
  /** When the fix was taken, as time since boot (ms). */
  elapsed_realtime_ms: z.number().nullable(),
  /** How old the fix is (ms), when the device's uptime is known. */
  age_ms: z.number().nullable(),
  /** The provider's coarse (fudged) location rather than its fine one. */
  coarse: z.boolean(),
});

export const appSchema = z.object({
  package: z.string(),
  /** What the launcher shows, in the device's locale (read from the APK); null when unread or absent. */
  label: z.string().nullable(),
  version_name: z.string().nullable(),
  version_code: z.number().nullable(),
  enabled: z.boolean().nullable(),
  system: z.boolean(),
  /** As the device prints it (device-local `yyyy-MM-dd HH:mm:ss`), or null. */
  first_install_time: z.string().nullable(),
  last_update_time: z.string().nullable(),
});

/**
 * Whose packages a request may act on: the project's application ids (`root`), or any package when
 * the caller says the person asked (`allow_foreign_package`). Every request that stops an app,
 * clears its data, changes its permissions or broadcasts carries it, and the device actor checks it before any
 * device command, whoever sent the request.
 */
export const packageScopeArgSchema = z.object({
  root: z.string().max(4096).nullable(),
  allow_foreign_package: z.boolean(),
});
export type PackageScopeArg = z.infer<typeof packageScopeArgSchema>;

export const extrasRequests = {
  'device.notifications': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      package: packageNameSchema.optional(),
      limit: z.number().int().min(1).max(200).default(50),
    }),
    response: z.object({
      notifications: z.array(notificationSchema),
      total: z.number().int(),
      truncated: z.boolean(),
    }),
    timeoutMs: 35_000,
  }),
  /** Opens (taps) or dismisses (swipes) a listed notification in the shade, through the UI. */
  'device.act_on_notification': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      key: notificationKeySchema,
      action: z.enum(['open', 'dismiss']),
    }),
    response: z.object({
      key: z.string(),
      package: z.string(),
      title: z.string().nullable(),
      done: z.string(),
      /** Whether the notification is still listed afterwards. */
      still_listed: z.boolean(),
      /** The device commands run, in order (as argv). */
      commands: z.array(z.array(z.string())),
    }),
    timeoutMs: 95_000,
  }),
  'device.list_files': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      path: devicePathSchema,
      limit: z.number().int().min(1).max(1000).default(200),
    }),
    response: z.object({
      path: z.string(),
      resolved_path: z.string(),
      allowed_folder: z.string(),
      entries: z.array(fileEntrySchema),
      total: z.number().int(),
      truncated: z.boolean(),
    }),
    timeoutMs: 35_000,
  }),
  'device.pull_file': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      path: devicePathSchema,
      exchange_name: exchangeNameSchema.optional(),
      overwrite: z.boolean().default(false),
    }),
    response: z.object({
      device_path: z.string(),
      resolved_path: z.string(),
      bytes: z.number().int(),
      exchange_name: z.string(),
      host_path: z.string(),
      /** The content when it is UTF-8 text of at most 256 KiB. */
      text: z.string().nullable(),
      /** The content when it is binary and under 1 MiB. */
      binary: z.instanceof(Uint8Array).nullable(),
      mime_type: z.string(),
    }),
    timeoutMs: 180_000,
  }),
  'device.push_file': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      exchange_name: exchangeNameSchema,
      path: devicePathSchema,
      overwrite: z.boolean().default(false),
    }),
    response: z.object({
      device_path: z.string(),
      resolved_path: z.string(),
      bytes: z.number().int(),
      replaced: z.boolean(),
    }),
    timeoutMs: 180_000,
  }),
  'device.send_intent': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      mode: z.enum(['start', 'broadcast', 'start-service']),
      action: intentNameSchema('an action').optional(),
      data_uri: dataUriSchema.optional(),
      category: intentNameSchema('a category').optional(),
      component: componentSchema.optional(),
      package: packageNameSchema.optional(),
      extras: z.array(intentExtraSchema).max(32).default([]),
      /** Needed by a broadcast: it reaches other apps' receivers. */
      scope: packageScopeArgSchema.optional(),
    }),
    response: z.object({
      /** The `am` command run, as argv. */
      command: z.array(z.string()),
      /** What `am` printed (stdout then stderr), trimmed. */
      output: z.string(),
    }),
    timeoutMs: 35_000,
  }),
  'device.list_apps': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      third_party_only: z.boolean().default(true),
      limit: z.number().int().min(1).max(1000).default(200),
      /** Read each listed app's label from its APK (a few KB to MB each, kept once read). */
      labels: z.boolean().default(true),
      /** The project's package scope: its apps are marked and listed first. */
      scope: packageScopeSchema.optional(),
    }),
    response: z.object({
      apps: z.array(appSchema),
      total: z.number().int(),
      truncated: z.boolean(),
      /** The installed packages that are the project's (empty without a scope). */
      project_packages: z.array(z.string()),
      /** Listed apps whose label the time or byte budget left unread (a later listing reads them). */
      labels_unread: z.array(z.string()),
    }),
    timeoutMs: 65_000,
  }),
  'device.windows': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema }),
    response: z.object({
      windows: z.array(windowEntrySchema),
      /** The focused window's title, or null. */
      focused: z.string().nullable(),
      /** The soft keyboard is on screen. */
      ime_visible: z.boolean(),
      /** A visible system window over the app (permission dialog, ANR dialog, shade …), or null. */
      system_dialog: windowEntrySchema.nullable(),
      /** The top-most visible application window, or null. */
      app_window: windowEntrySchema.nullable(),
    }),
    timeoutMs: 35_000,
  }),
  'device.power_state': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema }),
    response: z.object({
      wakefulness: z
        .string()
        .nullable()
        .describe('Awake, Asleep, Dozing or Dreaming, as the power manager says; null when it does not'),
      display_state: z.string().nullable().describe('The display power state: ON, OFF, DOZE…'),
      powered: z.boolean().nullable().describe('Whether the device draws external power'),
      plugged: z
        .array(z.enum(['ac', 'usb', 'wireless', 'dock']))
        .nullable()
        .describe('What it is plugged into (empty when on battery)'),
      battery_level: z.number().int().nullable().describe('Battery level the power manager last saw, 0-100'),
      stay_on: z
        .boolean()
        .nullable()
        .describe('Whether the screen is kept on while plugged in (developer option)'),
    }),
    timeoutMs: 35_000,
  }),
  'device.location': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema }),
    response: z.object({
      location_enabled: z.boolean().nullable(),
      fixes: z.array(locationFixSchema),
    }),
    timeoutMs: 35_000,
  }),
  'device.set_emulator_location': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      altitude: z.number().min(-10_000).max(100_000).optional(),
    }),
    response: z.object({
      console_port: z.number().int(),
      /** The console command sent (note its order: longitude first). */
      command: z.string(),
    }),
    timeoutMs: 20_000,
  }),
};
