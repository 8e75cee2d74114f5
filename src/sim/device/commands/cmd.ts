import type { CommandContext, CommandFn } from '../../shell/command.js';
import type { Device } from '../device.js';
import { am } from './am.js';
import { appops } from './appops.js';
import { lockSettingsCommand } from '../lock-screen.js';
import { input } from './input.js';
import { pm } from './pm.js';
import { ime, settings, wm } from './settings-commands.js';
import { since } from '../android-versions.js';

/**
 * `cmd locale`: an app's own locales (LocaleManagerShellCommand, Android 13): `set-app-locales PKG
 * [--user U] [--locales TAGS]` (no --locales: the system's again), `get-app-locales PKG`.
 */
async function localeCommand(ctx: CommandContext<Device>, args: string[]): Promise<number> {
  const [sub, pkg, ...options] = args;
  if (sub !== 'set-app-locales' && sub !== 'get-app-locales') {
    await ctx.stdout.write('Locale manager (locale) shell commands:\n  help\n      Print this help text.\n');
    return sub === undefined || sub === 'help' ? 0 : 255;
  }
  if (pkg === undefined) {
    await ctx.stderr.write('Error: no package specified\n');
    return 255;
  }
  const p = ctx.host.packages.get(pkg);
  if (p === undefined) {
    await ctx.stdout.write(`Unknown package ${pkg} for userId 0\n`);
    return 0;
  }
  if (sub === 'get-app-locales') {
    await ctx.stdout.write(`Locales for ${pkg} for user 0 are [${p.locales ?? ''}]\n`);
    return 0;
  }
  const at = options.indexOf('--locales');
  p.locales = at >= 0 ? (options[at + 1] ?? '') : '';
  return 0;
}

const SERVICES = [
  'activity',
  'battery',
  'connectivity',
  'input',
  'input_method',
  'notification',
  'package',
  'phone',
  'settings',
  'statusbar',
  'uimode',
  'wifi',
  'window',
];

/** `cmd connectivity airplane-mode [enable|disable]` (API 30+). */
async function connectivity(ctx: CommandContext<Device>, dev: Device, rest: string[]): Promise<number> {
  // ConnectivityService got its airplane-mode shell command in Android 11 (API 30).
  if (rest[0] !== 'airplane-mode' || !since(dev.sdk, 'airplaneModeCommand')) {
    await ctx.stderr.write(`Unknown command: ${rest[0] ?? ''}\n`);
    return 255;
  }
  const v = rest[1];
  if (v === undefined) {
    await ctx.stdout.write(dev.settings.flag('airplane_mode_on') ? 'enabled\n' : 'disabled\n');
    return 0;
  }
  if (v !== 'enable' && v !== 'disable') {
    await ctx.stderr.write(`Unsupported argument: ${v}\n`);
    return 255;
  }
  dev.settings.put('global', 'airplane_mode_on', v === 'enable' ? '1' : '0');
  return 0;
}

/** `cmd wifi status` and `cmd wifi set-wifi-enabled enabled|disabled`. */
async function wifi(ctx: CommandContext<Device>, dev: Device, rest: string[]): Promise<number> {
  const [verb, value] = rest;
  if (verb === 'status') {
    const on = dev.settings.flag('wifi_on') && !dev.settings.flag('airplane_mode_on');
    await ctx.stdout.write(
      on
        ? 'Wifi is enabled\nWifi scanning is always available\n==== Primary ClientModeManager instance ====\nWifi is connected to "AndroidWifi"\n'
        : 'Wifi is disabled\nWifi scanning is always available\n',
    );
    return 0;
  }
  if (verb === 'set-wifi-enabled' && (value === 'enabled' || value === 'disabled')) {
    dev.settings.put('global', 'wifi_on', value === 'enabled' ? '1' : '0');
    return 0;
  }
  await ctx.stderr.write(`Unknown command: ${verb ?? ''}\n`);
  return 255;
}

/**
 * `cmd phone data enable|disable`: TelephonyShellCommand's data test mode (packages/services/Telephony/
 * src/com/android/phone/TelephonyShellCommand.java), silent on success.
 */
async function phone(ctx: CommandContext<Device>, dev: Device, rest: string[]): Promise<number> {
  const [verb, value] = rest;
  if (verb === 'data' && (value === 'enable' || value === 'disable')) {
    dev.settings.put('global', 'mobile_data', value === 'enable' ? '1' : '0');
    return 0;
  }
  await ctx.stderr.write(`Unknown command: ${verb ?? ''}\n`);
  return 255;
}

