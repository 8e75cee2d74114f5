/** A device's display size, density, font scale and dark mode, changed with a guaranteed undo (issue 74). */
import { z } from 'zod';
import type { DisplayConfig, PhysicalDisplay } from '../../bus/messages/device-config.js';
import { ArgumentError } from '../define-tool.js';
import { defineDeviceTool } from '../define-device-tool.js';
import { deviceResponseOf } from '../responses.js';

/** A configuration in a few words: `720x1280 @ 320 dpi, font 1.3, dark`. */
export function describeConfig(physical: PhysicalDisplay, c: DisplayConfig): string {
  const size = c.size ? `${c.size.width}x${c.size.height}` : `${physical.width}x${physical.height}`;
  const density = c.density ?? physical.density;
  return `${size} @ ${density} dpi, font ${c.font_scale ?? 1}${c.night === 'yes' ? ', dark' : c.night === 'auto' ? ', dark auto' : ''}`;
}

const sizeParam = z
  .string()
  .regex(/^(\d{3,5}x\d{3,5}|reset)$/, 'WIDTHxHEIGHT in pixels, or reset')
  .describe('Display size WIDTHxHEIGHT in pixels (e.g. 720x1280), or reset to the panel');

export const setDisplayConfig = defineDeviceTool({
  name: 'set_display_config',
  answers: 'device.config_set',
  toolset: 'device-settings',
  kind: 'write',
  title: 'Change display size, density, font scale or dark mode',
  description:
    "Sets the display size and density (wm size / wm density), the font scale and dark mode, to see a screen as other phones and users do. The values before droidbus's first change are recorded and given back when the session ends (also after a crash) or with restore_display_config. Refused with the device's limits when it cannot show it; BUSY while another session's changes stand.",
  input: z.object({
    size: sizeParam.optional(),
    density: z
      .union([z.number().int().min(1).max(2000), z.literal('reset')])
      .optional()
      .describe('Density in dpi (e.g. 320), or reset'),
    font_scale: z.number().min(0.1).max(10).optional().describe('Font scale, 0.85–2.0 (1.3: large text)'),
    dark_mode: z.enum(['on', 'off', 'auto']).optional().describe('Dark theme on, off or by the time of day'),
  }),
  output: deviceResponseOf('device.config_set'),
  async handle(args, ctx) {
    if (
      args.size === undefined &&
      args.density === undefined &&
      args.font_scale === undefined &&
      args.dark_mode === undefined
    ) {
      throw new ArgumentError('Give size, density, font_scale or dark_mode.');
    }
    const size =
      args.size === undefined ? undefined : args.size === 'reset' ? null : args.size.split('x').map(Number);
    const r = await ctx.ask('device.config_set', {
      change: {
        ...(size !== undefined ? { size: size === null ? null : { width: size[0]!, height: size[1]! } } : {}),
        ...(args.density !== undefined ? { density: args.density === 'reset' ? null : args.density } : {}),
        ...(args.font_scale !== undefined ? { font_scale: args.font_scale } : {}),
        ...(args.dark_mode !== undefined
          ? { night: args.dark_mode === 'on' ? 'yes' : args.dark_mode === 'off' ? 'no' : 'auto' }
          : {}),
      },
    });
    return {
      text: `${ctx.serial}: ${describeConfig(r.physical, r.current)} (was ${describeConfig(r.physical, r.before)}).${r.changed ? ` droidbus gives back ${describeConfig(r.physical, r.changed.previous)} when this session ends, or with restore_display_config.` : ''}`,
      structured: { ...r, device_serial: ctx.serial },
    };
  },
});

export const restoreDisplayConfig = defineDeviceTool({
  name: 'restore_display_config',
  answers: 'device.config_restore',
  toolset: 'device-settings',
  kind: 'write',
  title: 'Give back the display configuration',
  description:
    'Gives the device back the display size, density, font scale and dark mode it had before droidbus changed them (set_display_config, check_layout). Says what was given back.',
  output: deviceResponseOf('device.config_restore'),
  async handle(_args, ctx) {
    const r = await ctx.ask('device.config_restore', {});
    return {
      text:
        r.restored.length > 0
          ? `${ctx.serial}: gave back ${r.restored.join(', ')}: ${describeConfig(r.physical, r.current)}.`
          : `${ctx.serial}: droidbus had changed nothing; ${describeConfig(r.physical, r.current)}.`,
      structured: { ...r, device_serial: ctx.serial },
    };
  },
});

export const displayConfigTools = [setDisplayConfig, restoreDisplayConfig];
