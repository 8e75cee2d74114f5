import { z } from 'zod';
import { limitParam } from '../params.js';
import { deviceResponseOf, responseOf } from '../responses.js';

import { defineDeviceTool } from '../define-device-tool.js';
import { projectScope } from './project-package.js';

export const listApps = defineDeviceTool({
  name: 'list_apps',
  answers: 'device.list_apps',
  toolset: 'core',
  kind: 'read',
  title: 'List installed apps',
  description:
    "Lists installed apps (third-party by default; the project's first, marked): localized label, package, version, enabled, system, install/update times.",
  input: z.object({
    third_party_only: z
      .boolean()
      .default(true)
      .describe('Only apps the user or a tool installed (default true)'),
    limit: limitParam('Apps', 200, 1000),
  }),
  output: deviceResponseOf('device.list_apps'),
  async handle(args, ctx) {
    const { serial } = ctx;
    const scope =
      ctx.session.project.root === null
        ? undefined
        : (await projectScope(ctx, "the project's apps cannot be marked")).scope;
    const r = await ctx.ask('device.list_apps', {
      third_party_only: args.third_party_only,
      limit: args.limit,
      ...(scope ? { scope } : {}),
    });
    const mine = new Set(r.project_packages);
    const tell = variantMarks(r.apps);
    const lines = r.apps.map(
      (a) =>
        `${a.label === null ? '' : `${JSON.stringify(a.label)}${tell.get(a.package) ?? ''} `}${a.package} ${a.version_name ?? '?'} (${a.version_code ?? '?'})${mine.has(a.package) ? ' [project]' : ''}${a.enabled === false ? ' [disabled]' : ''}  installed ${a.first_install_time ?? '?'}, updated ${a.last_update_time ?? '?'}`,
    );
    return {
      text: [
        `${r.total} app${r.total === 1 ? '' : 's'} on ${serial}${r.truncated ? ` (first ${r.apps.length})` : ''}:`,
        ...lines,
        ...(r.labels_unread.length > 0
          ? [
              `(labels of ${r.labels_unread.length} apps not read within this call's budget; list again to read them)`,
            ]
          : []),
      ].join('\n'),
      structured: { device_serial: serial, ...r },
    };
  },
});

/**
 * For apps that share a label (a project's variants: `com.example`, `com.example.demo`,
 * `com.example.demo.debug`), what tells each apart: its package after the part they all share
 * (` [.demo.debug]`), or ` [base]` for the one that is the shared part.
 */
export function variantMarks(
  apps: readonly { label: string | null; package: string }[],
): Map<string, string> {
  const byLabel = new Map<string, string[]>();
  for (const a of apps) {
    if (a.label !== null) {
      byLabel.set(a.label, [...(byLabel.get(a.label) ?? []), a.package]);
    }
  }
  const marks = new Map<string, string>();
  for (const pkgs of byLabel.values()) {
    if (pkgs.length < 2) {
      continue;
    }
    const parts = pkgs.map((p) => p.split('.'));
    let shared = 0;
    while (parts.every((p) => p[shared] !== undefined && p[shared] === parts[0]![shared])) {
      shared++;
    }
    for (const [i, p] of parts.entries()) {
      const rest = p.slice(shared).join('.');
      marks.set(pkgs[i]!, rest === '' ? ' [base]' : ` [.${rest}]`);
    }
  }
  return marks;
}

