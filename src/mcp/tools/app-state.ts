import { z } from 'zod';
import { appRuntimeStateSchema, meminfoWireSchema, packageInfoWireSchema } from '../../bus/messages/app.js';
import { packageNameSchema } from '../../bus/messages/logcat.js';
import { ToolError } from '../define-tool.js';
import { responseOf } from '../responses.js';
import { defineDeviceTool } from '../define-device-tool.js';
import type { DeviceToolContext } from '../define-device-tool.js';
import { defaultPackage } from './project-package.js';

const packageParam = packageNameSchema.optional().describe("Package; default: the project's app");

/** The package a device tool's call is about: the given one, else the project's app on that device. */
async function target(
  ctx: DeviceToolContext,
  args: { package?: string | undefined },
): Promise<{ serial: string; pkg: string }> {
  return { serial: ctx.serial, pkg: args.package ?? (await defaultPackage(ctx, ctx.serial)) };
}

function kb(v: number | null): string {
  if (v === null) {
    return '?';
  }
  return v >= 1024 ? `${(v / 1024).toFixed(1)} MB` : `${v} kB`;
}

export const getExitReasons = defineDeviceTool({
  name: 'get_exit_reasons',
  answers: 'logcat.exit_info',
  toolset: 'inspect',
  kind: 'read',
  title: 'App exit reasons',
  description:
    "Why the app's processes exited (dumpsys activity exit-info, Android 11+): one line per exit, newest first (time, reason, signal or status, importance, memory). Catches crashes, ANRs, low-memory kills and user stops logcat missed.",
  input: z.object({
    package: packageParam,
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(20)
      .describe('Exits to return, newest first (default 20, max 100)'),
  }),
  output: responseOf('logcat.exit_info').extend({
    device_serial: z.string(),
    package: z.string(),
  }),
  projectIndependent: false,
  async handle(args, ctx) {
    const { serial, pkg } = await target(ctx, args);
    const r = await ctx.ask('logcat.exit_info', { package: pkg, limit: args.limit });
    const structured = { device_serial: serial, package: pkg, ...r };
    if (!r.supported) {
      return {
        text: `Exit reasons need Android 11 (API 30) or later; ${serial} runs API ${r.sdk ?? 'unknown'}. Use get_crash_logs (after start_logcat) instead.`,
        structured,
      };
    }
    if (r.records.length === 0) {
      return { text: `No recorded process exits of ${pkg} on ${serial}.`, structured };
    }
    const head = `${r.records.length} of ${r.total} exit${r.total === 1 ? '' : 's'} of ${pkg} on ${serial}, newest first:`;
    return {
      text: [head, ...r.records.map((e) => e.line), ...(r.hint !== null ? [r.hint] : [])].join('\n'),
      structured,
    };
  },
});

export const dumpAppInfo = defineDeviceTool({
  name: 'dump_app_info',
  answers: 'logcat.package_info',
  toolset: 'inspect',
  kind: 'read',
  title: 'App package info',
  description:
    "An installed app's facts from dumpsys package: version, SDK levels, install and update times, installer, code path, flags, enabled state, and permissions (requested; install-time and runtime, granted or denied).",
  input: z.object({ package: packageParam }),
  output: packageInfoWireSchema.extend({
    device_serial: z.string(),
    enabled: z.boolean().nullable(),
    permissions: z.object({ granted: z.array(z.string()), denied: z.array(z.string()) }),
  }),
  projectIndependent: false,
  async handle(args, ctx) {
    const { serial, pkg } = await target(ctx, args);
    const { info } = await ctx.ask('logcat.package_info', { package: pkg });
    if (info === null) {
      throw new ToolError(
        `${pkg} is not installed on ${serial}. Check the package name, or install the app first.`,
      );
    }
    const all = [...info.install_permissions, ...info.runtime_permissions];
    const granted = [...new Set(all.filter((p) => p.granted).map((p) => p.name))];
    const denied = [...new Set(all.filter((p) => !p.granted).map((p) => p.name))];
    const user = info.users.find((u) => u.user === 0) ?? info.users[0];
    const state = user?.enabled_state ?? null;
    const enabled = state === null ? null : state === 'DEFAULT' || state === 'ENABLED';
    const lines = [
      `${info.package} ${info.version_name ?? '?'} (versionCode ${info.version_code ?? '?'}) on ${serial}`,
      `SDK: min ${info.min_sdk ?? '?'}, target ${info.target_sdk ?? '?'}`,
      `Installed ${info.first_install_time ?? '?'}, updated ${info.last_update_time ?? '?'}${info.installer !== null ? ` by ${info.installer}` : ''}`,
      `Enabled: ${enabled === null ? 'unknown' : enabled ? 'yes' : `no (${state})`}`,
      `Permissions granted (${granted.length}): ${granted.join(', ') || 'none'}`,
      `Permissions denied (${denied.length}): ${denied.join(', ') || 'none'}`,
    ];
    return {
      text: lines.join('\n'),
      structured: { ...info, device_serial: serial, enabled, permissions: { granted, denied } },
    };
  },
});

