import type { CommandContext, CommandFn } from '../../shell/command.js';
import { SAMPLE_ACTIVITIES } from '../../sample-app.js';
import { crashPackage } from '../crashes.js';
import type { Device } from '../device.js';
import { REASON, SUBREASON } from '../exit-info.js';
import { ensureProcess, forceStop, killPackage, startActivity } from '../lifecycle.js';
import { instrument } from './instrument.js';
import { CHROME_PACKAGE, LAUNCHER_PACKAGE, SETTINGS_PACKAGE, shortComponent } from '../packages.js';
import { clearText, keyEvent, typeText } from '../ui/input-actions.js';
import { IntentArgError, intentToString, parseIntentArgs, stringExtra, type Intent } from './intent.js';
import { recordIntent } from './intent-record.js';
import { since } from '../android-versions.js';

type Ctx = CommandContext<Device>;

/** Where an intent goes: an installed activity, a missing class, or nothing. */
type Resolution =
  | { kind: 'ok'; pkg: string; cls: string; extras: Record<string, string> }
  | { kind: 'no-class'; pkg: string; cls: string }
  | { kind: 'none' };

/** Resolves an activity intent against the device's packages. */
export function resolveActivity(dev: Device, intent: Intent): Resolution {
  const extras: Record<string, string> = {};
  for (const [k, v] of intent.extras) {
    extras[k] = v.value;
  }
  if (intent.component !== null) {
    const { pkg, cls } = intent.component;
    const p = dev.packages.get(pkg);
    if (p === undefined || !p.info.activities.includes(cls) || !p.enabled) {
      return { kind: 'no-class', pkg, cls };
    }
    return { kind: 'ok', pkg, cls, extras };
  }
  const action = intent.action ?? 'android.intent.action.MAIN';
  const data = intent.data ?? '';
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(data)?.[1]?.toLowerCase() ?? '';
  const restrict = (pkg: string): boolean => intent.pkg === null || intent.pkg === pkg;
  if (action === 'android.intent.action.MAIN' && intent.categories.includes('android.intent.category.HOME')) {
    return {
      kind: 'ok',
      pkg: LAUNCHER_PACKAGE,
      cls: dev.packages.get(LAUNCHER_PACKAGE)?.info.activities[0] ?? '',
      extras,
    };
  }
  if (action === 'android.intent.action.MAIN' && intent.pkg !== null) {
    const p = dev.packages.get(intent.pkg);
    if (p !== undefined && p.info.launcher !== null && p.enabled) {
      return { kind: 'ok', pkg: p.info.name, cls: p.info.launcher, extras };
    }
    return { kind: 'none' };
  }
  if (action === 'android.intent.action.VIEW') {
    if ((scheme === 'http' || scheme === 'https') && restrict(CHROME_PACKAGE)) {
      return {
        kind: 'ok',
        pkg: CHROME_PACKAGE,
        cls: 'com.google.android.apps.chrome.Main',
        extras: { ...extras, url: data },
      };
    }
    if (scheme === 'droidbus') {
      const sample = [...dev.packages.values()].find(
        (p) => restrict(p.info.name) && p.info.activities.includes(SAMPLE_ACTIVITIES[2]),
      );
      if (sample !== undefined) {
        const item = /(\d+)/.exec(data)?.[1] ?? '1';
        return { kind: 'ok', pkg: sample.info.name, cls: SAMPLE_ACTIVITIES[2], extras: { ...extras, item } };
      }
    }
    if (scheme === 'market' && dev.packages.has('com.android.vending') && restrict('com.android.vending')) {
      return {
        kind: 'ok',
        pkg: 'com.android.vending',
        cls: 'com.android.vending.AssetBrowserActivity',
        extras,
      };
    }
    return { kind: 'none' };
  }
  if (action.startsWith('android.settings.') && restrict(SETTINGS_PACKAGE)) {
    if (action === 'android.settings.APPLICATION_DETAILS_SETTINGS') {
      const target = data.startsWith('package:') ? data.slice('package:'.length) : '';
      return {
        kind: 'ok',
        pkg: SETTINGS_PACKAGE,
        cls: 'com.android.settings.applications.InstalledAppDetails',
        extras: { ...extras, package: target },
      };
    }
    return {
      kind: 'ok',
      pkg: SETTINGS_PACKAGE,
      cls:
        action === 'android.settings.SETTINGS'
          ? 'com.android.settings.Settings'
          : 'com.android.settings.SubSettings',
      extras,
    };
  }
  return { kind: 'none' };
}

