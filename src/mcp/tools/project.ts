import { z } from 'zod';
import { buildConfigSchema, projectModelSummarySchema } from '../../bus/messages/project.js';
import { healthReportSchema, type HealthReport } from '../../bus/messages/system.js';
import { ToolError, defineTool } from '../define-tool.js';
import { responseOf } from '../responses.js';
import type { ToolContext } from '../define-tool.js';
import { buildAnswer, requireRoot } from './build.js';
import {
  describeMode,
  followsHost,
  pinnedProject,
  pinnedProjectClosed,
  standaloneReason,
} from '../session.js';

const described = responseOf('project.describe').shape;
const model = projectModelSummarySchema.shape;
const projectInfoOutput = z.object({
  /** Null when no project is selected. */
  project_root: described.project_root.nullable(),
  gradle_root: described.gradle_root,
  settings_file: described.settings_file,
  /** False when no project is selected or its folder is gone. */
  open: z.boolean(),
  selected_by: z.enum(['argument', 'working_directory', 'last_active_project', 'host']).nullable(),
  mode: z.enum(['standalone', 'attached']),
  standalone_reason: z.string().nullable(),
  follows_host: z.boolean(),
  pinned_project: z.string().nullable(),
  /** Attached: the project the droidbus host has open now; null when standalone. */
  host_project: z.string().nullable(),
  /** Set when the session cannot work on its project now (a pinned project the host closed). */
  hint: z.string().nullable(),
  trusted: described.trusted,
  trust_hint: described.trust_hint,
  modules: model.modules,
  application_modules: model.application_modules,
  variants_count: model.variants_count,
  active_variant: model.active_variant,
  agp_version: model.agp_version,
  packages: model.packages,
  notes: model.notes,
});
type ProjectInfo = z.infer<typeof projectInfoOutput>;

/** What get_project_info and android://project-info say about the session's project. */
export async function projectInfo(
  ctx: Pick<ToolContext, 'bus' | 'session' | 'signal'>,
): Promise<ProjectInfo> {
  const { session } = ctx;
  const root = session.project.root;
  const described = root ? await ctx.bus.request('project.describe', { root }, { signal: ctx.signal }) : null;
  const model = described?.model ?? null;
  const closed = pinnedProjectClosed(session);
  return {
    project_root: described?.project_root ?? null,
    gradle_root: described?.gradle_root ?? null,
    settings_file: described?.settings_file ?? null,
    open: (described?.exists ?? false) && closed === null,
    selected_by: session.project.selectedBy,
    mode: session.mode.kind,
    standalone_reason: standaloneReason(session.mode),
    follows_host: followsHost(session.mode),
    pinned_project: pinnedProject(session.mode),
    host_project: session.mode.kind === 'attached' ? (session.mode.hostProject ?? null) : null,
    hint: closed,
    trusted: described?.trusted ?? false,
    trust_hint:
      described?.trust_hint ??
      (root
        ? null
        : 'No Android project is selected. Start droidbus with --project PATH or from inside a Gradle project.'),
    modules: model?.modules ?? [],
    application_modules: model?.application_modules ?? [],
    variants_count: model?.variants_count ?? 0,
    active_variant: model?.active_variant ?? null,
    agp_version: model?.agp_version ?? null,
    packages: model?.packages ?? [],
    notes: model?.notes ?? [],
  };
}

export const getProjectInfo = defineTool({
  name: 'get_project_info',
  answers: 'project.describe',
  // Null when no project is selected, where project.describe is not asked.
  reshaped: ['project_root'],
  toolset: 'core',
  kind: 'read',
  title: 'Project info',
  description:
    'The Android project this session works on: root, Gradle root, how it was selected, modules and application modules (namespace, applicationId, SDK levels, variants), the active variant, its packages, whether the user trusted it to run Gradle, and host attachment.',
  output: projectInfoOutput,
  projectIndependent: true,
  async handle(_args, ctx) {
    const structured = await projectInfo(ctx);
    const { session } = ctx;
    const lines = [
      structured.project_root
        ? `Project: ${structured.gradle_root ?? structured.project_root} (selected by ${structured.selected_by})`
        : 'No project selected.',
      `Mode: ${describeMode(session.mode)}`,
      structured.trusted ? 'Trusted: yes' : `Trusted: no — ${structured.trust_hint}`,
    ];
    for (const app of structured.application_modules) {
      lines.push(
        `App module ${app.path}: ${app.application_id ?? app.namespace ?? '?'} (compileSdk ${app.compile_sdk ?? '?'}, minSdk ${app.min_sdk ?? '?'}, targetSdk ${app.target_sdk ?? '?'}), ${app.variants} variants, ${app.dsl ?? 'no'} build file`,
      );
    }
    if (structured.active_variant) {
      lines.push(`Active variant: ${structured.active_variant}`);
    }
    if (structured.hint) {
      lines.push(structured.hint);
    } else if (structured.project_root && !structured.open) {
      lines.push(`The project folder ${structured.project_root} no longer exists.`);
    }
    return { text: lines.join('\n'), structured };
  },
});

