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

export const packageScopeSchema = z.object({
  /** Application ids from build files, each may be followed by its suffixes (each at most once, any order). */
  bases: z.array(z.object({ id: z.string(), suffixes: z.array(z.string()), module: z.string() })),
  /** Application ids from output-metadata.json files, matched exactly. */
  exact: z.array(z.string()),
});

export const projectRequests = {
  /**
   * The project's package scope (the reference's "Package Scope"): which packages are the project's
   * own. With `package`, also whether that package is in it (and the refusal message when not).
   */
  'project.scope': defineRequest({
    actor: 'project',
    request: z.object({ root: z.string().max(4096), package: z.string().max(300).optional() }),
    response: z.object({
      scope: packageScopeSchema,
      /** A short list of the ids, for messages. */
      ids: z.array(z.string()),
      check: z
        .discriminatedUnion('ok', [
          z.object({ ok: z.literal(true) }),
          z.object({ ok: z.literal(false), message: z.string() }),
        ])
        .nullable(),
    }),
    timeoutMs: 15_000,
  }),
  'project.describe': defineRequest({
    actor: 'project',
    request: z.object({ root: z.string().max(4096) }),
    response: projectDescriptionSchema,
    timeoutMs: 15_000,
  }),
};
