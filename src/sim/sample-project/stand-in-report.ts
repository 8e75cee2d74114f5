/**
 * The fixed texts of Gradle 8's console (plain mode) that the stand-in prints: the failure block,
 * the deprecation summary, the result line and its duration, `tasks`, `help` and `--version`.
 */
import { capitalize, type BuildModel } from './build-model.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { entryTaskNames, projectTasks } from './gradle-tasks.js';
import { SAMPLE_GRADLE_VERSION } from './project-files.js';

const DOCS = `https://docs.gradle.org/${SAMPLE_GRADLE_VERSION}/userguide`;

/** Gradle's terse duration: `850ms`, `2s`, `1m 5s`, `1h 2m 3s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) {
    return `${Math.max(0, Math.round(ms))}ms`;
  }
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return [h > 0 ? `${h}h` : '', h > 0 || m > 0 ? `${m}m` : '', `${s}s`].filter(Boolean).join(' ');
}

/** `38 actionable tasks: 30 executed, 8 up-to-date`. */
export function actionableSummary(executed: number, upToDate: number): string {
  const total = executed + upToDate;
  const parts = [executed > 0 ? `${executed} executed` : '', upToDate > 0 ? `${upToDate} up-to-date` : ''];
  return `${total} actionable task${total === 1 ? '' : 's'}: ${parts.filter(Boolean).join(', ')}`;
}

export const DEPRECATION_SUMMARY = [
  'Deprecated Gradle features were used in this build, making it incompatible with Gradle 9.0.',
  '',
  "You can use '--warning-mode all' to show the individual deprecation warnings and determine if they come from your own scripts or plugins.",
  '',
  `For more on this, please refer to ${DOCS}/command_line_interface.html#sec:command_line_warnings in the Gradle documentation.`,
];

export interface FailureReport {
  /** The `* What went wrong:` text, first line. */
  summary: string;
  /** `> cause` lines under the summary. */
  causes?: string[];
  /** The exception class Gradle would print under `* Exception is:` with --stacktrace. */
  exception: string;
  /** Extra `* Try:` advice printed first (task selection failures list `tasks`). */
  tryFirst?: string[];
}

const STACK_FRAMES: Record<string, string[]> = {
  'org.gradle.execution.TaskSelectionException': [
    '\tat org.gradle.execution.DefaultTaskSelector.getSelection(DefaultTaskSelector.java:84)',
    '\tat org.gradle.execution.TaskNameResolvingBuildTaskScheduler.scheduleRequestedTasks(TaskNameResolvingBuildTaskScheduler.java:49)',
  ],
  'org.gradle.api.tasks.TaskExecutionException': [
    '\tat org.gradle.api.internal.tasks.execution.ExecuteActionsTaskExecuter.lambda$executeIfValid$1(ExecuteActionsTaskExecuter.java:130)',
    '\tat org.gradle.internal.Try$Failure.ifSuccessfulOrElse(Try.java:293)',
  ],
  default: ['\tat org.gradle.launcher.daemon.server.exec.ExecuteBuild.doBuild(ExecuteBuild.java:65)'],
};

/** The `FAILURE: Build failed with an exception.` block, as Gradle 8 prints it to stderr. */
export function failureBlock(report: FailureReport, stacktrace: boolean): string[] {
  const lines = ['', 'FAILURE: Build failed with an exception.', '', '* What went wrong:', report.summary];
  for (const cause of report.causes ?? []) {
    lines.push(`> ${cause}`);
  }
  lines.push('', '* Try:');
  for (const advice of report.tryFirst ?? []) {
    lines.push(`> ${advice}`);
  }
  if (!stacktrace) {
    lines.push('> Run with --stacktrace option to get the stack trace.');
  }
  lines.push(
    '> Run with --info or --debug option to get more log output.',
    '> Run with --scan to get full insights.',
    '> Get more help at https://help.gradle.org.',
  );
  if (stacktrace) {
    lines.push(
      '',
      '* Exception is:',
      `${report.exception}: ${[report.summary, ...(report.causes ?? [])].join(' ')}`,
      ...(STACK_FRAMES[report.exception] ?? STACK_FRAMES['default']!),
    );
  }
  lines.push('');
  return lines;
}

/** The advice Gradle adds when a task name does not resolve. */
export const TASK_SELECTION_TRY = [
  'Run gradlew tasks to get a list of available tasks.',
  `For more on name expansion, please refer to ${DOCS}/command_line_interface.html#sec:name_abbreviation in the Gradle documentation.`,
];

const DESCRIPTIONS: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^assemble$/, () => 'Assemble main outputs for all the variants.'],
  [/^assemble(\w+)$/, (m) => `Assembles main output for variant ${uncap(m[1]!)}`],
  [/^build$/, () => 'Assembles and tests this project.'],
  [/^clean$/, () => 'Deletes the build directory.'],
  [/^install(\w+)$/, (m) => `Installs the ${capitalize(m[1]!)} build.`],
  [/^uninstallAll$/, () => 'Uninstall all applications.'],
  [/^uninstall(\w+)$/, (m) => `Uninstalls the ${capitalize(m[1]!)} build.`],
  [/^check$/, () => 'Runs all checks.'],
  [
    /^connectedAndroidTest$/,
    () => 'Installs and runs instrumentation tests for all flavors on connected devices.',
  ],
  [/^connectedCheck$/, () => 'Runs all device checks on currently connected devices.'],
  [
    /^connected(\w+)AndroidTest$/,
    (m) => `Installs and runs the tests for ${uncap(m[1]!)} on connected devices.`,
  ],
  [/^lint$/, () => 'Runs lint on the default variant.'],
  [/^lint\w+$/, () => 'Print text output from the corresponding lint report task'],
  [/^test$/, () => 'Run unit tests for all variants.'],
  [/^test(\w+)UnitTest$/, (m) => `Run unit tests for the ${uncap(m[1]!)} build.`],
];

