/**
 * Which Gradle task names an agent may run. Names that look like Gradle options are refused; so are
 * tasks that leave the machine, read by intent from their camel-case words wherever the verb sits —
 * publish, upload, deploy, distribute, promote, announce, uninstall, and release when it is the
 * verb (`releaseSonatypeStagingRepository`, `githubRelease`, `closeAndRelease…`) rather than the
 * build type (`assembleRelease`) — unless the user allowed unrestricted Gradle.
 *
 * Gradle accepts abbreviations: `pRB` runs `publishReleaseBundle`, `aDUR`
 * `appDistributionUploadRelease`. When the project's task names are known (the build actor
 * collects them from `> Task` lines and `tasks` reports), a name is resolved the way Gradle's
 * NameMatcher does — exact, case-insensitive, camel case, case-insensitive camel case — and the task
 * it selects is judged; Gradle itself refuses an ambiguous one. Otherwise a name that looks
 * abbreviated is refused when its parts could begin a task that leaves the machine.
 */

export interface TaskPolicyOptions {
  /** `settings.mcp.allow_unrestricted_gradle`: the user's explicit permission to run any task. */
  allowUnrestricted: boolean;
  /** The project's task names seen so far (`> Task` lines, `tasks` reports), to resolve abbreviations as Gradle does. */
  knownTasks?: ReadonlySet<string>;
}

/** `blocked`: the name is a task the policy refuses, not a malformed one. */
export type TaskCheck = { ok: true } | { ok: false; reason: string; blocked?: true };

export const MAX_TASK_NAME_LENGTH = 200;

const SEGMENT = /^[A-Za-z0-9_.-]+$/;

/** Splits a task name the way Gradle reads abbreviations: at capitals and at `-`, `_`, `.`; lower-cased. */
export function camelParts(name: string): string[] {
  const parts: string[] = [];
  for (const chunk of name.split(/[-_.]+/)) {
    let cur = '';
    for (const ch of chunk) {
      if (ch >= 'A' && ch <= 'Z' && cur !== '') {
        parts.push(cur);
        cur = '';
      }
      cur += ch;
    }
    if (cur !== '') {
      parts.push(cur);
    }
  }
  return parts.map((p) => p.toLowerCase());
}

/** Words that send the build's output off the machine, wherever they sit in the task's name. */
const LEAVING_VERBS = new Set([
  'publish',
  'upload',
  'deploy',
  'distribute',
  'promote',
  'announce',
  'uninstall',
]);
/** Words before `release` that make it a release to somewhere (githubRelease, closeAndRelease, jreleaserFullRelease). */
const RELEASE_TARGETS = new Set([
  'github',
  'gitlab',
  'gitea',
  'jreleaser',
  'and',
  'create',
  'sonatype',
  'nexus',
]);

/** Why a task of this (full) name leaves the machine, or null (its camel-case words read by intent). */
export function leavingIntent(name: string): string | null {
  const words = camelParts(name);
  const verb = words.find((w) => LEAVING_VERBS.has(w));
  if (verb !== undefined) {
    return verb === 'uninstall'
      ? 'it uninstalls apps'
      : `it ${verb}${verb.endsWith('sh') ? 'es' : 's'} (${verb} is in its name)`;
  }
  const at = words.indexOf('release');
  if (at === 0 || (at > 0 && words.slice(0, at).some((w) => RELEASE_TARGETS.has(w)))) {
    return 'it releases to a repository or host (release is its verb, not the build type)';
  }
  if (words[0] === 'app' && words[1] === 'distribution') {
    return 'Firebase App Distribution tasks act on the remote project';
  }
  if (words.includes('staging') && words.includes('repository')) {
    return 'it acts on a remote staging repository (Sonatype/Nexus)';
  }
  return null;
}

/** First words a refused task may start with (an abbreviation's first part is checked against them). */
const LEAVING_FIRST = [
  ...LEAVING_VERBS,
  'release',
  'app',
  'close',
  'jreleaser',
  'bintray',
  'artifactory',
  'github',
  'gitlab',
];

/**
 * Whether `name`, read as a Gradle abbreviation (each part the start of a camel-case word, further
 * words allowed; or, case-insensitively, any run of letters), could select a refused task whose name
 * we do not know: its first part begins (or is) a refused first word, or a later part begins a
 * leaving verb, or a part holds one at its start (`publishreleasebundle`).
 */
function couldAbbreviateLeaving(name: string): boolean {
  const parts = camelParts(name);
  const [first, ...rest] = parts;
  if (first === undefined) {
    return false;
  }
  // The first word itself (jreleaserConfig) is no abbreviation: its other words decide.
  if (LEAVING_FIRST.some((w) => w !== first && (w.startsWith(first) || first.startsWith(w)))) {
    return true;
  }
  const verbs = [...LEAVING_VERBS];
  if (rest.some((p) => verbs.some((v) => v.startsWith(p)))) {
    return true;
  }
  // `githubR`, `cAR`: a part that may begin `release` right after one that may be a release target.
  return rest.some(
    (p, i) => 'release'.startsWith(p) && [...RELEASE_TARGETS].some((t) => t.startsWith(parts[i]!)),
  );
}

