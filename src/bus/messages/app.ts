import { z } from 'zod';
import { defineRequest } from '../contract.js';
import { serialSchema } from './devices.js';
import { gfxinfoWireSchema } from './gfxinfo.js';
import { packageNameSchema } from './logcat.js';
import { packageScopeSchema } from './project.js';

/**
 * Requests for one app's dumps — exit-info, dumpsys package and meminfo, gfxinfo, its runtime state
 * and the installed packages of a scope — which the logcat actor reads and parses off the JSON-RPC
 * loop (beside the crashes it reads from logcat). Plain data with bounded sizes.
 */

const byDevice = z.object({ serial: serialSchema });

export const exitRecordWireSchema = z.object({
  timestamp: z.string().nullable(),
  pid: z.number().int().nullable(),
  process: z.string().nullable(),
  reason: z.string(),
  reason_label: z.string().nullable(),
  subreason: z.string().nullable(),
  status: z.number().int().nullable(),
  signal: z.string().nullable(),
  importance: z.string().nullable(),
  pss_kb: z.number().nullable(),
  rss_kb: z.number().nullable(),
  description: z.string().nullable(),
  /** The compact line the text shows. */
  line: z.string(),
});
export type ExitRecordWire = z.infer<typeof exitRecordWireSchema>;

const memCategorySchema = z.object({ pss_kb: z.number().nullable(), rss_kb: z.number().nullable() });
const heapSchema = z.object({ size_kb: z.number(), alloc_kb: z.number(), free_kb: z.number() }).nullable();

export const meminfoWireSchema = z.object({
  pid: z.number().int().nullable(),
  process: z.string().nullable(),
  uptime_ms: z.number().nullable(),
  realtime_ms: z.number().nullable(),
  java_heap: memCategorySchema,
  native_heap: memCategorySchema,
  code: memCategorySchema,
  stack: memCategorySchema,
  graphics: memCategorySchema,
  private_other: memCategorySchema,
  system: memCategorySchema,
  unknown: memCategorySchema,
  total_pss_kb: z.number().nullable(),
  total_rss_kb: z.number().nullable(),
  total_swap_kb: z.number().nullable(),
  native_heap_usage: heapSchema,
  dalvik_heap_usage: heapSchema,
  objects: z.record(z.string(), z.number()),
});

const permissionSchema = z.object({ name: z.string(), granted: z.boolean(), flags: z.array(z.string()) });

export const packageInfoWireSchema = z.object({
  package: z.string(),
  user_id: z.number().nullable(),
  version_code: z.number().nullable(),
  version_name: z.string().nullable(),
  min_sdk: z.number().nullable(),
  target_sdk: z.number().nullable(),
  first_install_time: z.string().nullable(),
  last_update_time: z.string().nullable(),
  code_path: z.string().nullable(),
  data_dir: z.string().nullable(),
  primary_cpu_abi: z.string().nullable(),
  installer: z.string().nullable(),
  flags: z.array(z.string()),
  private_flags: z.array(z.string()),
  declared_permissions: z.array(z.string()),
  requested_permissions: z.array(z.string()),
  install_permissions: z.array(permissionSchema),
  runtime_permissions: z.array(permissionSchema),
  users: z.array(
    z.object({
      user: z.number(),
      installed: z.boolean().nullable(),
      hidden: z.boolean().nullable(),
      suspended: z.boolean().nullable(),
      stopped: z.boolean().nullable(),
      not_launched: z.boolean().nullable(),
      enabled: z.number().nullable(),
      enabled_state: z.string().nullable(),
    }),
  ),
});

/** `logcat.runtime_state`: installed, running, in front, memory and the last exit of one package. */

export const appRuntimeStateSchema = z.object({
  installed: z.boolean(),
  version_name: z.string().nullable(),
  version_code: z.number().nullable(),
  enabled: z.boolean().nullable(),
  pids: z.array(z.number().int()),
  foreground: z.boolean(),
  foreground_activity: z.string().nullable(),
  memory: z
    .object({
      total_pss_kb: z.number().nullable(),
      total_rss_kb: z.number().nullable(),
      java_heap_pss_kb: z.number().nullable(),
      native_heap_pss_kb: z.number().nullable(),
    })
    .nullable(),
  exit_info_supported: z.boolean(),
  last_exit: exitRecordWireSchema.nullable(),
  /** Crashes of the package droidbus read from logcat (0 when nothing streams). */
  logcat_crashes: z.number().int(),
});

export const appRequests = {
  /** `dumpsys activity exit-info PKG` (Android 11+), parsed, newest first. */
  'logcat.exit_info': defineRequest({
    actor: 'logcat',
    request: byDevice.extend({
      package: packageNameSchema,
      limit: z.number().int().min(1).max(100).default(20),
    }),
    response: z.object({
      supported: z.boolean(),
      sdk: z.number().int().nullable(),
      records: z.array(exitRecordWireSchema),
      total: z.number().int(),
      failures: z.number().int(),
      hint: z.string().nullable(),
    }),
    timeoutMs: 30_000,
  }),
  /** `dumpsys package PKG`, parsed; null when the package is not installed. */
  'logcat.package_info': defineRequest({
    actor: 'logcat',
    request: byDevice.extend({ package: packageNameSchema }),
    response: z.object({ info: packageInfoWireSchema.nullable() }),
    timeoutMs: 30_000,
  }),
  /** `dumpsys meminfo PKG`, parsed; null when no process of it runs. */
  'logcat.meminfo': defineRequest({
    actor: 'logcat',
    request: byDevice.extend({ package: packageNameSchema }),
    response: z.object({ meminfo: meminfoWireSchema.nullable(), note: z.string().nullable() }),
    timeoutMs: 30_000,
  }),
  /**
   * An app's frame statistics (`dumpsys gfxinfo PACKAGE`); with `reset`, the counters are cleared
   * right after they are read (`dumpsys gfxinfo PACKAGE reset`), so the next read counts what
   * happens from now. Null stats when the app runs no process.
   */
  'logcat.frame_stats': defineRequest({
    actor: 'logcat',
    request: byDevice.extend({ package: packageNameSchema, reset: z.boolean().default(false) }),
    response: z.object({
      stats: gfxinfoWireSchema.nullable(),
      reset: z.boolean(),
      note: z.string().nullable(),
    }),
    timeoutMs: 30_000,
  }),
  /** Installed, running, in front, memory and the last exit, in one device round trip. */
  'logcat.runtime_state': defineRequest({
    actor: 'logcat',
    request: byDevice.extend({ package: packageNameSchema }),
    response: appRuntimeStateSchema,
    timeoutMs: 30_000,
  }),
  /** The installed packages that are in a package scope (`pm list packages`, filtered). */
  'logcat.scope_packages': defineRequest({
    actor: 'logcat',
    request: byDevice.extend({ scope: packageScopeSchema }),
    response: z.object({ installed: z.array(z.string()) }),
    timeoutMs: 30_000,
  }),
};
