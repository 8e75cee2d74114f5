/** A device's display size, density, font scale and dark mode, changed with a guaranteed undo (issue 74). */
import { z } from 'zod';
import { describeDisplay } from '../../bus/messages/device-config.js';
import { ORIENTATIONS, ROTATION_OF } from '../../util/app-args.js';
import { localeTagsSchema } from '../../store/formats/display-config.js';
import { componentSchema, dataUriSchema, packageNameSchema } from '../../bus/messages/extras.js';
import { ArgumentError } from '../define-tool.js';
import { defineDeviceTool } from '../define-device-tool.js';
import { deviceResponseOf } from '../responses.js';

const sizeParam = z
  .string()
  .regex(/^(\d{3,5}x\d{3,5}|reset)$/, 'WIDTHxHEIGHT in pixels, or reset')
  .describe('Display size WIDTHxHEIGHT in pixels (e.g. 720x1280), or reset to the panel');

export const setDisplayConfig = defineDeviceTool({
  name: 'set_display_config',
  answers: 'device.config_set',
  toolset: 'device-settings',
  kind: 'write',
  title: 'Change display size, density, font, theme, animations or orientation',
  description:
    "Sets the display size and density (wm size / wm density), the font scale, dark mode, animations, orientation and an app's own language (Android 13+), to see a screen as other phones and users do. The values before droidbus's first change are recorded and given back when the session ends (also after a crash) or with restore_display_config. Refused with the device's limits when it cannot show it; BUSY while another session's changes stand.",
  input: z.object({
    size: sizeParam.optional(),
    density: z
      .union([z.number().int().min(1).max(2000), z.literal('reset')])
      .optional()
      .describe('Density in dpi (e.g. 320), or reset'),
    font_scale: z.number().min(0.1).max(10).optional().describe('Font scale, 0.85–2.0 (1.3: large text)'),
    dark_mode: z.enum(['on', 'off', 'auto']).optional().describe('Dark theme on, off or by the time of day'),
    animations: z.enum(['on', 'off']).optional().describe('System animations (the three scales) on or off'),
    orientation: z
      .enum(ORIENTATIONS)
      .optional()
      .describe('portrait, landscape, reverse_portrait, reverse_landscape or auto (the accelerometer)'),
    app_locale: z
      .object({
        package: packageNameSchema.describe('Application id (com.example.app)'),
        locales: localeTagsSchema.describe("Language tags, e.g. ar or fr,en; '' for the system's"),
      })
      .strict()
      .optional()
      .describe("An app's own language (Android 13+)"),
  }),
  output: deviceResponseOf('device.config_set'),
  async handle(args, ctx) {
    if (
      args.size === undefined &&
      args.density === undefined &&
      args.font_scale === undefined &&
      args.dark_mode === undefined &&
      args.animations === undefined &&
      args.orientation === undefined &&
      args.app_locale === undefined
    ) {
      throw new ArgumentError(
        'Give size, density, font_scale, dark_mode, animations, orientation or app_locale.',
      );
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
        ...(args.app_locale !== undefined ? { app_locale: args.app_locale } : {}),
        ...(args.animations !== undefined
          ? {
              animations:
                args.animations === 'on'
                  ? { window: 1, transition: 1, animator: 1 }
                  : { window: 0, transition: 0, animator: 0 },
            }
          : {}),
        ...(args.orientation !== undefined
          ? {
              rotation:
                args.orientation === 'auto'
                  ? { accelerometer: true, user: null }
                  : { accelerometer: false, user: ROTATION_OF[args.orientation] },
            }
          : {}),
      },
    });
    return {
      text: `${ctx.serial}: ${describeDisplay(r.physical, r.current)} (was ${describeDisplay(r.physical, r.before)}).${r.changed ? ` droidbus gives back ${describeDisplay(r.physical, r.changed.previous)} when this session ends, or with restore_display_config.` : ''}`,
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
          ? `${ctx.serial}: gave back ${r.restored.join(', ')}: ${describeDisplay(r.physical, r.current)}.`
          : `${ctx.serial}: droidbus had changed nothing; ${describeDisplay(r.physical, r.current)}.`,
      structured: { ...r, device_serial: ctx.serial },
    };
  },
});

/**
 * check_layout's configurations when none are given (issue 74): a small phone (Android Studio's
 * "Small Phone", 720x1280 xhdpi) at font scale 1.3, the largest font (2.0, Android 14's), dark mode,
 * landscape, and the app in Arabic (right to left).
 */
export const DEFAULT_LAYOUT_CONFIGS = [
  { name: 'small phone, large font', size: { width: 720, height: 1280 }, density: 320, font_scale: 1.3 },
  { name: 'largest font', font_scale: 2 },
  { name: 'dark', night: 'yes' as const },
  { name: 'landscape', orientation: 'landscape' as const },
  { name: 'right to left', locale: 'ar' },
];

