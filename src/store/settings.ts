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
/** `droidbus host --http`: its authentication and the names it answers to (issue 11). */
const HTTP_DEFAULTS = {
  bearer_enabled: true,
  bearer_token: null,
  oauth_enabled: true,
  allowed_hosts: [],
  allowed_origins: [],
  public_url: null,
  toolsets: null,
};
const httpSettingsSchema = z
  .looseObject({
    /** Accept the static bearer token on /mcp. */
    bearer_enabled: z.boolean().catch(true).default(true),
    /** The static bearer token; null until it is first generated. An empty string refuses everyone. */
    bearer_token: z.string().max(1024).nullable().catch(null).default(null),
    /** Accept access tokens of droidbus's own OAuth 2.1 authorization server on /mcp. */
    oauth_enabled: z.boolean().catch(true).default(true),
    /** More Host names the HTTP frontend answers to (a tunnel's, a LAN name), beside its own. */
    allowed_hosts: z.array(z.string().max(255)).max(64).catch([]).default([]),
    /** More browser origins allowed to call /mcp (`https://app.example`). */
    allowed_origins: z.array(z.string().max(255)).max(64).catch([]).default([]),
    /** The public base URL when a proxy or tunnel fronts the host (`https://name.example`). */
    public_url: z.string().max(255).nullable().catch(null).default(null),
    /** The toolsets HTTP sessions serve when their URL names none (null: the default ones; "all": every one). */
    toolsets: z.array(z.string().max(64)).max(16).nullable().catch(null).default(null),
  })
  .catch({ ...HTTP_DEFAULTS })
  .default({ ...HTTP_DEFAULTS });

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
      /** `gradlew properties` may print the project's properties (secrets of ~/.gradle included). */
      allow_gradle_properties: z.boolean().catch(false).default(false),
      logcat_default_count: z.number().int().min(1).max(10_000).catch(200).default(200),
      default_build_log_lines: z.number().int().min(1).max(2_000).catch(200).default(200),
    })
    .catch({
      build_timeout_sec: 600,
      allow_unrestricted_gradle: false,
      allow_gradle_properties: false,
      logcat_default_count: 200,
      default_build_log_lines: 200,
    })
    .default({
      build_timeout_sec: 600,
      allow_unrestricted_gradle: false,
      allow_gradle_properties: false,
      logcat_default_count: 200,
      default_build_log_lines: 200,
    }),
  http: httpSettingsSchema,
  /** The adb servers to serve devices from (`[NAME=]ADDR`, as --adb-server takes them); empty: the local one. */
  adb_servers: z.array(z.string().max(300)).max(32).catch([]).default([]),
  /** Accept adb servers on other machines (the adb protocol has no authentication). */
  allow_remote_adb_server: z.boolean().catch(false).default(false),
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
