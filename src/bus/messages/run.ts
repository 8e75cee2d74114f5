import { z } from 'zod';
import { defineRequest } from '../contract.js';
import { launchResultSchema } from './admin.js';
import { buildRequests } from './build.js';
import { serialSchema } from './devices.js';

/**
 * The run actor's workflows: a run configuration run as Run App runs it — resolved on the devices
 * adb lists now, built through the build actor, the APK that build wrote installed (recorded) and
 * the app launched (or only built: `run.build`). The tools and the host's page send them; every rule of the steps (trust, the
 * task policy, the package scope) is met in the actors that serve them.
 */

export const runOutcomeSchema = z.enum([
  'done',
  'build_failed',
  'cancelled',
  'install_failed',
  'launch_failed',
]);

export const runRequests = {
  'run.configuration': defineRequest({
    actor: 'run',
    request: z.object({
      root: z.string().min(1).max(4096),
      name: z.string().min(1).max(300),
      device_serial: serialSchema.optional(),
      /** Send the build's progress and one step per phase (the requester asked for progress). */
      want_progress: z.boolean().default(false),
    }),
    response: z.object({
      /** The configuration's name. */
      configuration: z.string(),
      plan: z.object({
        steps: z.array(z.string()),
        module: z.string(),
        variant: z.string(),
        application_id: z.string().nullable(),
        activity: z.string().nullable(),
        deep_link: z.string().nullable(),
      }),
      task: z.string(),
      outcome: runOutcomeSchema,
      /** One sentence: what was done, or which step failed and why. */
      result: z.string(),
      /** The lines a reader wants after it: the APK, the install record, the logcat filter. */
      notes: z.array(z.string()),
      /** The build step's answer (its record, first errors, what went wrong). */
      build: buildRequests['build.run'].response.nullable(),
      build_id: z.string().nullable(),
      device: z.object({ serial: z.string(), label: z.string() }),
      package: z.string().nullable(),
      apk_path: z.string().nullable(),
      apk_sha256: z.string().nullable(),
      apk_written_by_this_build: z.boolean(),
      launch: z.string(),
      launch_output: z.string().nullable(),
      launch_timing: launchResultSchema
        .pick({ total_ms: true, wait_ms: true, launch_state: true, displayed_ms: true, fully_drawn_ms: true })
        .nullable(),
      logcat_filter: z.string(),
    }),
    // The build bounds it (mcp.build_timeout_sec, at most 24 h); install and launch add minutes.
    timeoutMs: buildRequests['build.run'].timeoutMs + 600_000,
    survivesDisconnect: true,
  }),
  /**
   * A run configuration's build alone (its task, as run_gradle_task runs it) and the APK it stands
   * for: the one the build wrote, else the one Gradle left up to date. INVALID for an unknown name
   * (naming the project's configurations) or an untrusted project (`reason: untrusted_project`).
   */
  'run.build': defineRequest({
    actor: 'run',
    request: z.object({
      root: z.string().min(1).max(4096),
      name: z.string().min(1).max(300),
      want_progress: z.boolean().default(false),
    }),
    response: z.object({
      configuration: z.string(),
      module: z.string(),
      variant: z.string(),
      task: z.string(),
      build: buildRequests['build.run'].response,
      apk_path: z.string().nullable(),
      apk_written_by_this_build: z.boolean(),
      /** Why the APK is not this build's (Gradle found it up to date), or why there is none. */
      apk_note: z.string().nullable(),
    }),
    timeoutMs: buildRequests['build.run'].timeoutMs + 60_000,
    survivesDisconnect: true,
  }),
};