export const getMemoryInfo = defineDeviceTool({
  name: 'get_memory_info',
  answers: 'logcat.meminfo',
  toolset: 'inspect',
  kind: 'read',
  title: 'App memory',
  description:
    "A running app's memory from dumpsys meminfo: the App Summary (Java and native heap, code, stack, graphics, other, system; Pss and Rss), totals, heap sizes, object counts.",
  input: z.object({ package: packageParam }),
  output: meminfoWireSchema.extend({ device_serial: z.string(), package: z.string() }),
  projectIndependent: false,
  async handle(args, ctx) {
    const { serial, pkg } = await target(ctx, args);
    const r = await ctx.ask('logcat.meminfo', { package: pkg });
    if (r.meminfo === null) {
      throw new ToolError(
        `${pkg} is not running on ${serial}${r.note !== null ? ` (${r.note})` : ''}. Launch it, then ask again.`,
      );
    }
    const m = r.meminfo;
    const lines = [
      `${pkg} (pid ${m.pid ?? '?'}) on ${serial}: total PSS ${kb(m.total_pss_kb)}, RSS ${kb(m.total_rss_kb)}`,
      `Java heap ${kb(m.java_heap.pss_kb)}, native heap ${kb(m.native_heap.pss_kb)}, code ${kb(m.code.pss_kb)}, stack ${kb(m.stack.pss_kb)}, graphics ${kb(m.graphics.pss_kb)}, other ${kb(m.private_other.pss_kb)}, system ${kb(m.system.pss_kb)}`,
      ...(Object.keys(m.objects).length > 0
        ? [
            `Objects: ${Object.entries(m.objects)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ')}`,
          ]
        : []),
    ];
    return { text: lines.join('\n'), structured: { ...m, device_serial: serial, package: pkg } };
  },
});

export const getAppRuntimeState = defineDeviceTool({
  name: 'get_app_runtime_state',
  answers: 'logcat.runtime_state',
  toolset: 'core',
  kind: 'read',
  title: 'App runtime state',
  description:
    'One call to orient: is the app installed (version), running (pids), in the foreground (activity), its memory, its last exit reason (Android 11+), and its crash count.',
  input: z.object({ package: packageParam }),
  output: appRuntimeStateSchema.extend({
    device_serial: z.string(),
    package: z.string(),
    running: z.boolean(),
  }),
  projectIndependent: false,
  after: ['start_logcat'],
  async handle(args, ctx) {
    const { serial, pkg } = await target(ctx, args);
    const r = await ctx.ask('logcat.runtime_state', { package: pkg });
    const running = r.pids.length > 0;
    const lines = [
      r.installed
        ? `${pkg} ${r.version_name ?? '?'} (versionCode ${r.version_code ?? '?'}) is installed on ${serial}${r.enabled === false ? ' but disabled' : ''}.`
        : `${pkg} is not installed on ${serial}.`,
      running ? `Running: pid ${r.pids.join(', ')}.` : 'Not running.',
      r.foreground ? `In the foreground: ${r.foreground_activity ?? pkg}.` : 'Not in the foreground.',
      ...(r.memory !== null
        ? [
            `Memory: total PSS ${kb(r.memory.total_pss_kb)}, RSS ${kb(r.memory.total_rss_kb)} (Java heap ${kb(r.memory.java_heap_pss_kb)}, native heap ${kb(r.memory.native_heap_pss_kb)}).`,
          ]
        : []),
      !r.exit_info_supported
        ? 'Last exit: unknown (exit reasons need Android 11+).'
        : r.last_exit !== null
          ? `Last exit: ${r.last_exit.line}`
          : 'Last exit: none recorded.',
      `Crashes read from logcat: ${r.logcat_crashes}.`,
    ];
    return {
      text: lines.join('\n'),
      structured: { device_serial: serial, package: pkg, running, ...r },
    };
  },
});

export const appStateTools = [getExitReasons, dumpAppInfo, getMemoryInfo, getAppRuntimeState];
