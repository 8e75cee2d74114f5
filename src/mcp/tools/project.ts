import { z } from 'zod';
import { healthReportSchema } from '../../bus/messages/system.js';
import { defineTool } from '../define-tool.js';
import { describeMode, pinnedProjectClosed } from '../session.js';

const projectInfoOutput = z.object({
  project_root: z.string().nullable(),
  gradle_root: z.string().nullable(),
  settings_file: z.string().nullable(),
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
  trusted: z.boolean(),
  trust_hint: z.string().nullable(),
});

export const getProjectInfo = defineTool({
  name: 'get_project_info',
  toolset: 'core',
  kind: 'R',
  title: 'Project info',
  description:
    'The Android project this session works on: its root and Gradle root, how it was selected, whether the user trusted it to run Gradle (and what to do if not), and the session mode (standalone or attached to the droidbus host).',
  input: z.object({}),
  output: projectInfoOutput,
  projectIndependent: true,
  async handle(_args, ctx) {
    const { session } = ctx;
    const root = session.project.root;
    const closed = pinnedProjectClosed(session);
    const described = root
      ? await ctx.bus.request('project.describe', { root }, { signal: ctx.signal })
      : null;
    const structured: z.infer<typeof projectInfoOutput> = {
      project_root: described?.project_root ?? null,
      gradle_root: described?.gradle_root ?? null,
      settings_file: described?.settings_file ?? null,
      open: (described?.exists ?? false) && closed === null,
      selected_by: session.project.selectedBy,
      mode: session.mode.kind,
      standalone_reason: session.mode.standaloneReason,
      follows_host: session.mode.followsHost,
      pinned_project: session.mode.pinnedProject,
      host_project: session.mode.kind === 'attached' ? (session.mode.hostProject ?? null) : null,
      hint: closed,
      trusted: described?.trusted ?? false,
      trust_hint:
        described?.trust_hint ??
        (root
          ? null
          : 'No Android project is selected. Start droidbus with --project PATH or from inside a Gradle project.'),
    };
    const lines = [
      root
        ? `Project: ${structured.gradle_root ?? structured.project_root} (selected by ${structured.selected_by})`
        : 'No project selected.',
      `Mode: ${describeMode(session.mode)}`,
      structured.trusted ? 'Trusted: yes' : `Trusted: no — ${structured.trust_hint}`,
    ];
    if (described && !described.exists) {
      lines.push(`The project folder ${described.project_root} no longer exists.`);
    }
    if (closed) {
      lines.push(closed);
    }
    return { text: lines.join('\n'), structured };
  },
});

export const runHealthCheck = defineTool({
  name: 'run_health_check',
  toolset: 'core',
  kind: 'R',
  title: 'Health check',
  description:
    "Checks what Android work needs on this machine: the JDK Gradle would use (JAVA_HOME / PATH / org.gradle.java.home; below 17 is flagged), the Android SDK (ANDROID_HOME, ANDROID_SDK_ROOT, local.properties for trusted projects, default locations), adb and its version, and the project's Gradle wrapper. Each failed check carries a hint on how to fix it.",
  input: z.object({}),
  output: healthReportSchema,
  projectIndependent: true,
  async handle(_args, ctx) {
    const root = ctx.session.project.root;
    const trusted = root
      ? (await ctx.bus.request('project.describe', { root }, { signal: ctx.signal })).trusted
      : false;
    const report = await ctx.bus.request(
      'system.health',
      { project_root: root, trusted },
      { signal: ctx.signal },
    );
    const { checks } = report;
    const line = (name: string, ok: boolean, detail: string, hint: string | null): string =>
      `${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}${!ok && hint ? ` — ${hint}` : ''}`;
    const text = [
      report.all_ok ? 'All checks passed.' : 'Some checks failed.',
      line(
        'java',
        checks.java.ok,
        checks.java.version ? `${checks.java.version} (${checks.java.bin})` : 'not found',
        checks.java.hint,
      ),
      ...(checks.java.warning ? [`     ${checks.java.warning}`] : []),
      line(
        'android sdk',
        checks.android_sdk.ok,
        checks.android_sdk.path ?? 'not found',
        checks.android_sdk.hint,
      ),
      line(
        'adb',
        checks.adb.ok,
        checks.adb.version ? `${checks.adb.version} (${checks.adb.path})` : 'not found',
        checks.adb.hint,
      ),
      line(
        'gradle wrapper',
        checks.gradle_wrapper.ok,
        checks.gradle_wrapper.path
          ? `${checks.gradle_wrapper.path}${checks.gradle_wrapper.gradle_version ? ` (Gradle ${checks.gradle_wrapper.gradle_version})` : ''}`
          : 'not found',
        checks.gradle_wrapper.hint,
      ),
    ].join('\n');
    return { text, structured: report };
  },
});

export const projectTools = [getProjectInfo, runHealthCheck];