async function exception(ctx: Ctx, sub: string, message: string): Promise<number> {
  await ctx.stderr.write(
    `Exception occurred while executing '${sub}':\n${message}\n\tat com.android.server.am.ActivityManagerShellCommand.onCommand(ActivityManagerShellCommand.java:251)\n\tat com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)\n\tat android.os.ShellCommand.exec(ShellCommand.java:38)\n`,
  );
  return 255;
}

async function amStart(ctx: Ctx, sub: string, args: string[]): Promise<number> {
  const dev = ctx.host;
  let parsed;
  try {
    parsed = parseIntentArgs(args);
  } catch (err) {
    return exception(ctx, sub, err instanceof IntentArgError ? err.message : String(err));
  }
  const { intent, opts } = parsed;
  recordIntent(dev, sub, intent);
  for (let round = 0; round < Math.max(1, opts.repeat); round++) {
    const resolution = resolveActivity(dev, intent);
    if (opts.stop && resolution.kind !== 'none') {
      await ctx.stdout.write(`Stopping: ${resolution.pkg}\n`);
      forceStop(dev, resolution.pkg, dev.procs.allocPid());
    }
    await ctx.stdout.write(`Starting: ${intentToString(intent)}\n`);
    const out = opts.wait ? ctx.stdout : ctx.stderr;
    if (resolution.kind === 'no-class') {
      await out.write(
        `Error type 3\nError: Activity class {${resolution.pkg}/${resolution.cls}} does not exist.\n`,
      );
      continue;
    }
    if (resolution.kind === 'none') {
      const shown: Intent = { ...intent, flags: intent.flags | 0x10000000 };
      await out.write(`Error: Activity not started, unable to resolve ${intentToString(shown)}\n`);
      continue;
    }
    const result = startActivity(dev, resolution.pkg, resolution.cls, resolution.extras);
    if (result.kind === 'TOP') {
      await out.write(
        'Warning: Activity not started, intent has been delivered to currently running top-most instance.\n',
      );
    } else if (result.kind === 'HOT') {
      await out.write('Warning: Activity not started, its current task has been brought to the front\n');
    }
    if (opts.wait) {
      const lines = [
        'Status: ok',
        `LaunchState: ${result.kind === 'TOP' ? 'UNKNOWN (0)' : result.kind}`,
        `Activity: ${shortComponent(resolution.pkg, resolution.cls)}`,
      ];
      if (result.totalTime >= 0) {
        lines.push(`TotalTime: ${result.totalTime}`);
      }
      lines.push(`WaitTime: ${result.waitTime}`, 'Complete');
      await ctx.stdout.write(lines.join('\n') + '\n');
    }
  }
  return 0;
}

/** ADBKeyBoard's broadcast receiver, active while it is the selected input method. */
function adbKeyboard(dev: Device, intent: Intent): void {
  if (!dev.adbKeyboardActive()) {
    return;
  }
  switch (intent.action) {
    case 'ADB_INPUT_TEXT':
      typeText(dev, stringExtra(intent, 'msg') ?? '');
      return;
    case 'ADB_INPUT_B64': {
      const b64 = stringExtra(intent, 'msg') ?? '';
      typeText(dev, Buffer.from(b64, 'base64').toString('utf8'));
      return;
    }
    case 'ADB_INPUT_CODE': {
      const code = Number(stringExtra(intent, 'code') ?? '0');
      keyEvent(dev, code);
      return;
    }
    case 'ADB_INPUT_CHARS': {
      const chars = (stringExtra(intent, 'chars') ?? '')
        .split(',')
        .map((c) => String.fromCodePoint(Number(c)));
      typeText(dev, chars.join(''));
      return;
    }
    case 'ADB_CLEAR_TEXT':
      clearText(dev);
      return;
  }
}