/** The health check of the session's project (run_health_check and android://health). */
export async function healthReport(
  ctx: Pick<ToolContext, 'bus' | 'session' | 'signal'>,
): Promise<HealthReport> {
  return ctx.bus.request('system.health', { project_root: ctx.session.project.root }, { signal: ctx.signal });
}

/**
 * The health report as the model reads it: a headline, then one line per check. The headline is
 * derived from the same verdicts the lines print, so it never says "passed" above a FAIL line; the
 * Gradle wrapper is "n/a" when no project is open (nothing to check, nothing failed).
 */
export function formatHealthReport(report: HealthReport): string {
  const { checks } = report;
  const rows: { name: string; verdict: 'ok' | 'FAIL' | 'n/a'; detail: string; hint: string | null }[] = [
    {
      name: 'java',
      verdict: checks.java.ok ? 'ok' : 'FAIL',
      detail: checks.java.version ? `${checks.java.version} (${checks.java.bin})` : 'not found',
      hint: checks.java.hint,
    },
    {
      name: 'android sdk',
      verdict: checks.android_sdk.ok ? 'ok' : 'FAIL',
      detail: checks.android_sdk.path ?? 'not found',
      hint: checks.android_sdk.hint,
    },
    {
      name: 'adb',
      verdict: checks.adb.ok ? 'ok' : 'FAIL',
      detail: checks.adb.version ? `${checks.adb.version} (${checks.adb.path})` : 'not found',
      hint: checks.adb.hint,
    },
    report.project_root === null
      ? {
          name: 'gradle wrapper',
          verdict: 'n/a',
          detail: 'no project is open',
          hint: checks.gradle_wrapper.hint,
        }
      : {
          name: 'gradle wrapper',
          verdict: checks.gradle_wrapper.ok ? 'ok' : 'FAIL',
          detail: checks.gradle_wrapper.path
            ? `${checks.gradle_wrapper.path}${checks.gradle_wrapper.stand_in ? ' (the stand-in droidbus sim wrote: no real Gradle runs)' : checks.gradle_wrapper.gradle_version ? ` (Gradle ${checks.gradle_wrapper.gradle_version})` : ''}`
            : 'not found',
          hint: checks.gradle_wrapper.hint,
        },
    {
      name: 'network routes',
      verdict: checks.network_routes.ok ? 'ok' : 'FAIL',
      detail:
        checks.network_routes.devices.length === 0
          ? 'no device routed through a capture'
          : checks.network_routes.devices.map((d) => `${d.serial} → ${d.proxy} (${d.state})`).join(', '),
      hint: checks.network_routes.hint,
    },
    ...(checks.display_changes !== undefined
      ? [
          {
            name: 'display changes',
            verdict: checks.display_changes.ok ? ('ok' as const) : ('FAIL' as const),
            detail:
              checks.display_changes.devices.length === 0
                ? 'no device changed'
                : checks.display_changes.devices
                    .map((d) => `${d.serial}: ${d.settings.join(', ')} (${d.state})`)
                    .join(', '),
            hint: checks.display_changes.hint,
          },
        ]
      : []),
  ];
  const failed = rows.filter((r) => r.verdict === 'FAIL');
  const headline =
    failed.length > 0 || !report.all_ok
      ? `Some checks failed${failed.length > 0 ? ` (${failed.map((r) => r.name).join(', ')})` : ''}.`
      : report.project_root !== null && !report.trusted
        ? `All checks passed, but the project is not trusted: droidbus builds it after the user runs droidbus trust ${JSON.stringify(report.project_root)}.`
        : 'All checks passed.';
  const lines = [headline];
  for (const r of rows) {
    lines.push(
      `${r.verdict.padEnd(4)} ${r.name}: ${r.detail}${r.verdict !== 'ok' && r.hint ? ` — ${r.hint}` : ''}`,
    );
    if (r.name === 'java' && checks.java.warning) {
      lines.push(`     ${checks.java.warning}`);
    }
  }
  return lines.join('\n');
}

