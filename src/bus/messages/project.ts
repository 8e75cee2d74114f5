import { z } from 'zod';
import { defineRequest } from '../contract.js';

/** Requests about the Android project (answered by the project actor, off the JSON-RPC loop). */

/** What get_project_info shows of the project model (read without running Gradle). */
export const projectModelSummarySchema = z.object({
  /** Gradle paths of the Android modules. */
  modules: z.array(z.string()),
  application_modules: z.array(
    z.object({
      path: z.string(),
      dir: z.string().nullable(),
      build_file: z.string().nullable(),
      dsl: z.enum(['kotlin', 'groovy']).nullable(),
      namespace: z.string().nullable(),
      application_id: z.string().nullable(),
      compile_sdk: z.number().int().nullable(),
      min_sdk: z.number().int().nullable(),
      target_sdk: z.number().int().nullable(),
      variants: z.number().int(),
    }),
  ),
  variants_count: z.number().int(),
  active_variant: z.string().nullable(),
  agp_version: z.string().nullable(),
  /** The package scope's ids (see the reference's "Package Scope"). */
  packages: z.array(z.string()),
  /** What the reader could not work out without Gradle. */
  notes: z.array(z.string()),
});
export type ProjectModelSummary = z.infer<typeof projectModelSummarySchema>;

export const variantSchema = z.object({
  module: z.string(),
  name: z.string(),
  build_type: z.string(),
  flavors: z.array(z.string()),
  application_id: z.string().nullable(),
  debuggable: z.boolean().nullable(),
  minify_enabled: z.boolean().nullable(),
  tasks: z.object({
    assemble: z.string(),
    install: z.string().nullable(),
    bundle: z.string().nullable(),
    unit_test: z.string(),
    connected_test: z.string().nullable(),
    lint: z.string(),
  }),
  apk_dir: z.string().nullable(),
});
export type VariantWire = z.infer<typeof variantSchema>;

export const buildConfigSchema = z.object({
  module: z.string(),
  dir: z.string().nullable(),
  build_file: z.string().nullable(),
  dsl: z.enum(['kotlin', 'groovy']).nullable(),
  plugins: z.array(z.string()),
  is_application: z.boolean(),
  namespace: z.string().nullable(),
  application_id: z.string().nullable(),
  application_id_suffix: z.string().nullable(),
  compile_sdk: z.number().int().nullable(),
  min_sdk: z.number().int().nullable(),
  target_sdk: z.number().int().nullable(),
  version_code: z.number().int().nullable(),
  version_name: z.string().nullable(),
  flavor_dimensions: z.array(z.string()).nullable(),
  build_types: z.array(
    z.object({
      name: z.string(),
      application_id_suffix: z.string().nullable(),
      debuggable: z.boolean().nullable(),
      minify_enabled: z.boolean().nullable(),
    }),
  ),
  product_flavors: z.array(
    z.object({
      name: z.string(),
      dimension: z.string().nullable(),
      application_id: z.string().nullable(),
      application_id_suffix: z.string().nullable(),
      min_sdk: z.number().int().nullable(),
      target_sdk: z.number().int().nullable(),
    }),
  ),
  agp_version: z.string().nullable(),
  /** Values only Gradle can evaluate (variables, function calls), named so they are not guessed. */
  unknown: z.array(z.string()),
  notes: z.array(z.string()),
});

export const runConfigurationSchema = z.object({
  name: z.string(),
  module: z.string(),
  variant: z.string(),
  task: z.string(),
  launch: z.string(),
  target: z.string(),
  last_device: z.string().nullable(),
  logcat_filter: z.string().nullable(),
  shared: z.boolean(),
  active: z.boolean(),
  plan: z
    .object({
      steps: z.array(z.enum(['build', 'install', 'launch'])),
      application_id: z.string().nullable(),
      apk_dir: z.string().nullable(),
      activity: z.string().nullable(),
      deep_link: z.string().nullable(),
    })
    .nullable(),
  cannot_run: z.string().nullable(),
  hint: z.string().nullable(),
});
export type RunConfigurationWire = z.infer<typeof runConfigurationSchema>;

/** The project files the android://… resources serve. */
export const PROJECT_FILE_KINDS = [
  'manifest',
  'app_build_gradle',
  'build_gradle',
  'gradle_settings',
] as const;
export type ProjectFileKind = (typeof PROJECT_FILE_KINDS)[number];