/** System broadcasts only the system may send (a few of frameworks/base's protected-broadcast list). */
const PROTECTED_BROADCASTS: ReadonlySet<string> = new Set([
  'android.intent.action.AIRPLANE_MODE',
  'android.intent.action.BOOT_COMPLETED',
  'android.intent.action.BATTERY_CHANGED',
  'android.intent.action.SCREEN_ON',
  'android.intent.action.SCREEN_OFF',
]);

async function amBroadcast(ctx: Ctx, args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseIntentArgs(args);
  } catch (err) {
    return exception(ctx, 'broadcast', err instanceof IntentArgError ? err.message : String(err));
  }
  const intent = parsed.intent;
  recordIntent(ctx.host, 'broadcast', intent);
  intent.flags |= 0x400000;
  await ctx.stdout.write(`Broadcasting: ${intentToString(intent)}\n`);
  if (
    intent.action !== null &&
    PROTECTED_BROADCASTS.has(intent.action) &&
    since(ctx.host.sdk, 'protectedBroadcastDenied')
  ) {
    // Android 7+ lets only the system send protected broadcasts; the shell (uid 2000) is refused.
    const denial = `Permission Denial: not allowed to send broadcast ${intent.action} from pid=${ctx.host.procs.allocPid()}, uid=2000`;
    await ctx.stderr.write(
      `Security exception: ${denial}\n\njava.lang.SecurityException: ${denial}\n\tat com.android.server.am.ActivityManagerService.checkBroadcastFromSystem(ActivityManagerService.java:13938)\n\tat com.android.server.am.ActivityManagerService.broadcastIntentLocked(ActivityManagerService.java:14577)\n`,
    );
    return 255;
  }
  adbKeyboard(ctx.host, intent);
  await ctx.stdout.write('Broadcast completed: result=0\n');
  return 0;
}

async function amStartService(ctx: Ctx, sub: string, args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseIntentArgs(args);
  } catch (err) {
    return exception(ctx, sub, err instanceof IntentArgError ? err.message : String(err));
  }
  const intent = parsed.intent;
  recordIntent(ctx.host, sub, intent);
  await ctx.stdout.write(`Starting service: ${intentToString(intent)}\n`);
  const pkg = intent.component?.pkg ?? intent.pkg;
  if (pkg === null || ctx.host.packages.get(pkg) === undefined || intent.component === null) {
    await ctx.stderr.write('Error: Not found; no service started.\n');
    return 255;
  }
  ensureProcess(ctx.host, pkg, 'service', `${pkg}/${intent.component.cls}`);
  return 0;
}

const AM_HELP = `Activity manager (activity) commands:
  help
      Print this help text.
  start-activity [-D] [-N] [-W] [-P <FILE>] [--start-profiler <FILE>]
          [--sampling INTERVAL] [--streaming] [-R COUNT] [-S]
          [--track-allocation] [--user <USER_ID> | current] <INTENT>
      Start an Activity.
  start-service [--user <USER_ID> | current] <INTENT>
      Start a Service.
  broadcast [--user <USER_ID> | all | current] <INTENT>
      Send a broadcast Intent.
  force-stop [--user <USER_ID> | all | current] <PACKAGE>
      Completely stop the given application package.
  kill [--user <USER_ID> | all | current] <PACKAGE>
      Kill all background processes associated with the given application.
  crash [--user <USER_ID>] <PACKAGE|PID>
      Induce a VM crash in the specified package or process
`;