export const runHealthCheck = defineTool({
  name: 'run_health_check',
  answers: 'system.health',
  toolset: 'core',
  kind: 'read',
  title: 'Health check',
  description:
    "Checks what Android work needs on this machine: the JDK Gradle would use (below 17 is flagged), the Android SDK, adb and its version, and the project's Gradle wrapper; each failed check says how to fix it.",
  output: healthReportSchema,
  projectIndependent: true,
  async handle(_args, ctx) {
    const report = await healthReport(ctx);
    const text = formatHealthReport(report);
    return { text, structured: report };
  },
});

const variantsOutput = responseOf('project.variants')
  .pick({ variants: true, active_variant: true })
  .extend({ count: z.number().int() });

export const listBuildVariants = defineTool({
  name: 'list_build_variants',
  answers: 'project.variants',
  toolset: 'build-config',
  kind: 'read',
  title: 'Build variants',
  description:
    "The application modules' build variants (flavors × build types, read without running Gradle): application id, debuggable and minify flags, Gradle tasks, APK folder, and the active variant.",
  output: variantsOutput,
  async handle(_args, ctx) {
    const root = requireRoot(ctx);
    const r = await ctx.bus.request('project.variants', { root }, { signal: ctx.signal });
    const lines = [
      `${r.variants.length} variant${r.variants.length === 1 ? '' : 's'}${r.active_variant ? ` (active: ${r.active_variant})` : ''}:`,
      ...r.variants.map(
        (v) =>
          `${v.module} ${v.name}${v.name === r.active_variant ? ' *' : ''}: ${v.application_id ?? 'application id known only to Gradle'}${v.debuggable ? ', debuggable' : ''}${v.minify_enabled ? ', minified' : ''} — ${v.tasks.assemble}`,
      ),
    ];
    return { text: lines.join('\n'), structured: { ...r, count: r.variants.length } };
  },
});

export const setActiveVariant = defineTool({
  name: 'set_active_variant',
  answers: 'project.set_active_variant',
  toolset: 'build-config',
  kind: 'write',
  title: 'Set the active variant',
  description:
    "Makes a build variant the project's active one (saved in droidbus's settings, shared with the host and other sessions): run configurations list it first.",
  input: z.object({
    variant: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a variant name as get_project_info lists it')
      .describe('A variant name from list_build_variants (e.g. demoDebug)'),
  }),
  output: responseOf('project.set_active_variant'),
  async handle(args, ctx) {
    const root = requireRoot(ctx);
    const r = await ctx.bus.request(
      'project.set_active_variant',
      { root, variant: args.variant },
      { signal: ctx.signal },
    );
    return {
      text: `Active variant: ${r.active_variant}${r.previous && r.previous !== r.active_variant ? ` (was ${r.previous})` : ''}.`,
      structured: r,
    };
  },
});

export const findApkPath = defineTool({
  name: 'find_apk_path',
  answers: 'project.find_apk',
  toolset: 'core',
  kind: 'read',
  title: 'Find the APK',
  description:
    "Finds the APK a variant's build wrote in the application module's build outputs; module is needed with several application modules. Answers found: false with the reason when none or several match.",
  input: z.object({
    variant: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a variant name as list_build_variants shows it')
      .optional()
      .describe('The variant (e.g. demoDebug); without it, the only APK present'),
    module: z
      .string()
      .min(1)
      .max(300)
      .regex(/^:?[A-Za-z0-9_.-]+(:[A-Za-z0-9_.-]+)*$/, 'a Gradle path like :app or :app:assembleDebug')
      .optional()
      .describe('The application module (:app) or the task that built the APK (:app:assembleDebug)'),
  }),
  output: responseOf('project.find_apk'),
  async handle(args, ctx) {
    const root = requireRoot(ctx);
    const r = await ctx.bus.request(
      'project.find_apk',
      {
        root,
        ...(args.variant !== undefined ? { variant: args.variant } : {}),
        ...(args.module !== undefined ? { module: args.module } : {}),
      },
      { signal: ctx.signal },
    );
    const text = r.found
      ? `${r.path} (${r.module} ${r.variant}${r.application_id ? `, ${r.application_id}` : ''}; found through ${r.via})`
      : `No APK found: ${r.reason}`;
    return { text, structured: r };
  },
});

