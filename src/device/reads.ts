/**
 * Every read-only command droidbus's tools run on a device, in one catalogue. The actors build
 * their read commands from it (`readCommand`, `joinReads`), and `droidbus device record` records
 * exactly these into a profile, so a new tool's read is recorded without a second list. A guard
 * test fails when an actor runs a command literal that is neither built here nor a known write
 * (`DEVICE_WRITE_VERBS`).
 */
import { sh, shArgv, type ShellCommand } from '../adb/shell-command.js';
import type { PayloadOf, RequestTypesOf, ResponseOf } from '../bus/registry.js';
import { END_RECORD_SEARCH_BYTES } from '../util/apk-zip.js';

/** A slot a read fills in when it runs: the package asked about, one of its APK paths, a time. */
export type ReadArg =
  string | { readonly slot: 'package' | 'apk' | 'since' | 'skip' | 'count'; readonly prefix?: string };

export interface DeviceRead {
  /** Stable name: the profile's file names and manifest use it. */
  readonly name: string;
  readonly argv: readonly ReadArg[];
  /**
   * `recorded`: a profile keeps its bytes. `log`: answered from the device's log buffers, which a
   * profile fills from its recorded `logcat -d -b all` (the tools read logcat with time filters).
   * `live`: depends on the moment or on files the person chose (the clock, path lookups); never
   * recorded, always answered by the device.
   */
  readonly kind: 'recorded' | 'log' | 'live';
}

/** Where the UI helper's detached start writes `am instrument`'s output. */
export const HELPER_START_LOG = '/data/local/tmp/droidbus-uiautomator2.log';

const PKG = { slot: 'package' } as const;
const APK = { slot: 'apk' } as const;
const SINCE = { slot: 'since' } as const;
/** Bytes an APK range read moves per `dd` block (a page: aligned reads, few syscalls). */
export const APK_BLOCK_BYTES = 4096;

function read(name: string, ...argv: ReadArg[]): DeviceRead {
  return { name, argv, kind: 'recorded' };
}