/**
 * Gradle's NameMatcher on a list of task names, as far as a partial list can be trusted: exact,
 * case-insensitive exact, then camel case. Gradle fails on several matches in one stage.
 */
export function resolveTaskName(
  pattern: string,
  names: Iterable<string>,
): { kind: 'one'; name: string } | { kind: 'many'; names: string[] } | { kind: 'none' } {
  const all = [...new Set(names)];
  if (all.includes(pattern)) {
    return { kind: 'one', name: pattern };
  }
  // Gradle goes on to a case-insensitive camel-case stage; a match found only there is not trusted
  // (a task we do not know could match in an earlier stage), so the caller reads the name itself.
  const stages = [(n: string) => n.toLowerCase() === pattern.toLowerCase(), camelMatcher(pattern, false)];
  for (const stage of stages) {
    const hits = all.filter(stage);
    if (hits.length === 1) {
      return { kind: 'one', name: hits[0]! };
    }
    if (hits.length > 1) {
      return { kind: 'many', names: hits };
    }
  }
  return { kind: 'none' };
}

/** Gradle's NameMatcher camel-case pattern: each part, then lower-case letters and digits, from the start. */
function camelMatcher(pattern: string, caseInsensitive: boolean): (name: string) => boolean {
  const parts = pattern.match(/[A-Z0-9]?[^A-Z0-9]*|\d+/g)?.filter((p) => p !== '') ?? [];
  const quote = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp('^' + parts.map((p) => quote(p) + '[a-z0-9]*').join(''), caseInsensitive ? 'i' : '');
  return (name) => re.test(name);
}

/** Checks a task an agent asked to run. The reason is written for the model to read. */
export function checkGradleTask(task: unknown, opts: TaskPolicyOptions): TaskCheck {
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
  if (opts.allowUnrestricted) {
    return { ok: true };
  }
  const name = segments[segments.length - 1] as string;
  const refuse = (why: string): TaskCheck => ({
    ok: false,
    blocked: true,
    reason:
      `'${task}' is refused: ${why}. Tasks that publish, upload, deploy, distribute, promote or release to a repository or store, and uninstalling tasks, are blocked unless the user sets "allow_unrestricted_gradle": true under "mcp" in droidbus's settings.json (in the data folder, ~/.droidbus). ` +
      'If you meant another task, pass its full name.',
  });
  const own = leavingIntent(name);
  if (own !== null) {
    return refuse(own);
  }
  const hidden = camelParts(name).find((p) => [...LEAVING_VERBS].some((v) => p.includes(v) && p !== v));
  if (hidden !== undefined) {
    return refuse(
      `Gradle matches names case-insensitively, and '${hidden}' holds a verb that leaves the machine`,
    );
  }
  // Against the project's task names when known: Gradle picks the same one, or fails on an ambiguity.
  const resolved = opts.knownTasks ? resolveTaskName(name, opts.knownTasks) : { kind: 'none' as const };
  if (resolved.kind === 'one') {
    const why = leavingIntent(resolved.name);
    return why === null ? { ok: true } : refuse(`Gradle expands it to ${resolved.name}, and ${why}`);
  }
  if (resolved.kind === 'many') {
    const leaving = resolved.names.filter((n) => leavingIntent(n) !== null);
    return leaving.length === 0 ? { ok: true } : refuse(`it could select ${leaving.join(', ')}`);
  }
  if (couldAbbreviateLeaving(name)) {
    return refuse(
      'it could abbreviate a task that leaves the machine (Gradle expands abbreviations such as pRB to publishReleaseBundle, aDUR to appDistributionUploadRelease)',
    );
  }
  return { ok: true };
}

/** Tasks every Gradle build with AGP has (the list must hold only tasks that exist: see resolveTaskName). */
const GRADLE_TASKS = [
  'assemble',
  'build',
  'check',
  'clean',
  'test',
  'lint',
  'tasks',
  'dependencies',
  'properties',
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
  ['uninstall', ''],
  ['lint', ''],
  ['package', ''],
  ['pre', 'Build'],
  ['generate', 'Sources'],
  ['merge', 'Resources'],
  ['process', 'Manifest'],
  ['test', 'UnitTest'],
  ['compile', 'JavaWithJavac'],
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

/** `> Task :app:name` lines and `tasks` report lines (`name - description`, `app:name - …`). */
const TASK_NAME_LINE = /^(?:> Task (?:\S*:)?([A-Za-z][\w-]*)(?:\s|$)|(?:[\w-]+:)*([A-Za-z][\w-]*) - \S)/;

/** The task name a line of Gradle's output names, or null. */
export function taskNameOfLine(line: string): string | null {
  const m = TASK_NAME_LINE.exec(line);
  return m === null ? null : (m[1] ?? m[2] ?? null);
}