export const projectDescriptionSchema = z.object({
  /** The folder the session selected, canonical. */
  project_root: z.string(),
  /** The nearest folder at or above it with settings.gradle(.kts); null when there is none. */
  gradle_root: z.string().nullable(),
  settings_file: z.string().nullable(),
  exists: z.boolean(),
  trusted: z.boolean(),
  trust_hint: z.string().nullable(),
  /** The project model; null when there is no Gradle build. */
  model: projectModelSummarySchema.nullable(),
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
  /** The application modules' variants and the active one. */
  'project.variants': defineRequest({
    actor: 'project',
    request: z.object({ root: z.string().max(4096) }),
    response: z.object({ variants: z.array(variantSchema), active_variant: z.string().nullable() }),
    timeoutMs: 15_000,
  }),
  /** Makes a variant the project's active one (settings.json, under the data lock). */
  'project.set_active_variant': defineRequest({
    actor: 'project',
    request: z.object({ root: z.string().max(4096), variant: z.string().max(200) }),
    response: z.object({
      active_variant: z.string(),
      previous: z.string().nullable(),
      modules: z.array(z.string()),
    }),
    timeoutMs: 15_000,
  }),
  /** The APK a variant's build wrote (output-metadata.json first, else its output directory). */
  'project.find_apk': defineRequest({
    actor: 'project',
    request: z.object({
      root: z.string().max(4096),
      variant: z.string().max(200).optional(),
      module: z.string().max(300).optional(),
    }),
    response: z.object({
      found: z.boolean(),
      path: z.string().nullable(),
      module: z.string().nullable(),
      variant: z.string().nullable(),
      application_id: z.string().nullable(),
      via: z.enum(['output-metadata', 'directory']).nullable(),
      reason: z.string().nullable(),
      candidates: z.array(z.string()),
    }),
    timeoutMs: 15_000,
  }),
  /** One module's Android configuration, read from its build file. */
  'project.build_config': defineRequest({
    actor: 'project',
    request: z.object({ root: z.string().max(4096), module: z.string().max(200).optional() }),
    response: buildConfigSchema,
    timeoutMs: 15_000,
  }),
  /** The project's run configurations, each resolved for building (never run here). */
  'project.run_configurations': defineRequest({
    actor: 'project',
    request: z.object({ root: z.string().max(4096) }),
    response: z.object({
      configurations: z.array(runConfigurationSchema),
      active: z.string().nullable(),
      trusted: z.boolean(),
    }),
    timeoutMs: 15_000,
  }),
  /** `run_run_configuration` ran configuration `name` on `serial`: its last device from now on. */
  'project.record_run_device': defineRequest({
    actor: 'project',
    request: z.object({
      root: z.string().max(4096),
      name: z.string().min(1).max(512),
      serial: z.string().min(1).max(256),
    }),
    response: z.object({}),
    timeoutMs: 15_000,
  }),
  /** Which android://… project files exist as regular files inside the project. */
  'project.files': defineRequest({
    actor: 'project',
    request: z.object({ root: z.string().max(4096) }),
    response: z.object({
      files: z.array(
        z.object({
          kind: z.enum(PROJECT_FILE_KINDS),
          /** Relative to the project root; null when the project has no such file. */
          path: z.string().nullable(),
          listed: z.boolean(),
          reason: z.string().nullable(),
        }),
      ),
    }),
    timeoutMs: 15_000,
  }),
  /**
   * Reads one of those files: at most 512 KiB with a truncation note, invalid UTF-8 as U+FFFD.
   * NOT_FOUND when the project has none; INVALID when it resolves outside the project.
   */
  'project.read_file': defineRequest({
    actor: 'project',
    request: z.object({ root: z.string().max(4096), kind: z.enum(PROJECT_FILE_KINDS) }),
    response: z.object({
      path: z.string(),
      text: z.string(),
      size: z.number().int(),
      truncated: z.boolean(),
    }),
    timeoutMs: 15_000,
  }),
  'project.network_security_config': defineRequest({
    actor: 'project',
    request: z.object({
      root: z.string().max(4096),
      /** The application module's Gradle path (`:app`); needed with several. */
      module: z.string().max(300).optional(),
      /** Plan only: answer the files and their contents, write nothing. */
      dry_run: z.boolean(),
    }),
    response: z.object({
      module: z.string(),
      /** The config's resource name (`network_security_config`). */
      name: z.string(),
      written: z.boolean(),
      files: z.array(
        z.object({
          path: z.string(),
          action: z.enum(['create', 'update', 'unchanged']),
          why: z.string(),
          content: z.string(),
        }),
      ),
      notes: z.array(z.string()),
    }),
    timeoutMs: 30_000,
  }),
};
