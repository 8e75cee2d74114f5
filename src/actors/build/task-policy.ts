/**
 * Which Gradle task names an agent may run. A name is first checked as text (no options, no shell
 * characters); then it is resolved the way Gradle resolves it — Gradle's NameMatcher
 * (`project/gradle-name-matcher.ts`) over the project's full task list, read from a
 * `tasks --all` report — and refused when **any** task it can select leaves the machine
 * (`leaving-tasks.ts`) or dumps the project's properties. Unless the user allowed unrestricted
 * Gradle in settings.
 *
 * Without a task list (the report failed) only an exact name of AGP's standard tasks runs. A name
 * that is not an exact, known-safe task — an abbreviation, a name the list lacks, or any name in a
 * project that applies a plugin with leaving tasks (they can hook into assemble: Crashlytics'
 * mapping upload) — must also pass Gradle's own dry run (`gradlew -m`, judged by
 * `judgeDryRun`), which lists every task the invocation executes, dependencies and finalizers
 * included.
 */
import { matchName, type NameMatch } from '../../project/gradle-name-matcher.js';
import { leavingReason, PROPERTY_DUMPS } from './leaving-tasks.js';

/** The project's tasks by project path (`:` the root, `:app`), from a `tasks --all` report. */
export type ProjectTasks = ReadonlyMap<string, ReadonlySet<string>>;

export interface TaskPolicyOptions {
  /** `settings.mcp.allow_unrestricted_gradle`: the user's explicit permission to run any task. */
  allowUnrestricted: boolean;
  /** `settings.mcp.allow_gradle_properties`: `properties` may print the project's properties. */
  allowPropertyDumps?: boolean;
  /** The project's task list, or null when it could not be read. */
  tasks: ProjectTasks | null;
  /** AGP's standard task names of the project's variants: what runs when the list is unknown. */
  standard?: ReadonlySet<string>;
}

/** `blocked`: the name selects a task the policy refuses, not a malformed one. */
export type TaskCheck =
  | { ok: true; /** Gradle's dry run must confirm what the invocation executes. */ dryRun: boolean }
  | { ok: false; reason: string; blocked?: true };

export const MAX_TASK_NAME_LENGTH = 200;

const SEGMENT = /^[A-Za-z0-9_.-]+$/;

const ALLOW_HINT =
  'Tasks that publish, upload, deploy, distribute, release to a repository or store, push images, run remote test labs, send analyses or uninstall apps are blocked unless the user sets "allow_unrestricted_gradle": true under "mcp" in droidbus\'s settings.json (in the data folder, ~/.droidbus).';

/** Why a task of this full name may not run under these options, or null. */
function refusal(name: string, opts: TaskPolicyOptions): string | null {
  const leaving = leavingReason(name);
  if (leaving !== null) {
    return `it ${leaving}`;
  }
  if (PROPERTY_DUMPS.includes(name) && opts.allowPropertyDumps !== true) {
    return 'it prints every project property, signing passwords and tokens from ~/.gradle/gradle.properties included (allowed only when the user sets "allow_gradle_properties": true under "mcp" in settings.json)';
  }
  return null;
}

/** The name as text: a task name or `path:name`, never an option. */
export function checkTaskSyntax(
  task: unknown,
): { ok: true; segments: string[] } | { ok: false; reason: string } {
  if (typeof task !== 'string' || task.length === 0) {
    return { ok: false, reason: 'the task name is empty' };
  }
  if (task.length > MAX_TASK_NAME_LENGTH) {
    return { ok: false, reason: `the task name is longer than ${MAX_TASK_NAME_LENGTH} characters` };
  }
  if (task.startsWith('-')) {
    return {
      ok: false,
      reason: `'${task}' looks like a Gradle option; pass a task name (options cannot be passed)`,
    };
  }
  const segments = (task.startsWith(':') ? task.slice(1) : task).split(':');
  if (segments.some((s) => !SEGMENT.test(s))) {
    return {
      ok: false,
      reason: `'${task}' is not a task name: use letters, digits, '-', '_' and '.', with ':' between project path segments (e.g. :app:assembleDebug)`,
    };
  }
  if (segments.some((s) => s.startsWith('-'))) {
    return { ok: false, reason: `'${task}' has a path segment that looks like a Gradle option` };
  }
  return { ok: true, segments };
}

/**
 * The projects a qualified name's path can reach, each segment matched as Gradle matches project
 * names; every project when a segment does not select one (Gradle then fails, but the policy does
 * not bet on it).
 */
function projectsOf(path: string[], tasks: ProjectTasks): string[] {
  const all = [...tasks.keys()];
  let current = ':';
  for (const segment of path) {
    const prefix = current === ':' ? ':' : `${current}:`;
    const children = all
      .filter((p) => p.startsWith(prefix) && p !== current && !p.slice(prefix.length).includes(':'))
      .map((p) => p.slice(prefix.length));
    const picked = matchName(segment, children).selected;
    if (picked === null) {
      return all;
    }
    current = prefix + picked;
  }
  return [current];
}

