import { z } from 'zod';
import { defineRequest } from '../contract.js';

/** Deobfuscation of crash traces with the R8 mapping of the build that is on the device. */

export const retraceOutcomeSchema = z.object({
  /** retraced; unavailable (nothing to retrace with); refused (uncertain which build); failed (a broken mapping). */
  status: z.enum(['retraced', 'unavailable', 'refused', 'failed']),
  /** The deobfuscated trace, else the trace as logcat printed it. */
  trace: z.string(),
  /** One line for people: the build, module, variant and map id used and how it was matched; or why not. */
  mapping_line: z.string(),
  build_id: z.string().nullable(),
  module: z.string().nullable(),
  variant: z.string().nullable(),
  map_id: z.string().nullable(),
  mapping_sha256: z.string().nullable(),
  matched_by: z.enum(['map_id', 'device_hash', 'install_record']).nullable(),
  device: z.string().nullable(),
  reason: z.string().nullable(),
});
export type RetraceOutcome = z.infer<typeof retraceOutcomeSchema>;

export const retraceRequests = {
  'retrace.crash': defineRequest({
    actor: 'retrace',
    request: z.object({
      trace: z.string().max(2 * 1024 * 1024),
      /** The device the crash happened on (for matching by the APK it has installed). */
      device: z.string().max(200).nullable(),
      package: z.string().max(300).nullable(),
      /** The session's project: its build outputs' mappings are searched by the trace's map id. */
      root: z.string().max(4096).nullable().optional(),
    }),
    response: retraceOutcomeSchema,
    timeoutMs: 60_000,
  }),
};