function uncap(s: string): string {
  return s.length === 0 ? s : s[0]!.toLowerCase() + s.slice(1);
}

/**
 * The body of `gradlew tasks` for this project. With `--all` (as Gradle 8 prints it from the root),
 * each task is listed per project — the app's as `app:name` — and the tasks no group claims
 * (AGP's internal tasks, the plugins' tasks) follow under "Other tasks". Layout from Gradle's user
 * guide 8.7 ("Listing tasks": the banner, a title and dashed underline per group, `name - description`
 * lines, subprojects' tasks with their path under `--all`).
 */
export function tasksReport(model: BuildModel, all = false): string[] {
  const entries = entryTaskNames(model).filter((n) => !['tasks', 'help', 'properties'].includes(n));
  const names = all ? entries.map((n) => `app:${n}`) : entries;
  const bare = (n: string): string => n.slice(n.indexOf(':') + 1);
  const groups: [string, (n: string) => boolean][] = [
    ['Build tasks', (n) => /^(assemble|build$|clean$)/.test(bare(n))],
    ['Install tasks', (n) => /^(install|uninstall)/.test(bare(n))],
    ['Verification tasks', (n) => /^(check$|connected|lint|test)/.test(bare(n))],
  ];
  const describe = (n: string): string => {
    for (const [re, text] of DESCRIPTIONS) {
      const m = re.exec(bare(n));
      if (m) {
        return `${n} - ${text(m)}`;
      }
    }
    return n;
  };
  const lines = [
    '',
    '------------------------------------------------------------',
    `Tasks runnable from root project '${model.rootProject}'`,
    '------------------------------------------------------------',
  ];
  for (const [title, belongs] of groups) {
    lines.push('', title, '-'.repeat(title.length), ...names.filter(belongs).sort().map(describe));
  }
  if (all) {
    const grouped = new Set(names);
    const other = [...projectTasks(model)].flatMap(([project, tasks]) =>
      [...tasks.keys()]
        .filter((n) => !['tasks', 'help', 'properties'].includes(n))
        .map((n) => (project === '' ? n : `${project}:${n}`))
        .filter((n) => !grouped.has(n)),
    );
    lines.push('', 'Other tasks', '-----------', ...other.sort());
  }
  lines.push(
    '',
    'Help tasks',
    '----------',
    'help - Displays a help message.',
    `properties - Displays the properties of root project '${model.rootProject}'.`,
    "tasks - Displays the tasks runnable from root project 'droidbus-sample' (some of the displayed tasks may belong to subprojects).".replace(
      'droidbus-sample',
      model.rootProject,
    ),
    '',
    'To see all tasks and more detail, run gradlew tasks --all',
    '',
    'To see more detail about a task, run gradlew help --task <task>',
    '',
  );
  return lines;
}

/**
 * The body of `gradlew properties`: the project's properties, those of gradle.properties (the
 * project's; Gradle adds ~/.gradle's too) among them — why droidbus refuses it by default. Layout
 * from Gradle's user guide ("Listing project properties": the banner naming the project, then
 * `name: value` lines sorted by name).
 */
export function propertiesReport(projectDir: string, model: BuildModel): string[] {
  const file = join(projectDir, 'gradle.properties');
  const props = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => /^[\w.-]+=/.test(l))
        .map((l) => l.replace('=', ': '))
    : [];
  return [
    '',
    '------------------------------------------------------------',
    `Root project '${model.rootProject}'`,
    '------------------------------------------------------------',
    '',
    `name: ${model.rootProject}`,
    ...props.sort(),
    '',
  ];
}

/** The body of `gradlew help`. */
export function helpReport(): string[] {
  return [
    '',
    `Welcome to Gradle ${SAMPLE_GRADLE_VERSION}.`,
    '',
    'To run a build, run gradlew <task> ...',
    '',
    'To see a list of available tasks, run gradlew tasks',
    '',
    'To see more detail about a task, run gradlew help --task <task>',
    '',
    'To see a list of command-line options, run gradlew --help',
    '',
    `For more detail on using Gradle, see ${DOCS}/command_line_interface.html`,
    '',
    'For troubleshooting, visit https://help.gradle.org',
    '',
  ];
}

/** `gradlew --version`. */
export function versionReport(): string[] {
  return [
    '',
    '------------------------------------------------------------',
    `Gradle ${SAMPLE_GRADLE_VERSION}`,
    '------------------------------------------------------------',
    '',
    'Build time:    2024-11-20 16:56:46 UTC',
    'Revision:      481cb05a490e0ef9f8620f7873b83bd8a72e7c39',
    '',
    'Kotlin:        2.0.20',
    'Groovy:        3.0.22',
    'Ant:           Apache Ant(TM) version 1.10.14 compiled on August 16 2023',
    'Launcher JVM:  17.0.13 (Eclipse Adoptium 17.0.13+11)',
    `OS:            ${process.platform === 'darwin' ? 'Mac OS X' : process.platform === 'win32' ? 'Windows 11' : 'Linux'} ${process.arch}`,
    '',
  ];
}
