/**
 * The app dumps the logcat actor reads and parses off the JSON-RPC loop: exit reasons (`dumpsys
 * activity exit-info`), `dumpsys package`, `dumpsys meminfo`, and the runtime state that combines
 * them in one device round trip. Every package name reaches the device shell quoted (`sh`).
 */
import { pmValues } from '../../device/parsers/pm-lines.js';
import { joinReads, READS, readCommand } from '../../device/reads.js';
import type { Device } from '../../device/device.js';
import { sh, type ShellCommand } from '../../adb/shell-command.js';
import type { ResponseOf } from '../../bus/registry.js';
import { scopeIncludes } from '../../project/package-scope.js';
import type { PackageScope } from '../../project/package-scope.js';
import { parseResumedActivity } from '../../device/parsers/device-facts.js';
import { parseExitInfo, summarizeExitInfo } from './exit-info.js';
import type { ExitInfoRecord } from './exit-info.js';
import { toWireExit } from './logcat-wire.js';
import { parseGfxInfo } from './gfxinfo.js';
import { parseMeminfo } from './meminfo.js';
import { parsePackageDump } from './package-dump.js';

/** Splits the sections of a compound command; no dump prints this line. */
const MARK = '@@droidbus-section@@';
const SECTION_BREAK = new RegExp(`${MARK}\\r?\\n`);
const DUMP_OPTIONS = { timeoutMs: 30_000, maxBytes: 16 * 1024 * 1024 };

async function run(device: Device, command: ShellCommand, signal: AbortSignal): Promise<string[]> {
  const out = await device.shell(command, { ...DUMP_OPTIONS, signal });
  // Devices without shell v2 answer through a pty, which may end lines with CRLF.
  return out.stdout.split(SECTION_BREAK);
}

/** Whether the device has exit-info: Android 11 (API 30) and later; older ones refuse the command. */
export function exitInfoSupported(sdk: number | null, dump: string): boolean {
  if (/Bad activity command|Unknown command/i.test(dump)) {
    return false;
  }
  return sdk === null || sdk >= 30;
}

function recordsOf(pkg: string, dump: string): ExitInfoRecord[] {
  return parseExitInfo(dump).filter((r) => r.package === null || r.package === pkg);
}

/** `get_exit_reasons`: the package's exit records, newest first, bounded by `limit`. */
export async function readExitInfo(
  device: Device,
  pkg: string,
  limit: number,
  signal: AbortSignal,
): Promise<ResponseOf<'logcat.exit_info'>> {
  // The API level is the handle's, read once per device.
  const [sdk, [dump = '']] = await Promise.all([
    device.sdk(signal),
    run(device, readCommand(READS.exitInfo, { package: pkg }), signal),
  ]);
  if (!exitInfoSupported(sdk, dump)) {
    return { supported: false, sdk, records: [], total: 0, failures: 0, hint: null };
  }
  const records = recordsOf(pkg, dump);
  const summary = summarizeExitInfo(records, limit);
  return {
    supported: true,
    sdk,
    records: records.slice(0, limit).map(toWireExit),
    total: summary.total,
    failures: summary.failures,
    hint: summary.hint,
  };
}

/** `dump_app_info`: the package's `dumpsys package` section, parsed; null when not installed. */
export async function readPackageInfo(
  device: Device,
  pkg: string,
  signal: AbortSignal,
): Promise<ResponseOf<'logcat.package_info'>> {
  const [dump = ''] = await run(device, readCommand(READS.packageDump, { package: pkg }), signal);
  return { info: parsePackageDump(dump, pkg) };
}

/** `get_memory_info`: the package's `dumpsys meminfo` App Summary; null when it does not run. */
export async function readMeminfo(
  device: Device,
  pkg: string,
  signal: AbortSignal,
): Promise<ResponseOf<'logcat.meminfo'>> {
  const [dump = ''] = await run(device, readCommand(READS.meminfo, { package: pkg }), signal);
  const meminfo = parseMeminfo(dump);
  const note = meminfo === null ? (dump.trim().split('\n')[0]?.slice(0, 300) ?? null) : null;
  return { meminfo, note: note || null };
}

/**
 * `get_frame_stats`: `dumpsys gfxinfo PKG`, parsed; with `reset`, `dumpsys gfxinfo PKG reset`,
 * which prints the same and then clears the counters.
 */
export async function readFrameStats(
  device: Device,
  pkg: string,
  reset: boolean,
  signal: AbortSignal,
): Promise<ResponseOf<'logcat.frame_stats'>> {
  const command = reset ? sh`dumpsys gfxinfo ${pkg} reset` : readCommand(READS.gfxinfo, { package: pkg });
  const [dump = ''] = await run(device, command, signal);
  const stats = parseGfxInfo(dump, pkg);
  const note = stats === null ? (dump.trim().split('\n')[0]?.slice(0, 300) ?? null) : null;
  return { stats, reset: reset && stats !== null, note: note || null };
}

/** `get_app_runtime_state`: installed, running, in front, memory and the last exit, in one round trip. */
export async function readRuntimeState(
  device: Device,
  pkg: string,
  signal: AbortSignal,
  logcatCrashes: number,
): Promise<ResponseOf<'logcat.runtime_state'>> {
  const [sdk, [packageDump = '', pidText = '', activities = '', memDump = '', exitDump = '']] =
    await Promise.all([
      device.sdk(signal),
      run(
        device,
        joinReads(
          MARK,
          readCommand(READS.packageDump, { package: pkg }),
          readCommand(READS.pidOf, { package: pkg }),
          readCommand(READS.activities),
          readCommand(READS.meminfo, { package: pkg }),
          readCommand(READS.exitInfo, { package: pkg }),
        ),
        signal,
      ),
    ]);
  const info = parsePackageDump(packageDump, pkg);
  const pids = pidText
    .trim()
    .split(/\s+/)
    .filter((w) => /^\d+$/.test(w))
    .map(Number);
  const resumed = parseResumedActivity(activities);
  const mem = pids.length > 0 ? parseMeminfo(memDump) : null;
  const supported = exitInfoSupported(sdk, exitDump);
  const last = supported ? recordsOf(pkg, exitDump)[0] : undefined;
  const user0 = info?.users.find((u) => u.user === 0) ?? info?.users[0];
  const state = user0?.enabled_state ?? null;
  return {
    installed: info !== null,
    version_name: info?.version_name ?? null,
    version_code: info?.version_code ?? null,
    enabled: state === null ? (info !== null ? true : null) : state === 'DEFAULT' || state === 'ENABLED',
    pids,
    foreground: resumed?.package === pkg,
    foreground_activity: resumed?.package === pkg ? resumed.activity : null,
    memory: mem
      ? {
          total_pss_kb: mem.total_pss_kb,
          total_rss_kb: mem.total_rss_kb,
          java_heap_pss_kb: mem.java_heap.pss_kb,
          native_heap_pss_kb: mem.native_heap.pss_kb,
        }
      : null,
    exit_info_supported: supported,
    last_exit: last ? toWireExit(last) : null,
    logcat_crashes: logcatCrashes,
  };
}

/** The installed packages that a project's scope admits (`pm list packages`). */
export async function readScopePackages(
  device: Device,
  scope: PackageScope,
  signal: AbortSignal,
): Promise<ResponseOf<'logcat.scope_packages'>> {
  const [list = ''] = await run(device, readCommand(READS.packages), signal);
  const installed = pmValues(list).filter((p) => scopeIncludes(scope, p));
  return { installed: [...new Set(installed)].sort() };
}