/** The catalogue. Names are kebab-case and never reused: profiles refer to them. */
export const READS = {
  props: read('getprop', 'getprop'),
  sdk: read('getprop-sdk', 'getprop', 'ro.build.version.sdk'),
  bootCompleted: read('getprop-boot-completed', 'getprop', 'sys.boot_completed'),
  model: read('getprop-model', 'getprop', 'ro.product.model'),
  avdName: read('getprop-avd-name', 'getprop', 'ro.boot.qemu.avd_name'),
  avdNameOld: read('getprop-kernel-avd-name', 'getprop', 'ro.kernel.qemu.avd_name'),
  wmSize: read('wm-size', 'wm', 'size'),
  wmDensity: read('wm-density', 'wm', 'density'),
  battery: read('dumpsys-battery', 'dumpsys', 'battery'),
  activities: read('dumpsys-activity-activities', 'dumpsys', 'activity', 'activities'),
  windows: read('dumpsys-window-windows', 'dumpsys', 'window', 'windows'),
  displays: read('dumpsys-window-displays', 'dumpsys', 'window', 'displays'),
  notifications: read('dumpsys-notification', 'dumpsys', 'notification', '--noredact'),
  location: read('dumpsys-location', 'dumpsys', 'location'),
  uptime: read('uptime', 'cat', '/proc/uptime'),
  packages: read('pm-list-packages', 'pm', 'list', 'packages'),
  thirdPartyPackages: read('pm-list-packages-3', 'pm', 'list', 'packages', '-3'),
  packageDumpAll: read('dumpsys-package-packages', 'dumpsys', 'package', 'packages'),
  /** `package:APK=NAME` lines: where each app's base APK is, for its label. */
  packagePaths: read('pm-list-packages-f', 'pm', 'list', 'packages', '-f'),
  thirdPartyPackagePaths: read('pm-list-packages-3-f', 'pm', 'list', 'packages', '-3', '-f'),
  /** The locale the person chose (Android 7+), and the one the build shipped with. */
  locale: read('getprop-locale', 'getprop', 'persist.sys.locale'),
  productLocale: read('getprop-product-locale', 'getprop', 'ro.product.locale'),
  wifiOn: read('settings-wifi-on', 'settings', 'get', 'global', 'wifi_on'),
  mobileData: read('settings-mobile-data', 'settings', 'get', 'global', 'mobile_data'),
  airplaneMode: read('settings-airplane-mode', 'settings', 'get', 'global', 'airplane_mode_on'),
  /** The global HTTP proxy (`HOST:PORT`; `null` when unset), which a network capture routes through. */
  httpProxy: read('settings-http-proxy', 'settings', 'get', 'global', 'http_proxy'),
  autoRotate: read('settings-accelerometer-rotation', 'settings', 'get', 'system', 'accelerometer_rotation'),
  userRotation: read('settings-user-rotation', 'settings', 'get', 'system', 'user_rotation'),
  fontScale: read('settings-font-scale', 'settings', 'get', 'system', 'font_scale'),
  nightMode: read('uimode-night', 'cmd', 'uimode', 'night'),
  windowAnimationScale: read(
    'settings-window-animation-scale',
    'settings',
    'get',
    'global',
    'window_animation_scale',
  ),
  transitionAnimationScale: read(
    'settings-transition-animation-scale',
    'settings',
    'get',
    'global',
    'transition_animation_scale',
  ),
  animatorDurationScale: read(
    'settings-animator-duration-scale',
    'settings',
    'get',
    'global',
    'animator_duration_scale',
  ),
  appLocales: read('locale-app-locales', 'cmd', 'locale', 'get-app-locales', PKG),
  inputMethod: read('settings-input-method', 'settings', 'get', 'secure', 'default_input_method'),
  imeState: read('dumpsys-input-method', 'dumpsys', 'input_method'),
  processes: read('ps-all', 'ps', '-A'),
  processesOld: read('ps', 'ps'),
  uiDump: read('uiautomator-dump', 'uiautomator', 'dump', '/dev/tty'),
  screencap: read('screencap', 'screencap', '-p'),
  logBufferSizes: read('logcat-sizes', 'logcat', '-g'),
  logDump: { name: 'logcat-dump', argv: ['logcat', '-d', '-b', 'all', '-v', 'threadtime'], kind: 'log' },
  /** The default buffers (main, system, crash) to their end: what start_logcat reads before following. */
  logDumpDefault: { name: 'logcat-dump-default', argv: ['logcat', '-d', '-v', 'threadtime'], kind: 'log' },
  logStream: { name: 'logcat-stream', argv: ['logcat', '-v', 'threadtime'], kind: 'log' },
  logStreamFromNow: {
    name: 'logcat-stream-now',
    argv: ['logcat', '-v', 'threadtime', '-T', '1'],
    kind: 'log',
  },
  /** A stream resumed after the last line droidbus stored (the device left, or the adb server restarted). */
  logStreamSince: {
    name: 'logcat-stream-since',
    argv: ['logcat', '-v', 'threadtime', '-T', SINCE],
    kind: 'log',
  },
  launchLog: {
    name: 'logcat-launches',
    argv: [
      'logcat',
      '-d',
      '-v',
      'threadtime',
      '-t',
      SINCE,
      '-s',
      'ActivityTaskManager:I',
      'ActivityManager:I',
    ],
    kind: 'log',
  },
  packageDump: read('dumpsys-package', 'dumpsys', 'package', PKG),
  meminfo: read('dumpsys-meminfo', 'dumpsys', 'meminfo', PKG),
  gfxinfo: read('dumpsys-gfxinfo', 'dumpsys', 'gfxinfo', PKG),
  exitInfo: read('dumpsys-exit-info', 'dumpsys', 'activity', 'exit-info', PKG),
  apkPaths: read('pm-path', 'pm', 'path', PKG),
  pidOf: read('pidof', 'pidof', PKG),
  apkHash: read('sha256sum-apk', 'sha256sum', APK),
  launcherActivity: read(
    'resolve-launcher-activity',
    'cmd',
    'package',
    'resolve-activity',
    '--brief',
    '-a',
    'android.intent.action.MAIN',
    '-c',
    'android.intent.category.LAUNCHER',
    PKG,
  ),
  clock: { name: 'date', argv: ['date', '+%s'], kind: 'live' },
  /** The unix sockets listening: a WebView's or browser's devtools socket is one (live: apps come and go). */
  unixSockets: { name: 'proc-net-unix', argv: ['cat', '/proc/net/unix'], kind: 'live' },
  /** PowerManagerService's state: awake or asleep, plugged in, stay-on (live: it changes by the second). */
  power: { name: 'dumpsys-power', argv: ['dumpsys', 'power'], kind: 'live' },
  /**
   * The ANR reports ActivityManagerService kept, with the threads ART dumped (a user build's only
   * place for them; /data/anr needs root): live, each ANR adds one, and they hold an app's internals.
   */
  dropboxAppAnr: {
    name: 'dumpsys-dropbox-data-app-anr',
    argv: ['dumpsys', 'dropbox', '--print', 'data_app_anr'],
    kind: 'live',
  },
  /** ART's dumps where a rooted device or an emulator lets the shell read them (`Permission denied` elsewhere). */
  anrFiles: { name: 'data-anr-files', argv: ['sh', '-c', 'cat /data/anr/* 2>/dev/null'], kind: 'live' },
  dropboxSystemAnr: {
    name: 'dumpsys-dropbox-system-app-anr',
    argv: ['dumpsys', 'dropbox', '--print', 'system_app_anr'],
    kind: 'live',
  },
  /** What the UI helper's detached `am instrument` wrote (uiautomator2-helper.ts instrumentCommand). */
  helperStartLog: { name: 'helper-start-log', argv: ['cat', HELPER_START_LOG], kind: 'live' },
  /** An APK's end: the longest zip end record with its comment (and, usually, the central directory). */
  apkTail: { name: 'apk-tail', argv: ['tail', '-c', String(END_RECORD_SEARCH_BYTES), APK], kind: 'live' },
  /** Blocks of an APK (a manifest, a resource table): `dd` exists on every Android, toolbox or toybox. */
  apkBlocks: {
    name: 'apk-blocks',
    argv: [
      'dd',
      { slot: 'apk', prefix: 'if=' },
      `bs=${APK_BLOCK_BYTES}`,
      { slot: 'skip', prefix: 'skip=' },
      { slot: 'count', prefix: 'count=' },
    ],
    kind: 'live',
  },
} as const satisfies Record<string, DeviceRead>;

