import { z } from 'zod';
import { originSchema } from './origin.js';

/**
 * One build as `<data dir>/build-history.json` keeps it (and the APKs, mappings and provenance it
 * records). This is a file format: the bus carries these records as they are (`build.run`,
 * `build.history`…), but a change here changes what older and newer droidbus processes read —
 * add fields as optional (older records lack them) and keep BUILD_HISTORY_VERSION's readers.
 */

/** The history file's format version (records gained optional fields since 1; none were removed). */
export const BUILD_HISTORY_VERSION = 1;

/** An APK a build wrote, as found on disk after it. */
export const builtApkSchema = z.object({
  /** Canonical path. */
  path: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  /** From the APK's binary manifest; null when it could not be read. */
  package: z.string().nullable(),
  version_code: z.number().int().nullable(),
  version_name: z.string().nullable(),
  /** The variant output-metadata.json (or the output directory) names. */
  variant: z.string().nullable(),
  module: z.string().nullable(),
  /** `androidGradlePluginVersion` from the APK's app-metadata.properties (AGP writes it); absent in older records. */
  agp_version: z.string().nullable().optional(),
  /** Written before the build: Gradle found its task UP-TO-DATE (the file is the variant's current output). */
  up_to_date: z.boolean().optional(),
});
export type BuiltApk = z.infer<typeof builtApkSchema>;

/** An R8/ProGuard mapping file a build wrote. */
export const builtMappingSchema = z.object({
  path: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  /** The `# pg_map_id:` header R8 writes (the id crash frames name); null when absent. */
  map_id: z.string().nullable(),
  variant: z.string().nullable(),
  /** Written before the build: Gradle found R8's task UP-TO-DATE. */
  up_to_date: z.boolean().optional(),
});
export type BuiltMapping = z.infer<typeof builtMappingSchema>;

/** Where the built sources came from, for later debug sessions. */
export const gitProvenanceSchema = z.object({
  commit: z.string(),
  /** null on a detached HEAD. */
  branch: z.string().nullable(),
  dirty: z.boolean(),
  /** `git status --porcelain` paths, relative to the repository (at most 200). */
  changed_files: z.array(z.string()),
  changed_files_truncated: z.boolean(),
});

/** Resolved dependency versions a `dependencies` report in the build's output showed. */
export const resolvedDependenciesSchema = z.object({
  /** The configuration they come from (`demoDebugRuntimeClasspath`). */
  configuration: z.string(),
  /** `group:name` → resolved version. */
  versions: z.record(z.string(), z.string()),
  count: z.number().int(),
  truncated: z.boolean(),
});
export type ResolvedDependenciesWire = z.infer<typeof resolvedDependenciesSchema>;

/** A build file's content hash, so two builds can say which build files changed between them. */
export const buildFileHashSchema = z.object({
  /** Relative to the project root, `/`-separated. */
  path: z.string(),
  sha256: z.string(),
});

/** One build as build-history.json keeps it. */
export const buildRecordSchema = z.object({
  id: z.string(),
  project_root: z.string(),
  /** The task Gradle ran (after applying `variant`). */
  task: z.string(),
  /** The task as it was asked for. */
  requested_task: z.string(),
  variant: z.string().nullable(),
  /** The module the task belongs to (`:app`), when known. */
  module: z.string().nullable(),
  origin: originSchema,
  cancelled_by: originSchema.nullable(),
  /** The droidbus process that ran it. */
  pid: z.number().int(),
  started_at: z.string(),
  ended_at: z.string(),
  duration_ms: z.number().int(),
  result: z.enum(['success', 'failed', 'cancelled']),
  /** Why it failed or was cancelled, in words (timeout, exit code, who cancelled); null on success. */
  reason: z.string().nullable(),
  timed_out: z.boolean(),
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  failed_tasks: z.array(z.string()),
  diagnostics: z.object({
    errors: z.number().int(),
    warnings: z.number().int(),
    infos: z.number().int(),
    /** Beyond the kept maximum: counted, not kept. */
    dropped: z.number().int(),
  }),
  /** The output had no `BUILD …` line (cut short, killed). */
  output_truncated: z.boolean(),
  log_lines: z.number().int(),
  apks: z.array(builtApkSchema),
  mapping_files: z.array(builtMappingSchema),
  gradle_version: z.string().nullable(),
  agp_version: z.string().nullable(),
  /** The JAVA_HOME the build ran with (null: the java on PATH). */
  java_home: z.string().nullable(),
  provenance: z.object({
    git: gitProvenanceSchema.nullable(),
    /** Why `git` is null (not a repository, git missing, timed out). */
    git_reason: z.string().nullable(),
  }),
  // Added later; records written before them lack these fields (read as "not recorded").
  /** The JDK's version (`java -version`) the build ran with. */
  jdk_version: z.string().nullable().optional(),
  /** Where agp_version came from: a line of the output, or the APK's app-metadata.properties. */
  agp_version_source: z.enum(['output', 'apk']).nullable().optional(),
  /** Resolved dependency versions, when the output printed a dependency report; null when it did not. */
  dependencies: resolvedDependenciesSchema.nullable().optional(),
  /** Hashes of the settings, build.gradle(.kts), version catalog and properties files at build time. */
  build_files: z.array(buildFileHashSchema).nullable().optional(),
});
export type BuildRecord = z.infer<typeof buildRecordSchema>;