const layoutConfigParam = z
  .object({
    name: z.string().min(1).max(40).describe('What to call it in the answer'),
    size: sizeParam.optional(),
    density: z.number().int().min(1).max(2000).optional().describe('Density in dpi'),
    font_scale: z.number().min(0.1).max(10).optional().describe('Font scale, 0.85–2.0'),
    dark_mode: z.boolean().optional().describe('Dark theme on'),
    orientation: z.enum(['portrait', 'landscape']).optional().describe('Screen orientation'),
    locale: localeTagsSchema
      .optional()
      .describe('The app in front in this language (Android 13+); ar is right to left'),
  })
  .strict();

const KIND_WORDS: Readonly<Record<string, string>> = {
  text_cut: 'text cut',
  overlap: 'overlap',
  small_target: 'small touch target',
  missing: 'missing',
  low_contrast: 'low contrast',
  untranslated: 'not translated',
};

export const checkLayout = defineDeviceTool({
  name: 'check_layout',
  answers: 'device.check_layout',
  toolset: 'device-settings',
  kind: 'write',
  title: 'Check the screen at other sizes and settings',
  description:
    "Captures the current screen as it is, then under other display configurations (default: a small phone at font scale 1.3, the largest font, dark mode, landscape, Arabic right to left), and says what breaks in each: text cut off, overlapping or too small (< 48 dp) touch targets, elements gone, text under WCAG AA contrast, text left untranslated — with one contact-sheet image, problems numbered. activity or deep_link starts that screen afresh under each. The device's configuration is given back at the end.",
  input: z.object({
    configs: z
      .array(layoutConfigParam)
      .min(1)
      .max(8)
      .optional()
      .describe(
        'The configurations, each applied over the device as it is (default: five, see the description)',
      ),
    activity: componentSchema
      .optional()
      .describe('Start this activity afresh under each configuration (package/.Activity)'),
    deep_link: dataUriSchema.optional().describe('Or open this deep link afresh under each configuration'),
  }),
  output: deviceResponseOf('device.check_layout').omit({ sheet: true }),
  async handle(args, ctx) {
    const configs =
      args.configs?.map((c) => ({
        name: c.name,
        ...(c.size !== undefined && c.size !== 'reset'
          ? { size: { width: Number(c.size.split('x')[0]), height: Number(c.size.split('x')[1]) } }
          : {}),
        ...(c.density !== undefined ? { density: c.density } : {}),
        ...(c.font_scale !== undefined ? { font_scale: c.font_scale } : {}),
        ...(c.dark_mode !== undefined ? { night: c.dark_mode ? ('yes' as const) : ('no' as const) } : {}),
        ...(c.orientation !== undefined ? { orientation: c.orientation } : {}),
        ...(c.locale !== undefined ? { locale: c.locale } : {}),
      })) ?? DEFAULT_LAYOUT_CONFIGS;
    if (args.activity !== undefined && args.deep_link !== undefined) {
      throw new ArgumentError('Give activity or deep_link, not both.');
    }
    const r = await ctx.ask('device.check_layout', {
      configs,
      relaunch:
        args.activity !== undefined
          ? { component: args.activity }
          : args.deep_link !== undefined
            ? { deep_link: args.deep_link }
            : null,
    });
    const lines = r.configs.flatMap((c) => [
      `${c.name} (${c.description}): ${c.skipped !== null ? `not checked: ${c.skipped}` : c.findings.length === 0 ? 'no problems' : `${c.findings.length} problem${c.findings.length === 1 ? '' : 's'}`}`,
      ...c.findings.map(
        (f) =>
          `  ${f.n}. ${KIND_WORDS[f.kind] ?? f.kind}: "${f.label}"${f.resource_id ? ` ${f.resource_id}` : ''}${f.tree_path ? ` [${f.tree_path}]` : ''} — ${f.detail}`,
      ),
    ]);
    const { sheet, ...rest } = r;
    return {
      before: [
        {
          type: 'image',
          data: Buffer.from(sheet.buffer, sheet.byteOffset, sheet.byteLength).toString('base64'),
          mimeType: r.sheet_mime,
        },
      ],
      text: [
        `${ctx.serial}: the screen under ${r.configs.length} configurations (the contact sheet numbers the problems).`,
        ...lines,
        r.restored.length > 0 ? `Gave back: ${r.restored.join(', ')}.` : 'The device is as it was.',
      ].join('\n'),
      structured: { ...rest, device_serial: ctx.serial },
    };
  },
});

export const displayConfigTools = [setDisplayConfig, restoreDisplayConfig, checkLayout];