export const getBuildConfig = defineTool({
  name: 'get_build_config',
  answers: 'project.build_config',
  toolset: 'build-config',
  kind: 'read',
  title: 'Build configuration',
  description:
    "A module's Android configuration from its build.gradle(.kts), without running Gradle: namespace, applicationId, SDK levels, version, build types, flavors, plugins, and what only Gradle can evaluate. Default: the application module.",
  input: z.object({
    module: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^/\\]+$/, 'module is a directory name: no / or \\')
      .refine((m) => !m.includes('..'), 'module is a directory name: no ..')
      .optional()
      .describe("The module's directory name (app, core); default: the application module"),
  }),
  output: buildConfigSchema,
  async handle(args, ctx) {
    const root = requireRoot(ctx);
    const c = await ctx.bus.request(
      'project.build_config',
      { root, ...(args.module !== undefined ? { module: args.module } : {}) },
      { signal: ctx.signal },
    );
    const lines = [
      `${c.module} (${c.build_file ?? 'no build file'}${c.dsl ? `, ${c.dsl} DSL` : ''})${c.is_application ? ', application' : ''}`,
      `namespace ${c.namespace ?? '?'}, applicationId ${c.application_id ?? '?'}, compileSdk ${c.compile_sdk ?? '?'}, minSdk ${c.min_sdk ?? '?'}, targetSdk ${c.target_sdk ?? '?'}`,
      `build types: ${c.build_types.map((b) => b.name).join(', ')}`,
    ];
    if (c.product_flavors.length > 0) {
      lines.push(
        `flavors: ${c.product_flavors.map((f) => `${f.name}${f.dimension ? ` (${f.dimension})` : ''}`).join(', ')}`,
      );
    }
    if (c.unknown.length > 0) {
      lines.push(`only Gradle knows: ${c.unknown.slice(0, 10).join(', ')}`);
    }
    return { text: lines.join('\n'), structured: c };
  },
});

export const listRunConfigurations = defineTool({
  name: 'list_run_configurations',
  answers: 'project.run_configurations',
  toolset: 'build-config',
  kind: 'read',
  title: 'Run configurations',
  description:
    "The project's run configurations (one per application module and debuggable variant, active variant first): module, variant, task, launch, target, and its plan or why it cannot run.",
  output: responseOf('project.run_configurations').extend({
    count: z.number().int(),
  }),
  async handle(_args, ctx) {
    const root = requireRoot(ctx);
    const r = await ctx.bus.request('project.run_configurations', { root }, { signal: ctx.signal });
    const lines = [
      `${r.configurations.length} run configuration${r.configurations.length === 1 ? '' : 's'}${r.trusted ? '' : ' (the project is not trusted: none can build)'}:`,
      ...r.configurations.map(
        (c) =>
          `${c.active ? '* ' : '  '}${c.name}: ${c.task}${c.cannot_run ? ` — cannot run: ${c.cannot_run}` : ''}`,
      ),
    ];
    return { text: lines.join('\n'), structured: { ...r, count: r.configurations.length } };
  },
});

export const buildRunConfiguration = defineTool({
  name: 'build_run_configuration',
  answers: 'run.build',
  toolset: 'build-config',
  kind: 'open_world',
  title: 'Build a run configuration',
  description:
    "Builds a run configuration's task (list_run_configurations) as run_gradle_task does and returns the APK it wrote. It never installs or launches.",
  input: z.object({
    name: z.string().min(1).max(300).describe('Configuration name (list_run_configurations)'),
  }),
  output: responseOf('run.build').omit({ build: true }).extend({ build_id: z.string(), result: z.string() }),
  async handle(args, ctx) {
    const root = requireRoot(ctx);
    const r = await ctx.bus.request(
      'run.build',
      { root, name: args.name, want_progress: ctx.wantsProgress },
      { signal: ctx.cancelSignal, origin: ctx.origin, onProgress: (p) => ctx.progress(p) },
    );
    const built = buildAnswer(r.build, ctx);
    const { build: _build, ...rest } = r;
    const structured = { ...rest, build_id: r.build.record.id, result: built.text };
    if (r.build.record.result !== 'success') {
      throw new ToolError(built.text, structured);
    }
    const apk = r.apk_path ? `\nAPK: ${r.apk_path}${r.apk_note ? ` (${r.apk_note})` : ''}` : '';
    return { text: `${built.text}${apk}`, structured };
  },
});

export const projectTools = [
  getProjectInfo,
  runHealthCheck,
  listBuildVariants,
  setActiveVariant,
  findApkPath,
  getBuildConfig,
  listRunConfigurations,
  buildRunConfiguration,
];
