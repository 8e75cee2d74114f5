import { z } from 'zod';
import { defineRequest } from '../contract.js';
import { serialSchema } from './devices.js';
import {
  displayConfigSchema,
  displaySizeSchema,
  animationScalesSchema,
  localeTagsSchema,
  nightModeSchema,
  rotationSchema,
  type DisplayConfig,
} from '../../store/formats/display-config.js';
import { componentSchema, dataUriSchema, packageNameSchema } from './extras.js';

/**
 * A device's display configuration droidbus can change and always gives back (issue 74): the
 * display size and density overrides (`wm size`, `wm density`), the font scale (`settings put system
 * font_scale`) and dark mode (`cmd uimode night`). The values before the first change are recorded
 * (store/device-config-changes.ts) and restored by `device.config_restore`, when the session that
 * changed them ends, and by the next droidbus after a crash.
 */

const bySerial = (p: { serial: string }): string => p.serial;

export { displaySizeSchema, nightModeSchema, displayConfigSchema, type DisplayConfig };

/** What the panel is: the physical size and density. */
export const physicalDisplaySchema = z.object({
  width: z.number().int(),
  height: z.number().int(),
  density: z.number().int(),
});
export type PhysicalDisplay = z.infer<typeof physicalDisplaySchema>;

/** A change asked for: each field left out stays; `null` size or density resets to the physical one. */
export const displayChangeSchema = z.object({
  size: displaySizeSchema.nullable().optional(),
  density: z.number().int().min(1).max(2_000).nullable().optional(),
  font_scale: z.number().min(0.1).max(10).optional(),
  night: nightModeSchema.optional(),
  animations: animationScalesSchema.optional(),
  rotation: rotationSchema.optional(),
  /** An app's locales (Android 13+, `cmd locale set-app-locales`); '' gives it the system's again. */
  app_locale: z.object({ package: packageNameSchema, locales: localeTagsSchema }).optional(),
});
export type DisplayChange = z.infer<typeof displayChangeSchema>;

/** What droidbus changed on a device and has yet to give back. */
export const configChangesSchema = z.object({
  /** The values before droidbus's first change. */
  previous: displayConfigSchema,
  /** The settings changed (size, density, font_scale, night). */
  settings: z.array(z.string()),
  /** The session that changed them (its id), or the process. */
  by: z.string(),
  since: z.string(),
});
export type ConfigChanges = z.infer<typeof configChangesSchema>;

const stateResponse = z.object({
  physical: physicalDisplaySchema,
  current: displayConfigSchema,
  /** droidbus's changes not given back yet; null when there are none. */
  changed: configChangesSchema.nullable(),
});

/** A configuration in a few words: `720x1280 @ 320 dpi, font 1.3, dark, landscape`. */
export function describeDisplay(physical: PhysicalDisplay, c: DisplayConfig, orientation?: string): string {
  const [w, h] = c.size ? [c.size.width, c.size.height] : [physical.width, physical.height];
  const landscape =
    orientation === 'landscape' ||
    (c.rotation?.accelerometer === false && (c.rotation.user === 1 || c.rotation.user === 3));
  const size = landscape ? `${Math.max(w, h)}x${Math.min(w, h)}` : `${w}x${h}`;
  const still =
    c.animations !== undefined &&
    [c.animations.window, c.animations.transition, c.animations.animator].every((v) => v === 0);
  return `${size} @ ${c.density ?? physical.density} dpi, font ${c.font_scale ?? 1}${c.night === 'yes' ? ', dark' : ''}${landscape ? ', landscape' : ''}${still ? ', animations off' : ''}`;
}

export const deviceConfigRequests = {
  'device.config_read': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema }),
    response: stateResponse,
    timeoutMs: 30_000,
  }),
  /** Changes the display configuration; the values before are recorded first. BUSY while another session's changes stand. */
  'device.config_set': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema, change: displayChangeSchema }),
    response: stateResponse.extend({ before: displayConfigSchema }),
    timeoutMs: 60_000,
  }),
  /** Gives back what droidbus changed (the caller's session's changes; the host's person any). */
  'device.config_restore': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema }),
    response: stateResponse.extend({ restored: z.array(z.string()) }),
    timeoutMs: 60_000,
  }),
};

/** One configuration check_layout captures the screen under; what it leaves out stays as the device is. */
export const layoutConfigSchema = z.object({
  name: z.string().min(1).max(40),
  size: displaySizeSchema.optional(),
  density: z.number().int().min(1).max(2_000).optional(),
  font_scale: z.number().min(0.1).max(10).optional(),
  night: nightModeSchema.optional(),
  orientation: z.enum(['portrait', 'landscape']).optional(),
  /** The app in front shown in these locales (Android 13+): `ar` is right to left. */
  locale: localeTagsSchema.optional(),
});
export type LayoutConfig = z.infer<typeof layoutConfigSchema>;

export const layoutFindingSchema = z.object({
  /** The finding's number, as the contact sheet marks it. */
  n: z.number().int(),
  kind: z.enum(['text_cut', 'overlap', 'small_target', 'missing', 'low_contrast', 'untranslated']),
  label: z.string(),
  tree_path: z.string().nullable(),
  resource_id: z.string().nullable(),
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  detail: z.string(),
});

export const layoutRequests = {
  /**
   * The screen as it is, then under each configuration (display size, density, font scale, dark
   * mode, orientation): per configuration its capture's problems; one contact sheet of them all.
   * The device gets its configuration back at the end (and, should droidbus die meanwhile, from
   * the next one: the changes are recorded like set_display_config's).
   */
  'device.check_layout': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      configs: z.array(layoutConfigSchema).min(1).max(8),
      /** Started afresh under each configuration (the screen in front otherwise): an activity or a deep link. */
      relaunch: z
        .union([z.object({ component: componentSchema }), z.object({ deep_link: dataUriSchema })])
        .nullable(),
    }),
    response: z.object({
      configs: z.array(
        z.object({
          name: z.string(),
          /** `720x1280 @ 320 dpi, font 1.3` */
          description: z.string(),
          display: physicalDisplaySchema,
          findings: z.array(layoutFindingSchema),
          /** Why it was not captured (a locale on Android before 13); null when it was. */
          skipped: z.string().nullable(),
        }),
      ),
      sheet: z.instanceof(Uint8Array),
      sheet_mime: z.literal('image/jpeg'),
      /** The settings given back at the end. */
      restored: z.array(z.string()),
    }),
    timeoutMs: 300_000,
  }),
};
