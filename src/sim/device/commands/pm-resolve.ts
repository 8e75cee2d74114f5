/**
 * `cmd package resolve-activity` and `query-activities`, printed as AOSP's
 * PackageManagerShellCommand prints them (runResolveActivity, runQueryIntentActivities,
 * printResolveInfo).
 */
import { shortComponent } from '../packages.js';
import { resolveActivity } from './am.js';
import { parseIntentArgs } from './intent.js';
import type { Intent } from './intent.js';
import { exception } from './pm-exception.js';
import type { PmContext as Ctx } from './pm-exception.js';

/** `--brief` / `--components` and the intent of `resolve-activity` and `query-activities`. */
function resolveArgs(
  args: string[],
): { brief: boolean; components: boolean; intent: Intent } | { error: string } {
  const rest = args.filter(
    (a, i) => a !== '--brief' && a !== '--components' && a !== '--user' && args[i - 1] !== '--user',
  );
  try {
    const { intent } = parseIntentArgs(rest);
    return { brief: args.includes('--brief'), components: args.includes('--components'), intent };
  } catch (err) {
    return { error: String(err instanceof Error ? err.message : err) };
  }
}

/**
 * One match as PackageManagerShellCommand.printResolveInfo prints it: `--components` the short
 * component, `--brief` the ResolveInfo's numbers and the component, else ResolveInfo.dump's lines
 * (the numbers, then the ActivityInfo block indented by two more).
 */
function printResolveInfo(
  prefix: string,
  pkg: string,
  cls: string,
  isDefault: boolean,
  mode: { brief: boolean; components: boolean },
): string {
  const numbers = `${prefix}priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=${isDefault}\n`;
  if (mode.components) {
    return `${prefix}${shortComponent(pkg, cls)}\n`;
  }
  if (mode.brief) {
    return `${numbers}${prefix}${shortComponent(pkg, cls)}\n`;
  }
  const inner = `${prefix}  `;
  return `${numbers}${prefix}ActivityInfo:\n${inner}name=${cls}\n${inner}packageName=${pkg}\n${inner}enabled=true exported=true directBootAware=false\n`;
}

export async function resolve(ctx: Ctx, args: string[]): Promise<number> {
  const mode = resolveArgs(args);
  if ('error' in mode) {
    return exception(ctx, 'resolve-activity', mode.error);
  }
  const r = resolveActivity(ctx.host, mode.intent);
  if (r.kind !== 'ok') {
    await ctx.stdout.write('No activity found\n');
    return 0;
  }
  await ctx.stdout.write(printResolveInfo(mode.brief ? '' : '  ', r.pkg, r.cls, true, mode));
  return 0;
}

/**
 * `cmd package query-activities` (PackageManagerShellCommand.runQueryIntentActivities): the
 * launcher query lists every enabled app with a launcher activity (the intent's package, if it names
 * one), by package name (every sim activity has priority 0, the order PackageManager sorts by first);
 * any other intent lists what `resolve-activity` would pick. "N activities found:" and
 * "  Activity #i:" before each match, or "No activities found".
 */
export async function queryActivities(ctx: Ctx, args: string[]): Promise<number> {
  const mode = resolveArgs(args);
  if ('error' in mode) {
    return exception(ctx, 'query-activities', mode.error);
  }
  const { intent } = mode;
  const launcherQuery =
    intent.component === null &&
    (intent.action ?? 'android.intent.action.MAIN') === 'android.intent.action.MAIN' &&
    intent.categories.includes('android.intent.category.LAUNCHER');
  const found: Array<{ pkg: string; cls: string }> = [];
  if (launcherQuery) {
    for (const p of [...ctx.host.packages.values()].sort((x, y) => x.info.name.localeCompare(y.info.name))) {
      if (p.enabled && p.info.launcher !== null && (intent.pkg === null || intent.pkg === p.info.name)) {
        found.push({ pkg: p.info.name, cls: p.info.launcher });
      }
    }
  } else {
    const r = resolveActivity(ctx.host, intent);
    if (r.kind === 'ok') {
      found.push({ pkg: r.pkg, cls: r.cls });
    }
  }
  if (found.length === 0) {
    await ctx.stdout.write('No activities found\n');
    return 0;
  }
  if (mode.components) {
    await ctx.stdout.write(found.map((f) => printResolveInfo('', f.pkg, f.cls, false, mode)).join(''));
    return 0;
  }
  const items = found.map(
    (f, i) => `  Activity #${i}:\n${printResolveInfo('    ', f.pkg, f.cls, !launcherQuery, mode)}`,
  );
  await ctx.stdout.write(`${found.length} activities found:\n${items.join('')}`);
  return 0;
}