/** Every task the name can select: Gradle's matches over the tasks it is matched against. */
export function candidatesOf(task: string, segments: string[], tasks: ProjectTasks): NameMatch {
  const name = segments[segments.length - 1]!;
  const path = segments.slice(0, -1);
  if (path.length === 0 && task.startsWith(':')) {
    // `:name`: the root project's own tasks.
    return matchName(name, tasks.get(':') ?? []);
  }
  if (path.length === 0) {
    // An unqualified name: the tasks of the root and of every subproject, as one list.
    return matchName(
      name,
      [...tasks.values()].flatMap((s) => [...s]),
    );
  }
  // Qualified: each project it can reach, its own tasks only; the union of what each selects.
  const matches = new Set<string>();
  for (const project of projectsOf(path, tasks)) {
    matchName(name, tasks.get(project) ?? []).matches.forEach((m) => matches.add(m));
  }
  const sorted = [...matches].sort();
  return { selected: sorted.length === 1 ? sorted[0]! : null, matches: sorted, nearMisses: [] };
}

const leavingListed = new WeakMap<ProjectTasks, boolean>();

/** Whether a plugin the project applies has tasks that leave the machine (they can hook into others). */
function hasLeavingTasks(tasks: ProjectTasks): boolean {
  let known = leavingListed.get(tasks);
  if (known === undefined) {
    known = [...tasks.values()].some((s) => [...s].some((t) => leavingReason(t) !== null));
    leavingListed.set(tasks, known);
  }
  return known;
}

/** Checks a task an agent asked to run. The reason is written for the model to read. */
export function checkGradleTask(task: unknown, opts: TaskPolicyOptions): TaskCheck {
  const syntax = checkTaskSyntax(task);
  if (!syntax.ok) {
    return syntax;
  }
  if (opts.allowUnrestricted) {
    return { ok: true, dryRun: false };
  }
  const name = syntax.segments[syntax.segments.length - 1]!;
  const refuse = (why: string): TaskCheck => ({
    ok: false,
    blocked: true,
    reason: `'${String(task)}' is refused: ${why}. ${ALLOW_HINT} If you meant another task, pass its full name.`,
  });
  if (opts.tasks === null) {
    // Without the project's list no abbreviation can be resolved: only exact standard names run.
    const why = refusal(name, opts);
    if (why !== null) {
      return refuse(why);
    }
    if (opts.standard?.has(name) === true) {
      return { ok: true, dryRun: false };
    }
    return {
      ok: false,
      blocked: true,
      reason: `'${String(task)}' is refused: droidbus could not read the project's task list (gradlew tasks --all), so it cannot tell which task Gradle would select for it. Until the list can be read only the exact names of AGP's standard tasks run (e.g. assembleDebug, testDebugUnitTest, lint); fix what stops \`gradlew tasks --all\` (see get_build_log), or pass such a name.`,
    };
  }
  const selectable = candidatesOf(String(task), syntax.segments, opts.tasks);
  const refused = selectable.matches.flatMap((m) => {
    const why = refusal(m, opts);
    return why === null ? [] : [`${m} (${why})`];
  });
  if (refused.length > 0) {
    return refuse(
      selectable.selected !== null
        ? `Gradle would run ${refused[0]}`
        : `Gradle could select ${refused.join('; ')}`,
    );
  }
  // A name the list cannot resolve may be a task it lacks (a stale list): judged as itself.
  const own = selectable.matches.length === 0 ? refusal(name, opts) : null;
  if (own !== null) {
    return refuse(own);
  }
  // The name itself is a task of the list, nothing leaving could be hooked into it: no dry run.
  const exact = selectable.selected === name;
  return { ok: true, dryRun: !exact || hasLeavingTasks(opts.tasks) };
}

/**
 * Judges what Gradle's dry run said an invocation executes (`:app:task` paths): refused when any
 * of them leaves the machine, naming it.
 */
export function judgeDryRun(
  requested: string,
  executed: readonly string[],
  opts: TaskPolicyOptions,
): TaskCheck {
  const refused = executed.flatMap((path) => {
    const why = refusal(path.slice(path.lastIndexOf(':') + 1), opts);
    return why === null ? [] : [`${path} (${why})`];
  });
  if (refused.length === 0) {
    return { ok: true, dryRun: false };
  }
  return {
    ok: false,
    blocked: true,
    reason: `'${requested}' is refused: Gradle's dry run (gradlew -m ${requested}) shows it would run ${refused.join('; ')}. ${ALLOW_HINT}`,
  };
}

/** Tasks every Gradle build with AGP has (runnable by exact name when the task list is unknown). */
const GRADLE_TASKS = [
  'assemble',
  'build',
  'check',
  'clean',
  'test',
  'lint',
  'tasks',
  'dependencies',
  'help',
  'projects',
  'buildEnvironment',
  'signingReport',
  'connectedAndroidTest',
  'connectedCheck',
  'deviceCheck',
];

/** AGP's tasks of every variant, as [verb, suffix] around the variant's name. */
const VARIANT_TASKS: readonly [string, string][] = [
  ['assemble', ''],
  ['bundle', ''],
  ['install', ''],
  ['lint', ''],
  ['package', ''],
  ['pre', 'Build'],
  ['generate', 'Sources'],
  ['merge', 'Resources'],
  ['process', 'Manifest'],
  ['test', 'UnitTest'],
  ['connected', 'AndroidTest'],
  ['compile', 'JavaWithJavac'],
  ['compile', 'Kotlin'],
];

/** The task names AGP creates for every variant of an application module (`assembleDemoDebug`…). */
export function standardTaskNames(variants: readonly string[]): Set<string> {
  const names = new Set(GRADLE_TASKS);
  for (const v of variants) {
    const V = v.charAt(0).toUpperCase() + v.slice(1);
    for (const [verb, suffix] of VARIANT_TASKS) {
      names.add(`${verb}${V}${suffix}`);
    }
  }
  return names;
}