/**
 * A read that answers a device request by itself: the payload fills its slots, its parser turns the
 * device's output into the request's response. The response type is the request's (its zod schema
 * in src/bus/messages), so a parser that leaves out a field the schema needs does not compile; the
 * device actor serves every request named here with no handler of its own (handlers/reads.ts).
 */
export interface ReadAnswer<T extends DeviceRequest> {
  readonly read: DeviceRead;
  readonly fill?: (payload: PayloadOf<T>) => ReadFill;
  readonly parse: (stdout: string, payload: PayloadOf<T>) => ResponseOf<T>;
}

/** The requests the device actor serves. */
export type DeviceRequest = RequestTypesOf<'device'>;

/** `key=value` lines of a dump (`  mStayOn=false`), by key; the first of a key wins. */
function dumpFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const m of text.matchAll(/^\s*(\w+)=(\S*)\s*$/gm)) {
    if (!fields.has(m[1]!)) {
      fields.set(m[1]!, m[2]!);
    }
  }
  return fields;
}

/** BatteryManager's BATTERY_PLUGGED_* bits, as PowerManagerService prints `mPlugType`. */
const PLUG_TYPES = [
  [1, 'ac'],
  [2, 'usb'],
  [4, 'wireless'],
  [8, 'dock'],
] as const;

