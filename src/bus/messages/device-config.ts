import { z } from 'zod';
import { defineRequest } from '../contract.js';
import { serialSchema } from './devices.js';
import {
  displayConfigSchema,
  displaySizeSchema,
  nightModeSchema,
  type DisplayConfig,
} from '../../store/formats/display-config.js';

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
