import { z } from 'zod';
import { defineEvent, defineRequest } from '../contract.js';
import { originSchema } from '../origin.js';
import {
  buildFileHashSchema,
  buildRecordSchema,
  builtApkSchema,
  builtMappingSchema,
  gitProvenanceSchema,
  resolvedDependenciesSchema,
  type BuildRecord,
  type BuiltApk,
  type BuiltMapping,
  type ResolvedDependenciesWire,
} from '../../store/formats/build-record.js';

/** Requests and events of the build actor: Gradle builds, their diagnostics, log and history. */

const rootSchema = z.string().min(1).max(4096);
const buildIdSchema = z
  .string()
  .regex(/^b[0-9a-z-]{6,60}$/, 'a build id as get_build_status returns it (b…)')
  .describe('A build id as get_build_status or the history returns it');

/** One diagnostic as the wire carries it (snake_case, as tools return it). */
export const buildDiagnosticSchema = z.object({
  severity: z.enum(['error', 'warning', 'info']),
  source: z.string(),
  message: z.string(),
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
  end_line: z.number().int().nullable(),
  end_column: z.number().int().nullable(),
  task: z.string().nullable(),
  /** A tool's own id for the problem (a lint issue id). */
  code: z.string().nullable(),
  /** The 1-based line of the build output where it was reported. */
  output_line: z.number().int(),
});
export type BuildDiagnosticWire = z.infer<typeof buildDiagnosticSchema>;

// Build records are a file format (build-history.json), carried on the bus as they are.
export {
  buildFileHashSchema,
  buildRecordSchema,
  builtApkSchema,
  builtMappingSchema,
  gitProvenanceSchema,
  resolvedDependenciesSchema,
};
export type { BuildRecord, BuiltApk, BuiltMapping, ResolvedDependenciesWire };

/** The build that holds the slot now. */
export const runningBuildSchema = z.object({
  id: z.string(),
  project_root: z.string(),
  task: z.string(),
  variant: z.string().nullable(),
  module: z.string().nullable(),
  origin: originSchema,
  started_at: z.string(),
  elapsed_ms: z.number().int(),
  /** The last `> Task …` Gradle printed. */
  current_task: z.string().nullable(),
  log_lines: z.number().int(),
  errors: z.number().int(),
  warnings: z.number().int(),
  /** Set once a cancel was asked for; the build is being stopped. */
  cancelling: originSchema.nullable(),
});
export type RunningBuild = z.infer<typeof runningBuildSchema>;

