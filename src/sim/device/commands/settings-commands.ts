/**
 * Evidence:
 * frameworks/base/packages/SettingsProvider/src/com/android/providers/settings/SettingsService.java
 * (`settings`), WindowManagerShellCommand.java (`wm`), system/core/toolbox/getprop.cpp and
 * setprop.cpp, system/core/toolbox/start.cpp (`start`, `stop`), system/core/init/property_service.cpp
 * (what root may set), SettingsProvider.java updateLocationProvidersAllowedLocked, frameworks/base/cmds/svc
 * (`svc`), InputMethodManagerService's shell command (`ime`).
 */
import type { CommandFn } from '../../shell/command.js';
import type { Device } from '../device.js';
import { ADB_KEYBOARD_PACKAGE } from '../packages.js';
import { since } from '../android-versions.js';
import { shellMaySetProp } from '../props.js';
import { ADB_KEYBOARD_IME, GBOARD_IME, isNamespace } from '../settings.js';

const LOCATION_PROVIDERS = 'location_providers_allowed';

/** Java's String.hashCode, the order android.util.ArraySet keeps its items in. */
function javaHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) {
    h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  }
  return h;
}

/**
 * SettingsProvider.updateLocationProvidersAllowedLocked (Android 10/11): `+gps,-network` adds and
 * removes providers from the enabled list (an ArraySet, joined by commas in its hash order); a part
 * without a sign, or an empty one, changes nothing (null).
 */
function locationProvidersAfter(old: string, value: string): string | null {
  const set = new Set(old === '' ? [] : old.split(','));
  for (const part of value.split(',')) {
    if (part === '' || (part[0] !== '+' && part[0] !== '-')) {
      return null;
    }
    if (part[0] === '+') {
      set.add(part.slice(1));
    } else {
      set.delete(part.slice(1));
    }
  }
  return [...set].sort((a, b) => javaHash(a) - javaHash(b)).join(',');
}

/** `settings get|put|delete|list NAMESPACE …`. */
export const settings: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const args = ctx.argv
    .slice(1)
    .filter((a, i, all) => a !== '--user' && all[i - 1] !== '--user' && a !== '--lineage');
  const [verb, ns, key, ...values] = args;
  if (verb === undefined) {
    await ctx.stdout.write(
      'Settings provider (settings) commands:\n  help\n      Print this help text.\n  get [--user <USER_ID> | current] NAMESPACE KEY\n      Retrieve the current value of KEY.\n  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default]\n      Change the contents of KEY to VALUE.\n  delete [--user <USER_ID> | current] NAMESPACE KEY\n      Delete the entry for KEY.\n  list [--user <USER_ID> | current] NAMESPACE\n      Print all defined keys.\n',
    );
    return 0;
  }
  if (!isNamespace(ns)) {
    await ctx.stderr.write(`Invalid namespace '${ns ?? ''}'\n`);
    return 1;
  }
  switch (verb) {
    case 'get':
      await ctx.stdout.write(`${(key === undefined ? undefined : dev.settings.get(ns, key)) ?? 'null'}\n`);
      return 0;
    case 'put': {
      const value = values[0];
      if (key === undefined || value === undefined) {
        await ctx.stderr.write('Usage: settings put NAMESPACE KEY VALUE\n');
        return 1;
      }
      if (ns === 'secure' && key === LOCATION_PROVIDERS && !since(dev.sdk, 'locationProvidersAsIs')) {
        const next = locationProvidersAfter(dev.settings.get(ns, key) ?? '', value);
        if (next !== null) {
          dev.settings.put(ns, key, next);
        }
        return 0;
      }
      dev.settings.put(ns, key, value);
      return 0;
    }
    case 'delete': {
      const deleted = key !== undefined && dev.settings.delete(ns, key);
      await ctx.stdout.write(`Deleted ${deleted ? 1 : 0} rows\n`);
      return 0;
    }
    case 'list':
      await ctx.stdout.write(
        dev.settings
          .list(ns)
          .map(([k, v]) => `${k}=${v}\n`)
          .join(''),
      );
      return 0;
    default:
      await ctx.stderr.write(`Invalid command: ${verb}\n`);
      return 1;
  }
};

