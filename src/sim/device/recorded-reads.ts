/**
 * What a recorded command reads, as the simulator understands the command itself — not by the name
 * droidbus's catalogue gave it. A profile may hold answers recorded by any tool (or by hand), so the
 * replaying device judges each by its argv: which part of the device it shows (a change to that part
 * makes the recording stale) and which package it names (the model installs every package its
 * recording measured).
 *
 * Evidence: the commands and what they print are the device's own — getprop, wm (WindowManagerShellCommand),
 * dumpsys's services (frameworks/base/services/core/java/com/android/server/**), pm and `cmd package`
 * (PackageManagerShellCommand.java), settings (SettingsService), toybox's ps, pidof, cat, sha256sum,
 * uiautomator's DumpCommand and screencap (frameworks/base/cmds/screencap/screencap.cpp); recorded answers
 * of each are under profiles/ and tests/fixtures/.
 */

/** A part of the device a recorded answer shows: a command that changes it makes the answer stale. */
export type Domain =
  | 'props'
  | 'display'
  | 'screen'
  | 'packages'
  | 'processes'
  | 'settings'
  | 'notifications'
  | 'location'
  | 'battery'
  | 'log'
  /** A command the simulator does not know: stale after any change at all. */
  | 'unknown';

/** Commands the simulator reads a recording's facts from (each printed by the device, argv as run). */
export const RECORDED = {
  getprop: ['getprop'],
  sdk: ['getprop', 'ro.build.version.sdk'],
  wmSize: ['wm', 'size'],
  wmDensity: ['wm', 'density'],
  windowDisplays: ['dumpsys', 'window', 'displays'],
  windowWindows: ['dumpsys', 'window', 'windows'],
  activities: ['dumpsys', 'activity', 'activities'],
  uiDump: ['uiautomator', 'dump', '/dev/tty'],
  logSizes: ['logcat', '-g'],
} as const satisfies Record<string, readonly string[]>;

/** dumpsys services whose whole dump is about one domain. */
const DUMPSYS_DOMAIN: Readonly<Record<string, Domain>> = {
  battery: 'battery',
  window: 'screen',
  display: 'screen',
  notification: 'notifications',
  location: 'location',
  package: 'packages',
  meminfo: 'processes',
  gfxinfo: 'processes',
  input_method: 'settings',
};

/** The part of the device a recorded command's answer shows. */
export function domainOf(argv: readonly string[]): Domain {
  const [cmd = '', sub = '', third = ''] = argv;
  switch (cmd) {
    case 'getprop':
      return 'props';
    case 'wm':
      return 'display';
    case 'uiautomator':
    case 'screencap':
      return 'screen';
    case 'logcat':
      return 'log';
    case 'ps':
    case 'pidof':
      return 'processes';
    case 'settings':
      return 'settings';
    case 'sha256sum':
      return 'packages';
    case 'pm':
      return 'packages';
    case 'cmd':
      return sub === 'package' ? 'packages' : 'unknown';
    case 'cat':
      // /proc/uptime ages a location fix (`et=`): read together, they go stale together.
      return sub === '/proc/uptime' ? 'location' : 'unknown';
    case 'dumpsys':
      // `dumpsys activity exit-info` lists processes; the rest of `dumpsys activity` shows the screen.
      if (sub === 'activity') {
        return third === 'exit-info' || third === 'processes' ? 'processes' : 'screen';
      }
      return DUMPSYS_DOMAIN[sub] ?? 'unknown';
    default:
      return 'unknown';
  }
}

/** Whether a recorded command is a log dump (answered by the buffers it filled). */
export function isLogDump(argv: readonly string[]): boolean {
  return argv[0] === 'logcat' && (argv.includes('-d') || argv.includes('-g'));
}

const PACKAGE = /^[A-Za-z]\w*(?:\.\w+)+$/;

/** The package a recorded per-package read names (`dumpsys meminfo PKG`, `pm path PKG`…), if any. */
export function packageNamed(argv: readonly string[]): string | null {
  const [cmd = '', sub = '', third = ''] = argv;
  const last = argv[argv.length - 1] ?? '';
  const named =
    (cmd === 'dumpsys' && ['package', 'meminfo', 'gfxinfo'].includes(sub) && argv.length === 3) ||
    (cmd === 'dumpsys' && sub === 'activity' && third === 'exit-info' && argv.length === 4) ||
    (cmd === 'pm' && sub === 'path' && argv.length === 3) ||
    (cmd === 'pidof' && argv.length === 2) ||
    (cmd === 'cmd' && sub === 'package' && third === 'resolve-activity');
  return named && PACKAGE.test(last) ? last : null;
}

/** Whether the answer lists the installed packages (`pm list packages`, without `-f`'s paths first). */
export function listsPackages(argv: readonly string[]): boolean {
  return argv[0] === 'pm' && argv[1] === 'list' && argv[2] === 'packages';
}