export const listWindows = defineDeviceTool({
  name: 'list_windows',
  answers: 'device.windows',
  toolset: 'device-extras',
  kind: 'read',
  title: 'List windows',
  description:
    "Lists every window on the device's screen from `dumpsys window windows`, top-most first: title, package, type and kind (application, system_dialog, input_method, status_bar, navigation_bar, notification_shade, wallpaper, toast, overlay, system), focused, visible and frame — so a permission dialog, an ANR dialog, the shade or the keyboard over the app is visible. Also says which system window covers the app and whether the keyboard is open.",
  output: deviceResponseOf('device.windows'),
  async handle(args, ctx) {
    const { serial } = ctx;
    const r = await ctx.ask('device.windows', {});
    const lines = r.windows.map((w) => {
      const f = w.frame ? ` [${w.frame.left},${w.frame.top}][${w.frame.right},${w.frame.bottom}]` : '';
      return `#${w.index} ${w.kind} ${w.title}${w.package ? ` (${w.package})` : ''}${f}${w.visible ? '' : ' hidden'}${w.focused ? ' focused' : ''}`;
    });
    const notes = [
      r.system_dialog
        ? `A system window is over the app: ${r.system_dialog.title} (${r.system_dialog.package ?? '?'}).`
        : null,
      r.ime_visible ? 'The soft keyboard is open.' : null,
    ].filter(Boolean);
    return {
      text: [
        `${r.windows.length} windows on ${serial}; focused: ${r.focused ?? 'unknown'}.`,
        ...notes,
        ...lines,
      ].join('\n'),
      structured: { device_serial: serial, ...r },
    };
  },
});

export const getDeviceLocation = defineDeviceTool({
  name: 'get_device_location',
  answers: 'device.location',
  toolset: 'device-extras',
  kind: 'read',
  title: 'Device location',
  description:
    "The device's last known location fix of each provider (gps, network, fused, passive) from `dumpsys location`: latitude, longitude, altitude, accuracy and how old the fix is. It reads what the device already knows and never turns on a provider.",
  output: deviceResponseOf('device.location'),
  async handle(args, ctx) {
    const { serial } = ctx;
    const r = await ctx.ask('device.location', {});
    const fine = r.fixes.filter((f) => !f.coarse);
    const lines = fine.map(
      (f) =>
        `${f.provider}: ${f.latitude}, ${f.longitude}${f.altitude !== null ? ` alt ${f.altitude} m` : ''}${f.accuracy_m !== null ? ` ±${f.accuracy_m} m` : ''}${f.age_ms !== null ? `, ${Math.round(f.age_ms / 1000)} s old` : ''}`,
    );
    const head =
      r.location_enabled === false
        ? `Location is off on ${serial}.`
        : fine.length === 0
          ? `No provider on ${serial} has a last known location.`
          : `Last known locations on ${serial}:`;
    return { text: [head, ...lines].join('\n'), structured: { device_serial: serial, ...r } };
  },
});

export const setEmulatorLocation = defineDeviceTool({
  name: 'set_emulator_location',
  answers: 'device.set_emulator_location',
  toolset: 'device-extras',
  kind: 'write',
  title: 'Set the emulator location',
  description:
    "Sets an emulator's GPS location through its console (`geo fix LONGITUDE LATITUDE [ALTITUDE]`, as `adb emu geo fix` does, with the console token from ~/.emulator_console_auth_token). Only for emulator serials (emulator-N) running on this machine; a real device is refused. get_device_location shows the new fix.",
  serialDescription: 'An emulator serial, e.g. emulator-5554',
  input: z.object({
    latitude: z.number().min(-90).max(90).describe('Latitude in degrees, -90 to 90'),
    longitude: z.number().min(-180).max(180).describe('Longitude in degrees, -180 to 180'),
    altitude: z.number().min(-10_000).max(100_000).optional().describe('Altitude in metres'),
  }),
  output: responseOf('device.set_emulator_location')
    .pick({ console_port: true, command: true })
    .extend({ device_serial: z.string() }),
  async handle(args, ctx) {
    const r = await ctx.ask('device.set_emulator_location', {
      latitude: args.latitude,
      longitude: args.longitude,
      ...(args.altitude !== undefined ? { altitude: args.altitude } : {}),
    });
    return {
      text: `Set ${ctx.serial}'s location to ${args.latitude}, ${args.longitude}${args.altitude !== undefined ? ` (${args.altitude} m)` : ''} with \`${r.command}\` on console port ${r.console_port}.`,
      structured: { device_serial: ctx.serial, ...r },
    };
  },
});

export const deviceExtraTools = [listApps, listWindows, getDeviceLocation, setEmulatorLocation];