/**
 * The requests a catalogue read answers alone. `dumpsys power` as PowerManagerService.dumpInternal
 * prints it (AOSP frameworks/base services/core/java/com/android/server/power/PowerManagerService.java:
 * `mWakefulness=Awake`, `mIsPowered=`, `mPlugType=`, `mBatteryLevel=`, `mStayOn=`; `Display Power:
 * state=ON` from its display section); a field a release does not print is null.
 */
export const READ_ANSWERS = {
  'device.power_state': {
    read: READS.power,
    parse(stdout) {
      const f = dumpFields(stdout);
      const bool = (key: string): boolean | null =>
        f.get(key) === 'true' ? true : f.get(key) === 'false' ? false : null;
      const int = (key: string): number | null =>
        /^-?\d+$/.test(f.get(key) ?? '') ? Number(f.get(key)) : null;
      const plug = int('mPlugType');
      return {
        wakefulness: f.get('mWakefulness') ?? null,
        display_state: /^Display Power: state=(\w+)/m.exec(stdout)?.[1] ?? null,
        powered: bool('mIsPowered'),
        plugged:
          plug === null ? null : PLUG_TYPES.filter(([bit]) => (plug & bit) !== 0).map(([, name]) => name),
        battery_level: int('mBatteryLevel'),
        stay_on: bool('mStayOn'),
      };
    },
  },
} as const satisfies { [T in DeviceRequest]?: ReadAnswer<T> };

/** Every read in the catalogue. */
export const DEVICE_READS: readonly DeviceRead[] = Object.values(READS);

/**
 * The commands droidbus runs to change a device (first words), which no profile records: they
 * always go to the device. With the reads above they cover every command an actor runs.
 */
export const DEVICE_WRITE_VERBS: readonly string[] = [
  'am force-stop',
  'am kill',
  'am start',
  'am broadcast',
  'am startservice',
  'pm clear',
  'pm grant',
  'pm revoke',
  'pm install',
  'pm uninstall',
  'am instrument',
  'nohup am instrument',
  'cmd package install',
  'settings put',
  'settings delete',
  // With an argument (X: the size or density, or `reset`); without one they are reads.
  'wm size X',
  'wm size reset',
  'wm density X',
  'wm density reset',
  'cmd uimode night X',
  'cmd locale set-app-locales',
  'input',
  'svc',
  'cmd notification',
  'cmd statusbar',
  'rm -f',
  // `dumpsys gfxinfo PKG reset` prints the frame statistics, then clears them (X: the package).
  'dumpsys gfxinfo X reset',
];

/** Whether a read takes a package (or an APK of one). */
export function isPerPackage(r: DeviceRead): boolean {
  return r.argv.some((a) => typeof a !== 'string' && a.slot !== 'since');
}

/** The values a read's slots take. */
export type ReadFill = { package?: string; apk?: string; since?: string; skip?: string; count?: string };

/** The argv of a read with its slots filled. */
export function readArgv(r: DeviceRead, fill: ReadFill = {}): string[] {
  return r.argv.map((a) => {
    if (typeof a === 'string') {
      return a;
    }
    const v = fill[a.slot];
    if (v === undefined) {
      throw new Error(`the read ${r.name} needs a ${a.slot}`);
    }
    return (a.prefix ?? '') + v;
  });
}

/** A read as a quoted device command line. */
export function readCommand(r: DeviceRead, fill: ReadFill = {}): ShellCommand {
  return shArgv(readArgv(r, fill));
}

/**
 * Several reads in one round trip, their outputs split by `marker` lines (`echo MARKER` between
 * them); each part is a read or a command already built from one.
 */
export function joinReads(marker: string, ...parts: readonly ShellCommand[]): ShellCommand {
  return parts.join(sh`; echo ${marker}; `) as ShellCommand;
}

/** Several reads in one round trip, one after another (for one-line answers). */
export function chainReads(...parts: readonly ShellCommand[]): ShellCommand {
  return parts.join('; ') as ShellCommand;
}
