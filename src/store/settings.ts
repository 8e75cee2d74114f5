import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { logger } from '../util/log.js';
import { writeFileAtomic } from './atomic.js';
import { ensureDataDir } from './data-dir.js';
import { withDataLock } from './lock.js';

const log = logger('settings');

/**
 * settings.json. Unknown keys are kept (a newer droidbus may have written them), and a field that
 * does not parse falls back to its default instead of making the whole file unreadable.
 */
export const settingsSchema = z.looseObject({
  /** Canonical project roots the user trusted with `droidbus trust`. */
  trusted_projects: z.array(z.string()).catch([]).default([]),
  last_active_project: z.string().nullable().catch(null).default(null),
  /** Project root → active variant name. */
  active_variants: z.record(z.string(), z.string()).catch({}).default({}),
  /** Device serial → device folders the user allowed the file tools in (`droidbus storage allow`). */
  device_storage: z.record(z.string(), z.array(z.string())).catch({}).default({}),
  mcp: z
    .looseObject({
      build_timeout_sec: z
        .number()
        .int()
        .min(10)
        .max(24 * 3600)
        .catch(600)
        .default(600),
      allow_unrestricted_gradle: z.boolean().catch(false).default(false),
      logcat_default_count: z.number().int().min(1).max(10_000).catch(200).default(200),
      default_build_log_lines: z.number().int().min(1).max(2_000).catch(200).default(200),
    })
    .catch({
      build_timeout_sec: 600,
      allow_unrestricted_gradle: false,
      logcat_default_count: 200,
      default_build_log_lines: 200,
    })
    .default({
      build_timeout_sec: 600,
      allow_unrestricted_gradle: false,
      logcat_default_count: 200,
      default_build_log_lines: 200,
    }),
});
export type Settings = z.infer<typeof settingsSchema>;

/** The settings file's path. */
export function settingsPath(): string {
  return path.join(ensureDataDir(), 'settings.json');
}

/** Reads settings; a missing or unreadable file gives the defaults (and a warning when unreadable). */
export function readSettings(): Settings {
  let raw: unknown = {};
  try {
    raw = JSON.parse(readFileSync(settingsPath(), 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      log.warn('settings.json is unreadable; using defaults', { error: (err as Error).message });
    }
  }
  const parsed = settingsSchema.safeParse(raw);
  return parsed.success ? parsed.data : settingsSchema.parse({});
}

/** Changes settings under the data lock and writes them atomically; returns the new settings. */
export async function updateSettings(change: (settings: Settings) => void): Promise<Settings> {
  return withDataLock(() => {
    const settings = readSettings();
    change(settings);
    writeFileAtomic(settingsPath(), JSON.stringify(settings, null, 2) + '\n', 0o600);
    return settings;
  });
}