/** A test class (`com.example.LoginTest`) or one of its methods (`com.example.LoginTest#signIn`). */
export const TEST_NAME_RE = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*(#[A-Za-z_$][\w$]*)?$/;
/** A package (`com.example.login`). */
export const TEST_PACKAGE_RE = /^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$/;

const testNames = z
  .string()
  .max(4000)
  .refine(
    (v) => v.split(',').every((n) => TEST_NAME_RE.test(n)),
    'test classes or Class#method names, comma-separated',
  );
const testPackages = z
  .string()
  .max(4000)
  .refine((v) => v.split(',').every((n) => TEST_PACKAGE_RE.test(n)), 'package names, comma-separated');

/** What run_tests' `tests` takes: `Class`, `Class#method` or `package.*`, `-` first to leave one out. */
export const TEST_SELECTOR_RE =
  /^-?([A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*(#[A-Za-z_$][\w$]*)?|[A-Za-z_]\w*(\.[A-Za-z_]\w*)*\.\*)$/;

/** The runner arguments for a list of selectors (TEST_SELECTOR_RE): class, notClass, package, notPackage. */
export function runnerArgsOf(selectors: readonly string[]): RunnerArgs {
  const pick = (exclude: boolean, pkg: boolean): string | undefined => {
    const names = selectors
      .filter((s) => s.startsWith('-') === exclude && s.endsWith('.*') === pkg)
      .map((s) => s.replace(/^-/, '').replace(/\.\*$/, ''));
    return names.length > 0 ? names.join(',') : undefined;
  };
  const entries: [keyof RunnerArgs, string | undefined][] = [
    ['class', pick(false, false)],
    ['notClass', pick(true, false)],
    ['package', pick(false, true)],
    ['notPackage', pick(true, true)],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined)) as RunnerArgs;
}

/** The AndroidJUnitRunner arguments droidbus passes (androidx.test RunnerArgs' names). */
export const runnerArgsSchema = z
  .object({ class: testNames, notClass: testNames, package: testPackages, notPackage: testPackages })
  .partial()
  .strict();
export type RunnerArgs = z.infer<typeof runnerArgsSchema>;

export const buildRequests = {
  /**
   * Runs one Gradle task in the project: the task policy, the trust check, the build slot and the
   * cross-process lock, then `gradlew`. Lasts as long as the build; cancelling the request cancels
   * the build. It survives its client's disconnect: the build is finished and recorded.
   */
  'build.run': defineRequest({
    actor: 'build',
    request: z.object({
      root: rootSchema,
      task: z.string().max(300),
      variant: z.string().max(200).nullable().default(null),
      /** Send progress every 2 s (the MCP request carried a progressToken). */
      want_progress: z.boolean().default(false),
      /**
       * AndroidJUnitRunner's arguments for the connected tests (`class`, `notClass`, `package`,
       * `notPackage`), passed as Gradle's `-Pandroid.testInstrumentationRunnerArguments.KEY=VALUE`.
       */
      runner_args: runnerArgsSchema.optional(),
    }),
    response: z.object({
      record: buildRecordSchema,
      /** The first errors (all of them through build.errors). */
      errors: z.array(buildDiagnosticSchema),
      /** The "What went wrong" paragraphs Gradle printed. */
      what_went_wrong: z.array(z.string()),
    }),
    // The actor enforces mcp.build_timeout_sec (at most 24 h); this only bounds a stuck actor.
    timeoutMs: 24 * 3600_000 + 600_000,
    survivesDisconnect: true,
  }),
  /** The running build (any project: the slot is shared) and the last build of this project. */
  'build.status': defineRequest({
    actor: 'build',
    request: z.object({ root: rootSchema.nullable() }),
    response: z.object({ running: runningBuildSchema.nullable(), last: buildRecordSchema.nullable() }),
    timeoutMs: 10_000,
  }),
  /** Diagnostics of a build: the running one, else the last one of the project, or `build_id`. */
  'build.errors': defineRequest({
    actor: 'build',
    request: z.object({
      root: rootSchema.nullable(),
      build_id: buildIdSchema.optional(),
      include_warnings: z.boolean().default(false),
      limit: z.number().int().min(1).max(2000).default(100),
    }),
    response: z.object({
      build: z
        .object({
          id: z.string(),
          task: z.string(),
          running: z.boolean(),
          result: z.enum(['success', 'failed', 'cancelled']).nullable(),
          failed_tasks: z.array(z.string()),
        })
        .nullable(),
      diagnostics: z.array(buildDiagnosticSchema),
      /** Matching diagnostics in all (the list stops at `limit`). */
      total: z.number().int(),
      what_went_wrong: z.array(z.string()),
      /** False when the build's diagnostics are no longer kept (an old build from the history). */
      available: z.boolean(),
    }),
    timeoutMs: 10_000,
  }),
  /** The last lines of a build's output. */
  'build.log': defineRequest({
    actor: 'build',
    request: z.object({
      root: rootSchema.nullable(),
      build_id: buildIdSchema.optional(),
      /** Default: settings.mcp.default_build_log_lines (200). */
      lines: z.number().int().min(1).max(2000).optional(),
    }),
    response: z.object({
      build_id: z.string().nullable(),
      task: z.string().nullable(),
      running: z.boolean(),
      lines: z.array(z.string()),
      /** Lines the build printed in all. */
      total_lines: z.number().int(),
      /** False when the build's log is no longer kept. */
      available: z.boolean(),
    }),
    timeoutMs: 10_000,
  }),
  /** Cancels the running build, whoever started it; recorded as cancelled by this request's origin. */
  'build.cancel': defineRequest({
    actor: 'build',
    request: z.object({}),
    response: z.object({
      cancelled: z.boolean(),
      build_id: z.string().nullable(),
      task: z.string().nullable(),
      message: z.string(),
      /** The build's record once it stopped (null when none ran or it did not stop in time). */
      record: buildRecordSchema.nullable(),
    }),
    timeoutMs: 30_000,
  }),
  /** Waits until no build runs (a standalone server whose client left waits for its build). */
  'build.wait_idle': defineRequest({
    actor: 'build',
    request: z.object({
      timeout_ms: z
        .number()
        .int()
        .min(0)
        .max(25 * 3600_000),
    }),
    response: z.object({ idle: z.boolean(), build_id: z.string().nullable() }),
    timeoutMs: 25 * 3600_000 + 60_000,
  }),
  /** The newest history records of a project (newest first). */
  'build.history': defineRequest({
    actor: 'build',
    request: z.object({ root: rootSchema.nullable(), limit: z.number().int().min(1).max(100).default(20) }),
    response: z.object({ records: z.array(buildRecordSchema) }),
    timeoutMs: 10_000,
  }),
};

export const buildEvents = {
  /** A build took the slot and Gradle was started. */
  'build.started': defineEvent(
    z.object({
      id: z.string(),
      project_root: z.string(),
      task: z.string(),
      variant: z.string().nullable(),
      module: z.string().nullable(),
      origin: originSchema,
      started_at: z.string(),
      pid: z.number().int(),
    }),
  ),
  /** Output lines, in batches (`from` is the 0-based index of the first line in the build's output). */
  'build.lines': defineEvent(
    z.object({ id: z.string(), from: z.number().int(), lines: z.array(z.string()).max(5000) }),
  ),
  /** A build ended (any result); the record is what build-history.json keeps. */
  'build.completed': defineEvent(z.object({ record: buildRecordSchema })),
};
