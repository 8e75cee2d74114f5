/**
 * The project model as the bus carries it: plain snake_case views of modules, variants, build
 * configuration and run configurations, made from src/project's model (read without Gradle).
 */
import type { z } from 'zod';
import type {
  ProjectModelSummary,
  RunConfigurationWire,
  VariantWire,
  buildConfigSchema,
} from '../../bus/messages/project.js';
import type { PackageScope } from '../../project/package-scope.js';
import { scopeIds } from '../../project/package-scope.js';
import {
  defaultApplicationId,
  effectiveNamespace,
  type ModuleInfo,
  type ProjectModel,
} from '../../project/project-model.js';
import {
  defaultRunConfigurations,
  resolveRunConfiguration,
  type RunConfiguration,
} from '../../project/run-configurations.js';
import { moduleVariants, projectVariants, type BuildVariant } from '../../project/variants.js';

/** A string field of the model: null for both "not set" and "only Gradle knows". */
function str(v: string | null | undefined): string | null {
  return typeof v === 'string' ? v : null;
}

/** One variant for the wire. */
export function variantView(v: BuildVariant): VariantWire {
  return {
    module: v.module,
    name: v.name,
    build_type: v.buildType,
    flavors: v.flavors,
    application_id: v.applicationId,
    debuggable: v.debuggable,
    minify_enabled: v.minifyEnabled,
    tasks: {
      assemble: v.tasks.assemble,
      install: v.tasks.install,
      bundle: v.tasks.bundle,
      unit_test: v.tasks.unitTest,
      connected_test: v.tasks.connectedTest,
      lint: v.tasks.lint,
    },
    apk_dir: v.apkDir,
  };
}

/** The summary get_project_info shows. */
export function modelSummary(
  model: ProjectModel,
  scope: PackageScope,
  activeVariant: string | null,
): ProjectModelSummary {
  const apps = model.modules.filter((m) => m.isApplication);
  return {
    modules: model.modules.filter((m) => m.isAndroid).map((m) => m.path),
    application_modules: apps.map((m) => ({
      path: m.path,
      dir: m.dir,
      build_file: m.buildFile,
      dsl: m.dsl,
      namespace: effectiveNamespace(m),
      application_id: defaultApplicationId(m),
      compile_sdk: m.android?.compileSdk ?? null,
      min_sdk: m.android?.minSdk ?? null,
      target_sdk: m.android?.targetSdk ?? null,
      variants: moduleVariants(m).length,
    })),
    variants_count: projectVariants(model).length,
    active_variant: activeVariant,
    agp_version: model.agpVersion,
    packages: scopeIds(scope, 24),
    notes: [...model.notes, ...model.modules.flatMap((m) => m.notes.map((n) => `${m.path}: ${n}`))].slice(
      0,
      20,
    ),
  };
}

/** One module's Android configuration. */
export function buildConfigView(model: ProjectModel, m: ModuleInfo): z.infer<typeof buildConfigSchema> {
  const a = m.android;
  return {
    module: m.path,
    dir: m.dir,
    build_file: m.buildFile,
    dsl: m.dsl,
    plugins: m.plugins,
    is_application: m.isApplication,
    namespace: effectiveNamespace(m),
    application_id: m.isApplication ? defaultApplicationId(m) : null,
    application_id_suffix: str(a?.applicationIdSuffix),
    compile_sdk: a?.compileSdk ?? null,
    min_sdk: a?.minSdk ?? null,
    target_sdk: a?.targetSdk ?? null,
    version_code: a?.versionCode ?? null,
    version_name: a?.versionName ?? null,
    flavor_dimensions: a ? a.flavorDimensions : null,
    build_types: (a?.buildTypes ?? []).map((b) => ({
      name: b.name,
      application_id_suffix: str(b.applicationIdSuffix),
      debuggable: b.debuggable,
      minify_enabled: b.minifyEnabled,
    })),
    product_flavors: (a?.productFlavors ?? []).map((f) => ({
      name: f.name,
      dimension: f.dimension,
      application_id: str(f.applicationId),
      application_id_suffix: str(f.applicationIdSuffix),
      min_sdk: f.minSdk,
      target_sdk: f.targetSdk,
    })),
    agp_version: model.agpVersion,
    unknown: (a?.unknown ?? []).slice(0, 50),
    notes: m.notes.slice(0, 20),
  };
}

function describeTarget(c: RunConfiguration): string {
  switch (c.target.kind) {
    case 'serial':
      return `serial:${c.target.serial}`;
    case 'avd':
      return `avd:${c.target.avd}`;
    default:
      return c.target.kind;
  }
}

function describeLaunch(c: RunConfiguration): string {
  switch (c.launch.kind) {
    case 'activity':
      return `activity:${c.launch.activity}`;
    case 'deep-link':
      return `deep-link:${c.launch.url}`;
    default:
      return c.launch.kind;
  }
}

/**
 * The project's run configurations (the defaults: one per application module and debuggable
 * variant, the active variant first), each resolved without a device: which device one runs on
 * is decided when it runs.
 */
export function runConfigurationViews(
  model: ProjectModel,
  trusted: boolean,
  activeVariant: string | null,
  trustHint: string | null,
  lastDevices: Readonly<Record<string, string>> = {},
): { configurations: RunConfigurationWire[]; active: string | null } {
  const apps = model.modules.filter((m) => m.isApplication);
  const activeVariants: Record<string, string> = {};
  if (activeVariant !== null) {
    for (const m of apps) {
      activeVariants[m.path] = activeVariant;
    }
  }
  const configs = defaultRunConfigurations(model, { activeVariants, lastDevices });
  const active = configs.find((c) => c.variant === activeVariant)?.name ?? configs[0]?.name ?? null;
  const configurations = configs.map((c): RunConfigurationWire => {
    const resolved = resolveRunConfiguration(
      c,
      { project: model, trusted, devices: [], ...(trustHint ? { trustHint } : {}) },
      'list',
    );
    const launchSteps: ('build' | 'install' | 'launch')[] =
      c.launch.kind === 'none' ? ['build', 'install'] : ['build', 'install', 'launch'];
    return {
      name: c.name,
      module: c.module,
      variant: c.variant,
      task: c.task,
      launch: describeLaunch(c),
      target: describeTarget(c),
      last_device: c.lastDevice,
      logcat_filter: c.logcatFilter,
      shared: c.shared,
      active: c.name === active,
      plan: resolved.ok
        ? {
            steps: launchSteps,
            application_id: resolved.plan.applicationId,
            apk_dir: resolved.plan.apkDir,
            activity: resolved.plan.activity,
            deep_link: resolved.plan.deepLink,
          }
        : null,
      cannot_run: resolved.ok ? null : resolved.cannotRun,
      hint: resolved.ok
        ? 'build_run_configuration builds it; installing and launching it on a device come with run_run_configuration'
        : (resolved.hint ?? null),
    };
  });
  return { configurations, active };
}
