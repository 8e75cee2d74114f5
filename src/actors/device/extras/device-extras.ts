/**
 * The read-only device features of the `device-extras` toolset: installed apps, the window list,
 * and the last known location. One shell round trip each; sections are split on a marker.
 */
import { chainReads, joinReads, READS, readCommand } from '../../../device/reads.js';
import type { Device } from '../../../device/device.js';
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import { sh, type ShellCommand } from '../../../adb/shell-command.js';
import type { HandlerContext } from '../../actor.js';
import {
  parsePackageList,
  parsePackagePaths,
  parsePackageSections,
  unknownApp,
  type AppEntry,
} from '../../../device/parsers/app-list.js';
import { readLabels, type LabelCache } from '../apps/app-labels.js';
import { scopeIncludes } from '../../../project/package-scope.js';
import { parseLocationDump, parseUptime } from '../../../device/parsers/location-dump.js';
import { parseWindowDump, summarizeWindows } from '../../../device/parsers/window-dump.js';

const MARKER = '@@droidbus-section@@';

/** `device.list_apps`: the (third-party) packages with labels, versions, enabled state and install times. */
export async function listApps(
  device: Device,
  labelCache: LabelCache,
  p: PayloadOf<'device.list_apps'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'device.list_apps'>> {
  // The names come from the plain list (what a recorded profile holds), the APK paths for labels
  // from `-f`, in the same round trip.
  const command = joinReads(
    MARKER,
    readCommand(p.third_party_only ? READS.thirdPartyPackages : READS.packages),
    readCommand(READS.packageDumpAll),
    chainReads(readCommand(READS.locale), readCommand(READS.productLocale)),
    ...(p.labels
      ? [readCommand(p.third_party_only ? READS.thirdPartyPackagePaths : READS.packagePaths)]
      : []),
  );
  const out = await device.exec(command, {
    signal: ctx.signal,
    timeoutMs: 60_000,
    maxBytes: 64 * 1024 * 1024,
  });
  const [names = '', dump = '', locales = '', pathList = ''] = out.toString('utf8').split(`${MARKER}\n`);
  const paths = parsePackagePaths(pathList);
  const all = [...new Set(parsePackageList(names))].sort();
  const scope = p.scope;
  const mine = scope ? all.filter((name) => scopeIncludes(scope, name)) : [];
  // The project's apps first, so a limit never hides them.
  const packages = [...mine, ...all.filter((name) => !mine.includes(name))];
  const sections = parsePackageSections(dump);
  const apps = packages.slice(0, p.limit).map((name): AppEntry => sections.get(name) ?? unknownApp(name));
  // persist.sys.locale (set when the person picks a language), else the build's ro.product.locale.
  const locale =
    locales
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  const { labels, unread } = p.labels
    ? await readLabels(
        device,
        labelCache,
        apps.flatMap((a) => {
          const apk = paths.get(a.package);
          return apk ? [{ package: a.package, apk, lastUpdate: a.last_update_time }] : [];
        }),
        locale,
        ctx.signal,
      )
    : { labels: new Map<string, string | null>(), unread: [] };
  return {
    apps: apps.map((a) => ({ ...a, label: labels.get(a.package) ?? null })),
    total: packages.length,
    truncated: packages.length > p.limit,
    project_packages: mine,
    labels_unread: unread,
  };
}

/** `device.windows`: every window, top-most first, with what covers the app. */
export async function listWindows(
  device: Device,
  ctx: HandlerContext,
): Promise<ResponseOf<'device.windows'>> {
  // Android 10+ prints the focus in `dumpsys window displays`, older versions in `windows`.
  const out = await device.exec(
    chainReads(
      readCommand(READS.windows),
      (readCommand(READS.displays) + sh` | grep -E 'mCurrentFocus|mFocusedApp'`) as ShellCommand,
    ),
    { signal: ctx.signal, timeoutMs: 30_000, maxBytes: 32 * 1024 * 1024 },
  );
  const { windows, focused } = parseWindowDump(out.toString('utf8'));
  return { windows, focused, ...summarizeWindows(windows) };
}

/** `device.location`: the last fix of each provider, aged with the device's uptime. */
export async function readLocation(
  device: Device,
  ctx: HandlerContext,
): Promise<ResponseOf<'device.location'>> {
  const out = await device.exec(joinReads(MARKER, readCommand(READS.uptime), readCommand(READS.location)), {
    signal: ctx.signal,
    timeoutMs: 30_000,
    maxBytes: 32 * 1024 * 1024,
  });
  const [uptime = '', dump = ''] = out.toString('utf8').split(`${MARKER}\n`);
  return parseLocationDump(dump, parseUptime(uptime));
}
