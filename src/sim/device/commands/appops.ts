/**
 * `appops set|get|reset` (AOSP AppOpsService.Shell, `cmd appops`): per package, the modes set for
 * app ops. `set PACKAGE OP MODE` prints nothing; `get PACKAGE [OP]` prints `OP: mode` for each op set
 * (or `No operations.`); an unknown op is "Error: Unknown operation string: OP" on stdout
 * (AppOpsManager.strOpToOp's message; phones print it there, as captures quoted in public client tests
 * show, with `No operations.` and `MIUIOP(10053): ignore`); an unknown package is "Error: No UID for
 * PACKAGE in user 0" (AppOpsService.Shell.parseUserPackageOp, on stderr: not checked against a
 * capture). Appium's driver runs `appops set io.appium.settings PROJECT_MEDIA allow` at session start
 * (io.appium.settings' commands/media-projection.js).
 */
import type { CommandContext } from '../../shell/command.js';
import type { Device } from '../device.js';

/** AppOpsManager's op names the simulator accepts (a subset; others are refused as unknown). */
const OPS = new Set([
  'COARSE_LOCATION',
  'FINE_LOCATION',
  'CAMERA',
  'RECORD_AUDIO',
  'POST_NOTIFICATION',
  'SYSTEM_ALERT_WINDOW',
  'WRITE_SETTINGS',
  'GET_USAGE_STATS',
  'PROJECT_MEDIA',
  'MOCK_LOCATION',
  'RUN_IN_BACKGROUND',
  'RUN_ANY_IN_BACKGROUND',
  'REQUEST_INSTALL_PACKAGES',
  'PICTURE_IN_PICTURE',
  'READ_CLIPBOARD',
  'WRITE_CLIPBOARD',
  'MANAGE_EXTERNAL_STORAGE',
  'SCHEDULE_EXACT_ALARM',
  'ACCESS_NOTIFICATIONS',
]);
const MODES = new Set(['allow', 'ignore', 'deny', 'default', 'foreground']);

const modes = new WeakMap<Device, Map<string, Map<string, string>>>();

function opsOf(dev: Device, pkg: string): Map<string, string> {
  let byPkg = modes.get(dev);
  if (byPkg === undefined) {
    byPkg = new Map();
    modes.set(dev, byPkg);
  }
  let ops = byPkg.get(pkg);
  if (ops === undefined) {
    ops = new Map();
    byPkg.set(pkg, ops);
  }
  return ops;
}

export async function appops(ctx: CommandContext<Device>): Promise<number> {
  const [sub, ...rest] = ctx.argv.slice(1);
  const args = rest.filter((a, i) => a !== '--user' && rest[i - 1] !== '--user' && a !== '--uid');
  const [pkg, op, mode] = args;
  const fail = async (message: string): Promise<number> => {
    await ctx.stderr.write(`Error: ${message}\n`);
    return 255;
  };
  if (sub !== 'set' && sub !== 'get' && sub !== 'reset') {
    await ctx.stdout.write(
      'AppOps service (appops) commands:\n  help\n  start/stop …\n  set [--user U] PACKAGE OP MODE\n  get [--user U] PACKAGE [OP]\n  reset [--user U] [PACKAGE]\n',
    );
    return sub === undefined || sub === 'help' ? 0 : 255;
  }
  if (pkg === undefined) {
    return fail('Package name not specified.');
  }
  if (!ctx.host.packages.has(pkg)) {
    return fail(`No UID for ${pkg} in user 0`);
  }
  const ops = opsOf(ctx.host, pkg);
  if (sub === 'reset') {
    ops.clear();
    return 0;
  }
  if (op !== undefined && !OPS.has(op)) {
    await ctx.stdout.write(`Error: Unknown operation string: ${op}\n`);
    return 255;
  }
  if (sub === 'set') {
    if (op === undefined || mode === undefined) {
      return fail('Mode not specified.');
    }
    if (!MODES.has(mode)) {
      return fail(`Mode string not valid: ${mode}`);
    }
    ops.set(op, mode);
    return 0;
  }
  const shown = [...ops].filter(([name]) => op === undefined || name === op);
  await ctx.stdout.write(
    shown.length === 0 ? 'No operations.\n' : shown.map(([name, m]) => `${name}: ${m}\n`).join(''),
  );
  return 0;
}