/** `cmd notification post [-t TITLE] TAG TEXT` (the shell posts it). */
async function notification(ctx: CommandContext<Device>, dev: Device, rest: string[]): Promise<number> {
  if (rest[0] !== 'post') {
    return 0;
  }
  let title = '';
  const words: string[] = [];
  for (let i = 1; i < rest.length; i++) {
    const a = rest[i] as string;
    if (a === '-t' || a === '--title') {
      title = rest[++i] ?? '';
    } else if (
      a === '-S' ||
      a === '--style' ||
      a === '-c' ||
      a === '--content-intent' ||
      a === '-i' ||
      a === '-I' ||
      a === '--icon' ||
      a === '--large-icon'
    ) {
      i++;
    } else if (!a.startsWith('-')) {
      words.push(a);
    }
  }
  const [tag = 'shell', ...text] = words;
  dev.postNotification({
    pkg: 'com.android.shell',
    tag,
    title: title === '' ? tag : title,
    text: text.join(' '),
    subText: null,
    channel: 'shell_cmd',
    ongoing: false,
    importance: 3,
    actions: [],
  });
  return 0;
}

/** `cmd statusbar expand-notifications|expand-settings|collapse`: the shade. */
async function statusbar(ctx: CommandContext<Device>, dev: Device, rest: string[]): Promise<number> {
  const verb = rest[0];
  if (verb === 'expand-notifications' || verb === 'expand-settings') {
    dev.ui.shadeOpen = true;
  } else if (verb === 'collapse') {
    dev.ui.shadeOpen = false;
  } else if (
    verb !== undefined &&
    !['help', 'send-disable-flag', 'click-tile', 'add-tile', 'remove-tile'].includes(verb)
  ) {
    await ctx.stderr.write(`Unknown command: ${verb}\n`);
    return 255;
  }
  return 0;
}

/**
 * `cmd location is-location-enabled` / `set-location-enabled true|false` (AOSP LocationShellCommand,
 * Android 11+): `true` or `false` on a line; the switch is Settings.Secure location_mode (3 on, 0 off),
 * which LocationManager.setLocationEnabledForUser writes. appium-adb reads and sets it this way.
 */
async function location(ctx: CommandContext<Device>, dev: Device, rest: string[]): Promise<number> {
  const [verb, value] = rest;
  if (verb === 'is-location-enabled') {
    await ctx.stdout.write(`${(dev.settings.get('secure', 'location_mode') ?? '0') !== '0'}\n`);
    return 0;
  }
  if (verb === 'set-location-enabled' && (value === 'true' || value === 'false')) {
    dev.settings.put('secure', 'location_mode', value === 'true' ? '3' : '0');
    return 0;
  }
  await ctx.stderr.write(`Unknown command: ${verb ?? ''}\n`);
  return 255;
}

/** `cmd SERVICE …`: the binder shell commands, routed to the same built-ins as their wrappers. */
export const cmd: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  // `-w` waits for the service to start (frameworks/native/cmds/cmd/cmd.cpp); every one here runs.
  const args = ctx.argv.slice(1);
  const [service, ...rest] = args[0] === '-w' ? args.slice(1) : args;
  const delegate = (fn: CommandFn<Device>, name: string): Promise<number> =>
    fn({ ...ctx, argv: [name, ...rest] });
  switch (service) {
    case 'package':
      return delegate(pm, 'pm');
    case 'activity':
      return delegate(am, 'am');
    case 'input':
      return delegate(input, 'input');
    case 'input_method':
      return delegate(ime, 'ime');
    case 'window':
      return delegate(wm, 'wm');
    case 'settings':
      return delegate(settings, 'settings');
    case 'connectivity':
      return connectivity(ctx, dev, rest);
    case 'wifi':
      return wifi(ctx, dev, rest);
    case 'notification':
      return notification(ctx, dev, rest);
    case 'statusbar':
      return statusbar(ctx, dev, rest);
    case 'appops':
      return delegate(appops, 'appops');
    case 'lock_settings':
      return delegate(lockSettingsCommand, 'locksettings');
    case 'phone':
      return phone(ctx, dev, rest);
    case 'location':
      return location(ctx, dev, rest);
    case 'battery':
      return 0;
    case 'locale':
      if (since(ctx.host.sdk, 'appLocales')) {
        return localeCommand(ctx, rest);
      }
      await ctx.stderr.write(`cmd: Can't find service: ${service}\n`);
      return 20;
    case 'uimode': {
      // UiModeManagerService's shell: `night [yes|no|auto]` sets the mode, then prints the one in force.
      if (rest[0] === 'night') {
        const mode = rest[1];
        if (mode === 'yes' || mode === 'no' || mode === 'auto') {
          ctx.host.nightMode = mode;
        } else if (mode !== undefined) {
          await ctx.stderr.write(`Error: mode must be 'yes', 'no', or 'auto'\n`);
          return 255;
        }
        await ctx.stdout.write(`Night mode: ${ctx.host.nightMode}\n`);
      }
      return 0;
    }
    case '-l':
      await ctx.stdout.write('Currently running services:\n' + SERVICES.map((s) => `  ${s}\n`).join(''));
      return 0;
    case undefined:
      await ctx.stderr.write(
        'cmd: No service specified; use -l to list all running services. Use -w to start and wait for a service.\n',
      );
      return 20;
    default:
      await ctx.stderr.write(`cmd: Can't find service: ${service}\n`);
      return 20;
  }
};
