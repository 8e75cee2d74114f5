import { z } from 'zod';
import { defineRequest } from '../contract.js';

/** Requests about the Android project (answered by the project actor, off the JSON-RPC loop). */

export const projectDescriptionSchema = z.object({
  /** The folder the session selected, canonical. */
  project_root: z.string(),
  /** The nearest folder at or above it with settings.gradle(.kts); null when there is none. */
  gradle_root: z.string().nullable(),
  settings_file: z.string().nullable(),
  exists: z.boolean(),
  trusted: z.boolean(),
  trust_hint: z.string().nullable(),
});
export type ProjectDescription = z.infer<typeof projectDescriptionSchema>;

export const projectRequests = {
  'project.describe': defineRequest({
    actor: 'project',
    request: z.object({ root: z.string().max(4096) }),
    response: projectDescriptionSchema,
    timeoutMs: 15_000,
  }),
};