/** `wm size|density|user-rotation …`. */
export const wm: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const [sub, ...rest] = ctx.argv.slice(1);
  const arg = rest.filter((a, i) => a !== '-d' && rest[i - 1] !== '-d')[0];
  switch (sub) {
    case 'size': {
      if (arg === undefined) {
        let out = `Physical size: ${dev.identity.width}x${dev.identity.height}\n`;
        if (dev.wmSize !== null) {
          out += `Override size: ${dev.wmSize[0]}x${dev.wmSize[1]}\n`;
        }
        await ctx.stdout.write(out);
        return 0;
      }
      if (arg === 'reset') {
        dev.wmSize = null;
        return 0;
      }
      const m = /^(\d+)x(\d+)$/.exec(arg);
      if (m === null) {
        await ctx.stderr.write(`Error: bad size ${arg}\n`);
        return 255;
      }
      dev.wmSize = [Number(m[1]), Number(m[2])];
      return 0;
    }
    case 'density': {
      if (arg === undefined) {
        let out = `Physical density: ${dev.identity.density}\n`;
        if (dev.wmDensity !== null) {
          out += `Override density: ${dev.wmDensity}\n`;
        }
        await ctx.stdout.write(out);
        return 0;
      }
      if (arg === 'reset') {
        dev.wmDensity = null;
        return 0;
      }
      if (!/^\d+$/.test(arg)) {
        await ctx.stderr.write(`Error: bad number ${arg}\n`);
        return 255;
      }
      dev.wmDensity = Number(arg);
      return 0;
    }
    case 'user-rotation': {
      const [mode, value] = rest;
      if (mode === undefined) {
        const locked = dev.settings.get('system', 'accelerometer_rotation') === '0';
        await ctx.stdout.write(
          locked ? `lock ${dev.settings.get('system', 'user_rotation') ?? '0'}\n` : 'free\n',
        );
        return 0;
      }
      if (mode === 'free') {
        dev.settings.put('system', 'accelerometer_rotation', '1');
      } else {
        dev.settings.put('system', 'accelerometer_rotation', '0');
        dev.settings.put('system', 'user_rotation', value ?? '0');
      }
      return 0;
    }
    case 'dismiss-keyguard':
      dev.ui.lock.dismiss();
      return 0;
    case 'overscan':
      return 0;
    default:
      await ctx.stderr.write(`Unknown command: ${sub ?? ''}\n`);
      return 255;
  }
};

/** `svc wifi|data enable|disable`, `svc power stayon …`. */
export const svc: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const [service, verb, value] = ctx.argv.slice(1);
  const key =
    service === 'wifi'
      ? 'wifi_on'
      : service === 'data'
        ? 'mobile_data'
        : service === 'bluetooth'
          ? 'bluetooth_on'
          : null;
  if (key !== null && (verb === 'enable' || verb === 'disable')) {
    dev.settings.put('global', key, verb === 'enable' ? '1' : '0');
    return 0;
  }
  if (service === 'power' && verb === 'stayon') {
    dev.settings.put(
      'global',
      'stay_on_while_plugged_in',
      value === 'true'
        ? '7'
        : value === 'usb'
          ? '2'
          : value === 'ac'
            ? '1'
            : value === 'wireless'
              ? '4'
              : '0',
    );
    return 0;
  }
  if (service === undefined) {
    await ctx.stdout.write(
      'Available commands:\n    help     Show information about the subcommands\n    power    Control the power manager\n    data     Control mobile data connectivity\n    wifi     Control the Wi-Fi manager\n    usb      Control Usb state\n    nfc      Control NFC functions\n    bluetooth Control Bluetooth service\n',
    );
    return 0;
  }
  await ctx.stdout.write(`Control the ${service} manager\n\nusage: svc ${service} [enable|disable]\n`);
  return 0;
};

/** `getprop [NAME [DEFAULT]]`. */
export const getprop: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const [name, fallback] = ctx.argv.slice(1).filter((a) => !a.startsWith('-'));
  if (name !== undefined) {
    await ctx.stdout.write(`${dev.prop(name) ?? fallback ?? ''}\n`);
    return 0;
  }
  const all = new Map(dev.baseProps);
  for (const [k, v] of dev.propOverrides) {
    all.set(k, v);
  }
  const keys = [...all.keys()].sort();
  await ctx.stdout.write(keys.map((k) => `[${k}]: [${all.get(k) ?? ''}]\n`).join(''));
  return 0;
};

/** `setprop NAME VALUE` (the shell user may not set ro., sys., persist.sys. …). */
export const setprop: CommandFn<Device> = async (ctx) => {
  const [name, value] = ctx.argv.slice(1);
  if (name === undefined || value === undefined) {
    await ctx.stderr.write('usage: setprop NAME VALUE\n\nSets an Android system property.\n');
    return 1;
  }
  // Root (`adb root`: the su domain, which SELinux lets set any property) may set all but a `ro.`
  // property that has its value already (property_service.cpp: read-only once set).
  const dev = ctx.host;
  const allowed = dev.fs.superuser
    ? !(name.startsWith('ro.') && (dev.prop(name) ?? '') !== '') && /^[A-Za-z0-9_.\-:@]+$/.test(name)
    : shellMaySetProp(name);
  if (!allowed) {
    await ctx.stderr.write(`Failed to set property '${name}' to '${value}'.\nSee dmesg for error reason.\n`);
    return 1;
  }
  if (name === 'ctl.start' || name === 'ctl.stop') {
    controlService(dev, name === 'ctl.start', value);
    return 0;
  }
  dev.propOverrides.set(name, value);
  return 0;
};