/** `am` (and `cmd activity`). */
export const am: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const [sub, ...rest] = ctx.argv.slice(1);
  const operands = (): string[] => {
    const out: string[] = [];
    for (let i = 0; i < rest.length; i++) {
      if (rest[i] === '--user') {
        i++;
      } else {
        out.push(rest[i] as string);
      }
    }
    return out;
  };
  switch (sub) {
    case undefined:
    case 'help':
    case '-h':
      await ctx.stdout.write(AM_HELP);
      return 0;
    case 'start':
    case 'start-activity':
      return amStart(ctx, sub, rest);
    case 'startservice':
    case 'start-service':
    case 'start-foreground-service':
    case 'startforegroundservice':
      return amStartService(ctx, sub, rest);
    case 'stopservice':
    case 'stop-service': {
      const { intent } = parseIntentArgs(rest);
      await ctx.stdout.write(`Stopping service: ${intentToString(intent)}\n`);
      await ctx.stderr.write('Service not stopped: was not running.\n');
      return 255;
    }
    case 'broadcast':
      return amBroadcast(ctx, rest);
    case 'force-stop':
    case 'stop-app': {
      const pkg = operands()[0];
      if (pkg === undefined) {
        return exception(
          ctx,
          sub,
          'java.lang.IllegalArgumentException: Argument expected after "force-stop"',
        );
      }
      forceStop(dev, pkg, dev.procs.allocPid());
      return 0;
    }
    case 'kill': {
      const pkg = operands()[0];
      if (pkg === undefined) {
        return exception(ctx, sub, 'java.lang.IllegalArgumentException: Argument expected after "kill"');
      }
      if (
        dev.foregroundPackage() !== pkg &&
        dev.procs.forPackage(pkg) !== undefined &&
        dev.packages.get(pkg)?.info.system !== true
      ) {
        killPackage(dev, pkg, {
          reason: REASON.USER_REQUESTED,
          subreason: SUBREASON.KILL_BACKGROUND,
          description: 'kill background',
        });
      }
      return 0;
    }
    case 'kill-all':
      for (const p of dev.packages.values()) {
        if (!p.info.system && dev.foregroundPackage() !== p.info.name) {
          killPackage(dev, p.info.name, {
            reason: REASON.USER_REQUESTED,
            subreason: SUBREASON.KILL_BACKGROUND,
            description: 'kill all background',
          });
        }
      }
      return 0;
    case 'crash': {
      const target = operands()[0] ?? '';
      const pkg = /^\d+$/.test(target) ? (dev.procs.byPid(Number(target))?.pkg ?? '') : target;
      if (!crashPackage(dev, pkg, 'java')) {
        await ctx.stderr.write(`Error: No process found for: ${target}\n`);
        return 255;
      }
      return 0;
    }
    case 'get-current-user':
      await ctx.stdout.write('0\n');
      return 0;
    case 'instrument':
      return instrument(ctx, rest);
    case 'stack':
    case 'task':
    case 'monitor':
    case 'set-debug-app':
    case 'clear-debug-app':
    case 'idle-maintenance':
    case 'send-trim-memory':
      return 0;
    default:
      await ctx.stderr.write(`Unknown command: ${sub}\n`);
      return 255;
  }
};

/** `monkey -p PKG -c android.intent.category.LAUNCHER 1`: launches the app through its launcher activity. */
export const monkey: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const args = ctx.argv.slice(1);
  let out = args.map((a) => `  bash arg: ${a}\n`).join('');
  out += `args: [${args.join(', ')}]\n`;
  out += args.map((a) => ` arg: "${a}"\n`).join('');
  const packages: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-p' && args[i + 1] !== undefined) {
      packages.push(args[++i] as string);
      out += `data="${packages[packages.length - 1] ?? ''}"\n`;
    } else if (args[i] === '-c' && args[i + 1] !== undefined) {
      out += `data="${args[++i] ?? ''}"\n`;
    }
  }
  const target = packages
    .map((p) => dev.packages.get(p))
    .find((p) => p !== undefined && p.info.launcher !== null && p.enabled);
  if (target === undefined || target.info.launcher === null) {
    await ctx.stdout.write(out + '** No activities found to run, monkey aborted.\n');
    return 252;
  }
  startActivity(dev, target.info.name, target.info.launcher);
  const ms = dev.rng.int(14, 40);
  await ctx.stdout.write(
    out +
      `Events injected: 1\n## Network stats: elapsed time=${ms}ms (0ms mobile, 0ms wifi, ${ms}ms not connected)\n`,
  );
  return 0;
};
