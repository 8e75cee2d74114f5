import { z } from 'zod';

import { deviceInfoSchema } from '../../bus/messages/ui.js';
import { ArgumentError, defineTool } from '../define-tool.js';
import { deviceResponseOf, responseOf } from '../responses.js';
import { defineDeviceTool } from '../define-device-tool.js';

const listDevicesOutput = z.object({
  adb_server: z.object({ address: z.string(), up: z.boolean(), message: z.string() }),
  adb_servers: responseOf('devices.list').shape.servers,
  devices: responseOf('devices.list').shape.devices,
  online: z.number().int(),
});

export const listDevices = defineTool({
  name: 'list_devices',
  answers: 'devices.list',
  toolset: 'core',
  kind: 'read',
  title: 'List devices',
  description:
    'Lists the devices and emulators the adb server knows in every state, with model, connection (usb, tcp, emulator) and what the user must do for one that cannot be used yet. Starts a local adb server if none runs.',
  output: listDevicesOutput,
  projectIndependent: true,
  async handle(_args, ctx) {
    const { server, servers, devices } = await ctx.bus.request('devices.list', {}, { signal: ctx.signal });
    const online = devices.filter((d) => d.state === 'device').length;
    const lines = devices.map(
      (d) => `${d.serial}  ${d.state}  ${d.model ?? '?'}  (${d.connection})${d.hint ? ` — ${d.hint}` : ''}`,
    );
    const several = servers.length > 1;
    const head = several
      ? `${online} of ${devices.length} device${devices.length === 1 ? '' : 's'} online on ${servers.length} adb servers: ${servers.map((s) => `${s.label} ${s.address} ${s.up ? `(${s.devices})` : `unreachable: ${s.message}`}`).join('; ')}.`
      : server.up
        ? `${online} of ${devices.length} device${devices.length === 1 ? '' : 's'} online (adb server ${server.address}).`
        : `The adb server at ${server.address} is not reachable: ${server.message}`;
    return {
      text: [head, ...lines].join('\n'),
      structured: { adb_server: server, adb_servers: servers, devices, online },
    };
  },
});

export const getDeviceInfo = defineDeviceTool({
  name: 'get_device_info',
  answers: 'device.info',
  toolset: 'core',
  kind: 'read',
  title: 'Device info',
  description:
    "One device's facts: model, manufacturer, Android version and API level, ABI, emulator or not, screen size and density, battery level, the foreground app.",
  output: deviceInfoSchema,
  async handle(args, ctx) {
    const info = await ctx.ask('device.info', {});
    const lines = [
      `${info.serial}: ${[info.manufacturer, info.model].filter(Boolean).join(' ') || 'unknown model'}${info.is_emulator ? ' (emulator)' : ''}${info.adb_server !== null ? `, on adb server ${info.adb_server}` : ''}`,
      `Android ${info.android_version ?? '?'} (API ${info.sdk ?? '?'}), ${info.abi ?? 'unknown ABI'}`,
      info.screen
        ? `Screen ${info.screen.width}x${info.screen.height}${info.screen.density ? ` @ ${info.screen.density} dpi` : ''}${info.screen.override ? ` (override ${info.screen.override})` : ''}`
        : 'Screen size unknown',
      ...(info.battery_level !== null ? [`Battery ${info.battery_level}%`] : []),
      info.foreground
        ? `Foreground: ${info.foreground.activity ?? info.foreground.package}`
        : 'Foreground: unknown',
      ...(info.droidbus_changes !== null
        ? [
            `Changed by droidbus (${info.droidbus_changes.by}, since ${info.droidbus_changes.since}): ${info.droidbus_changes.settings.join(', ')} — given back when that session ends, or with restore_display_config`,
          ]
        : []),
    ];
    return { text: lines.join('\n'), structured: info };
  },
});

export const getPowerState = defineDeviceTool({
  name: 'get_power_state',
  answers: 'device.power_state',
  toolset: 'device-settings',
  kind: 'read',
  title: 'Power state',
  description:
    'Whether the device is awake or asleep, its display power state, what powers it and whether the screen stays on while plugged in: why a screenshot came out black or a test stalled.',
  output: deviceResponseOf('device.power_state'),
  async handle(_args, ctx) {
    const p = await ctx.ask('device.power_state', {});
    const known = (v: boolean | null, yes: string, no: string): string => (v === null ? '?' : v ? yes : no);
    return {
      text: `${ctx.serial}: ${p.wakefulness ?? 'wakefulness unknown'}, display ${p.display_state ?? '?'}; ${known(p.powered, `powered (${p.plugged?.join(', ') || '?'})`, 'on battery')}${p.battery_level !== null ? ` at ${p.battery_level}%` : ''}; stay awake while plugged in ${known(p.stay_on, 'on', 'off')}.`,
      structured: { ...p, device_serial: ctx.serial },
    };
  },
});

export const screenshot = defineDeviceTool({
  name: 'screenshot',
  answers: 'device.screenshot',
  toolset: 'ui',
  kind: 'read',
  title: 'Screenshot',
  description: 'Takes a screenshot with its scale (device pixels per image pixel, for ui_tap).',
  input: z.object({
    max_dimension: z
      .number()
      .int()
      .min(256)
      .max(8192)
      .optional()
      .describe('Long edge of the returned image in pixels (default 1024)'),
    full_size: z.boolean().optional().describe('Unscaled (not with max_dimension)'),
    annotate: z.boolean().default(false).describe('Number the interactive elements and return the legend'),
    format: z.enum(['png', 'jpeg', 'webp']).optional().describe('Encoding (default jpeg; png is lossless)'),
  }),
  output: responseOf('device.screenshot').pick({
    mime: true,
    deviceWidth: true,
    deviceHeight: true,
    imageWidth: true,
    imageHeight: true,
    scale: true,
    hint: true,
    legend: true,
  }),
  async handle(args, ctx) {
    if (args.full_size && args.max_dimension !== undefined) {
      throw new ArgumentError('Pass either max_dimension or full_size: true, not both.');
    }
    const shot = await ctx.ask('device.screenshot', {
      annotate: args.annotate,
      ...(args.max_dimension !== undefined ? { max_dimension: args.max_dimension } : {}),
      ...(args.full_size !== undefined ? { full_size: args.full_size } : {}),
      ...(args.format !== undefined ? { format: args.format } : {}),
    });
    const structured = {
      mime: shot.mime,
      deviceWidth: shot.deviceWidth,
      deviceHeight: shot.deviceHeight,
      imageWidth: shot.imageWidth,
      imageHeight: shot.imageHeight,
      scale: shot.scale,
      hint: shot.hint,
      legend: shot.legend,
    };
    return {
      before: [
        {
          type: 'image',
          data: Buffer.from(shot.png.buffer, shot.png.byteOffset, shot.png.byteLength).toString('base64'),
          mimeType: shot.mime,
        },
      ],
      text: JSON.stringify(structured),
      structured,
    };
  },
});

export const deviceTools = [listDevices, getDeviceInfo, getPowerState, screenshot];
