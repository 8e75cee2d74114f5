import { z } from 'zod';

/**
 * A device's display configuration (issue 74): what `store/device-config-changes.ts` records before
 * droidbus changes it, and what the bus carries (`src/bus/messages/device-config.ts`).
 */

/** A display size in pixels (portrait: width is the shorter side on a phone). */
export const displaySizeSchema = z.object({
  width: z.number().int().min(1).max(20_000),
  height: z.number().int().min(1).max(20_000),
});

export const nightModeSchema = z.enum(['yes', 'no', 'auto']);

export const animationScalesSchema = z.object({
  window: z.number().min(0).max(10).nullable(),
  transition: z.number().min(0).max(10).nullable(),
  animator: z.number().min(0).max(10).nullable(),
});

export const rotationSchema = z.object({
  accelerometer: z.boolean().nullable(),
  user: z.number().int().min(0).max(3).nullable(),
});

/** The configuration as the device reports it; null where the device does not say. */
export const displayConfigSchema = z.object({
  /** The override size; null when the physical size applies. */
  size: displaySizeSchema.nullable(),
  /** The override density (dpi); null when the physical density applies. */
  density: z.number().int().nullable(),
  /** `settings get system font_scale`; null when the setting is unset (1.0 applies). */
  font_scale: z.number().nullable(),
  night: nightModeSchema.nullable(),
  /**
   * The three animation scales (`settings get global window_animation_scale`,
   * `transition_animation_scale`, `animator_duration_scale`); null where unset (1 applies).
   * Absent in records written before they were kept.
   */
  animations: animationScalesSchema.optional(),
  /** `accelerometer_rotation` (auto-rotate) and `user_rotation` (0–3) of the system settings. */
  rotation: rotationSchema.optional(),
});
export type DisplayConfig = z.infer<typeof displayConfigSchema>;

/** Language tags as Android's LocaleList takes them (`ar`, `en-US,hi`); empty: the system's. */
export const localeTagsSchema = z
  .string()
  .max(100)
  .regex(
    /^([A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*(,[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*)*)?$/,
    'language tags such as ar or en-US,hi',
  );

/** An app's locales before droidbus set them (`cmd locale set-app-locales`, Android 13+). */
export const appLocalesSchema = z.object({
  package: z.string().max(255),
  /** The tags it had ('' when it followed the system). */
  previous: localeTagsSchema,
});
