import { z } from 'zod';
import { orientationSchema } from '../../bus/messages/admin.js';
import { dataUriSchema, packageNameSchema } from '../../bus/messages/extras.js';
import { wirelessNetworkRefusal } from '../../util/app-args.js';
import { ArgumentError } from '../define-tool.js';
import { deviceResponseOf, responseOf } from '../responses.js';
import { defineDeviceTool, type DeviceToolContext } from '../define-device-tool.js';

/** The device-admin tools that change the device: network, orientation, deep links, app settings. */

function onOff(v: boolean | null): string {
  return v === null ? 'unknown' : v ? 'on' : 'off';
}

export const setNetworkState = defineDeviceTool({
  name: 'set_network_state',
  answers: 'device.network',
  toolset: 'device-settings',
  kind: 'destructive',
  title: 'Set Wi-Fi, mobile data, airplane mode',
  description:
    'Turns Wi-Fi, mobile data or airplane mode on or off and returns `previous`, to revert. Over wireless adb, Wi-Fi off and airplane mode on are refused (they would drop adb).',
  input: z.object({
    wifi: z.boolean().optional().describe('Wi-Fi on (true) or off (false)'),
    mobile_data: z.boolean().optional().describe('Mobile data on (true) or off (false)'),
    airplane_mode: z.boolean().optional().describe('Airplane mode on (true) or off (false)'),
  }),
  output: deviceResponseOf('device.network'),
  async handle(args, ctx) {
    if (args.wifi === undefined && args.mobile_data === undefined && args.airplane_mode === undefined) {
      throw new ArgumentError('Nothing to change: pass wifi, mobile_data or airplane_mode.');
    }
    const { serial } = ctx;
    const refusal = wirelessNetworkRefusal(serial, args);
    if (refusal !== null) {
      throw new ArgumentError(refusal);
    }
    const r = await ctx.bus.request(
      'device.network',
      {
        serial,
        ...(args.wifi !== undefined ? { wifi: args.wifi } : {}),
        ...(args.mobile_data !== undefined ? { mobile_data: args.mobile_data } : {}),
        ...(args.airplane_mode !== undefined ? { airplane_mode: args.airplane_mode } : {}),
      },
      { signal: ctx.signal, origin: ctx.origin },
    );
    const state = (s: typeof r.current): string =>
      `Wi-Fi ${onOff(s.wifi)}, mobile data ${onOff(s.mobile_data)}, airplane mode ${onOff(s.airplane_mode)}`;
    return {
      text: `${serial}: ${state(r.current)} (was ${state(r.previous)}).`,
      structured: { device_serial: serial, ...r },
    };
  },
});

export const setDeviceOrientation = defineDeviceTool({
  name: 'set_device_orientation',
  answers: 'device.orientation',
  toolset: 'device-settings',
  kind: 'write',
  title: 'Set the screen orientation',
  description:
    'Locks the screen in portrait, landscape, reverse_portrait or reverse_landscape, or hands it back to the accelerometer (auto). Returns the previous setting.',
  input: z.object({ orientation: orientationSchema }),
  output: responseOf('device.orientation')
    .pick({ previous: true, current: true })
    .extend({ device_serial: z.string() }),
  async handle(args, ctx) {
    const { serial } = ctx;
    const r = await ctx.bus.request(
      'device.orientation',
      { serial, orientation: args.orientation },
      { signal: ctx.signal, origin: ctx.origin },
    );
    return {
      text: `${serial}: orientation ${r.current.orientation ?? 'unknown'} (was ${r.previous.orientation ?? 'unknown'}).`,
      structured: { device_serial: serial, ...r },
    };
  },
});

const intentOutput = responseOf('device.send_intent')
  .pick({ command: true, output: true })
  .extend({ device_serial: z.string() });

/** Starts the activity that handles `action` on `dataUri` (`am start -W`), as the caller. */
async function startView(ctx: DeviceToolContext, action: string, dataUri: string) {
  const r = await ctx.ask(
    'device.send_intent',
    { mode: 'start', action, data_uri: dataUri, extras: [] },
    { origin: ctx.origin },
  );
  return { device_serial: ctx.serial, command: r.command, output: r.output };
}

export const openDeepLink = defineDeviceTool({
  name: 'open_deep_link',
  answers: 'device.send_intent',
  toolset: 'device-admin',
  kind: 'write',
  title: 'Open a deep link',
  description:
    'Opens a URI the way a tapped link does (a VIEW intent, `am start -W`), e.g. myapp://item/42 or https://example.com/item/42. Schemes that open no app (javascript, data, file, content, intent…) are refused.',
  input: z.object({
    uri: dataUriSchema.describe('The link, e.g. myapp://item/42 or https://example.com/item/42'),
  }),
  output: intentOutput,
  async handle(args, ctx) {
    const structured = await startView(ctx, 'android.intent.action.VIEW', args.uri);
    return {
      text: `Opened ${args.uri} on ${ctx.serial}.\n${structured.output}`,
      structured,
      steps: [{ do: 'open_link', url: args.uri }],
    };
  },
});

export const openAppSettings = defineDeviceTool({
  name: 'open_app_settings',
  answers: 'device.send_intent',
  toolset: 'device-settings',
  kind: 'write',
  title: "Open an app's settings",
  description:
    "Opens a package's system App info screen (permissions, storage, notifications, force stop); drive it with the ui tools.",
  input: z.object({
    package: packageNameSchema.describe('The package whose App info screen to open, e.g. com.example.app'),
  }),
  output: intentOutput,
  async handle(args, ctx) {
    const structured = await startView(
      ctx,
      'android.settings.APPLICATION_DETAILS_SETTINGS',
      `package:${args.package}`,
    );
    return { text: `Opened the App info screen of ${args.package} on ${ctx.serial}.`, structured };
  },
});

export const adminDeviceTools = [setNetworkState, setDeviceOrientation, openDeepLink, openAppSettings];