/** Init's default services, as toolbox's start/stop name them (start.cpp ControlDefaultServices). */
const DEFAULT_SERVICES = ['netd', 'surfaceflinger', 'audioserver', 'zygote', 'zygote_secondary'];

/**
 * `ctl.start` / `ctl.stop` of an init service: its `init.svc.NAME` state. Once zygote runs again
 * the framework has booted anew, and ActivityManagerService sets `sys.boot_completed` to 1.
 */
function controlService(dev: Device, start: boolean, service: string): void {
  dev.propOverrides.set(`init.svc.${service}`, start ? 'running' : 'stopped');
  if (start && service === 'zygote') {
    dev.propOverrides.set('sys.boot_completed', '1');
  }
}

/**
 * toolbox `start` / `stop` (system/core/toolbox/start.cpp): root only ("Must be root"); with no
 * service, the default ones (stopped in reverse order); each through `ctl.start` / `ctl.stop`.
 */
function startStop(start: boolean): CommandFn<Device> {
  return async (ctx) => {
    const dev = ctx.host;
    if (!dev.fs.superuser) {
      await ctx.stderr.write('Must be root\n');
      return 1;
    }
    const named = ctx.argv.slice(1);
    const services = named.length > 0 ? named : start ? DEFAULT_SERVICES : [...DEFAULT_SERVICES].reverse();
    for (const service of services) {
      controlService(dev, start, service);
    }
    return 0;
  };
}

export const start = startStop(true);
export const stop = startStop(false);

/** `ime list|enable|disable|set|reset` (and `cmd input_method`). */
export const ime: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const [sub, ...rest] = ctx.argv.slice(1);
  const id = rest.filter((a, i) => !a.startsWith('-') && rest[i - 1] !== '--user')[0];
  const known = [GBOARD_IME, ...(dev.packages.has(ADB_KEYBOARD_PACKAGE) ? [ADB_KEYBOARD_IME] : [])];
  const enabled = (): string[] =>
    (dev.settings.get('secure', 'enabled_input_methods') ?? '').split(':').filter((x) => x !== '');
  switch (sub) {
    case 'list': {
      const list = rest.includes('-a') ? known : enabled();
      await ctx.stdout.write(
        rest.includes('-s')
          ? list.map((x) => x + '\n').join('')
          : list.map((x) => `${x}:\n  mId=${x} mSettingsActivityName=null\n`).join(''),
      );
      return 0;
    }
    case 'enable':
    case 'disable': {
      if (id === undefined || !known.includes(id)) {
        await ctx.stderr.write(`Unknown input method ${id ?? ''} cannot be ${sub}d for user #0\n`);
        return 255;
      }
      const list = enabled();
      const was = list.includes(id);
      const next = sub === 'enable' ? (was ? list : [...list, id]) : list.filter((x) => x !== id);
      dev.settings.put('secure', 'enabled_input_methods', next.join(':'));
      await ctx.stdout.write(
        `Input method ${id}: ${sub === 'enable' ? (was ? 'already enabled' : 'now enabled') : was ? 'now disabled' : 'already disabled'}\n`,
      );
      return 0;
    }
    case 'set': {
      if (id === undefined || !known.includes(id)) {
        await ctx.stderr.write(`Unknown input method ${id ?? ''} cannot be selected for user #0\n`);
        return 255;
      }
      if (!enabled().includes(id)) {
        dev.settings.put('secure', 'enabled_input_methods', [...enabled(), id].join(':'));
      }
      dev.settings.put('secure', 'default_input_method', id);
      await ctx.stdout.write(`Input method ${id} selected for user #0\n`);
      return 0;
    }
    case 'reset':
      dev.settings.put('secure', 'default_input_method', GBOARD_IME);
      dev.settings.put('secure', 'enabled_input_methods', GBOARD_IME);
      await ctx.stdout.write(
        `Reset current and enabled IMEs for user #0\n  Selected: ${GBOARD_IME}\n   Enabled: ${GBOARD_IME}\n`,
      );
      return 0;
    default:
      await ctx.stdout.write(
        'ime <command>:\n  list [-a] [-s]\n  enable [--user <USER_ID>] <ID>\n  disable [--user <USER_ID>] <ID>\n  set [--user <USER_ID>] <ID>\n  reset [--user <USER_ID>]\n',
      );
      return sub === undefined ? 0 : 255;
  }
};
