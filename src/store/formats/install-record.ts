import { z } from 'zod';
import { originSchema } from './origin.js';

/** installed-builds.json's format version (records gained optional fields since 1; none were removed). */
export const INSTALL_RECORDS_VERSION = 1;

/**
 * A file format: installed-builds.json and every debug-session file keep install records in this
 * shape (the bus carries them as they are). Add fields as optional; older records lack them.
 */

/** One install droidbus made, as installed-builds.json keeps it. */
export const installRecordSchema = z.object({
  id: z.string(),
  device: z.string(),
  package: z.string(),
  apk_path: z.string(),
  apk_sha256: z.string(),
  apk_size: z.number().int(),
  version_code: z.number().int().nullable(),
  version_name: z.string().nullable(),
  /** The build whose history lists this APK hash; null when no build matched. */
  build_id: z.string().nullable(),
  module: z.string().nullable(),
  variant: z.string().nullable(),
  project_root: z.string().nullable(),
  installed_at: z.string(),
  /** The package's lastUpdateTime as the device reported it right after the install (epoch ms). */
  device_last_update_ms: z.number().nullable(),
  installed_by: originSchema,
  /** Which kind of droidbus process recorded it. */
  recorded_by: z.enum(['standalone', 'host']),
});
export type InstallRecord = z.infer<typeof installRecordSchema>;
