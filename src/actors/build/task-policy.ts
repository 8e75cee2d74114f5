/**
 * Which Gradle task names an agent may run. Names that look like Gradle options are refused; so are
 * tasks that publish or remove things (`publish*`, `promote*`, `upload*`, `uninstall*`,
 * `closeAndRelease*`, `*ToMavenCentral`, `*PlayStore*`) unless the user allowed unrestricted Gradle.
 *
 * Gradle accepts abbreviations: `pRB` runs `publishReleaseBundle`. Its matcher splits the request
 * at capitals (and `-`, `_`, `.`) and matches each part against the start of a camel-case word; when
 * nothing matches case-sensitively it retries case-insensitively, and then letters between parts
 * are absorbed too (`CR` can reach `closeAndReleaseRepository`). Since the project's task list is
 * unknown here, a request is refused when its first part could begin one of the blocked prefixes.
 * The infix patterns are refused when the name contains them or consecutive parts spell them
 * (`aPSR`, `ATOMC`).
 * Known gap: a name that reaches an infix pattern only through the case-insensitive fallback
 * (letters absorbed between parts) cannot be detected without the project's task list.
 */

export interface TaskPolicyOptions {
  /** `settings.allowUnrestrictedGradle`: the user's explicit permission to run any task. */
  allowUnrestricted: boolean;
}

/** `blocked`: the name is a task the policy refuses, not a malformed one. */
export type TaskCheck = { ok: true } | { ok: false; reason: string; blocked?: true };

export const MAX_TASK_NAME_LENGTH = 200;

const SEGMENT = /^[A-Za-z0-9_.-]+$/;

/** Blocked prefix patterns, as Gradle's first camel-case words lower-cased and joined. */
const PREFIXES: readonly { words: string; pattern: string }[] = [
  { words: 'publish', pattern: 'publish*' },
  { words: 'promote', pattern: 'promote*' },
  { words: 'upload', pattern: 'upload*' },
  { words: 'uninstall', pattern: 'uninstall*' },
  { words: 'closeandrelease', pattern: 'closeAndRelease*' },
];

/** Blocked infix/suffix patterns as lower-cased word sequences. */
const INFIXES: readonly { words: readonly string[]; pattern: string }[] = [
  { words: ['play', 'store'], pattern: '*PlayStore*' },
  { words: ['to', 'maven', 'central'], pattern: '*ToMavenCentral' },
];

/** Splits a task name the way Gradle reads abbreviations: at capitals and at `-`, `_`, `.`. */
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

function prefixCompatible(a: string, b: string): boolean {
  return a.startsWith(b) || b.startsWith(a);
}

/**
 * Whether consecutive parts spell the start of an infix into its second word: each part matches
 * letters of the infix right after the previous one, or at the start of one of its words (`aPSR`,
 * `TOMC`, `x-pl-st`).
 */
function spellsInfix(parts: readonly string[], words: readonly string[]): boolean {
  const text = words.join('');
  const starts: number[] = [];
  let at = 0;
  for (const w of words) {
    starts.push(at);
    at += w.length;
  }
  const second = starts[1] as number;
  for (let i = 0; i < parts.length; i++) {
    const first = parts[i] as string;
    if (!text.startsWith(first)) {
      continue;
    }
    let end = first.length;
    for (let j = i + 1; end <= second && j < parts.length; j++) {
      const p = parts[j] as string;
      if (text.startsWith(p, end)) {
        end += p.length;
        continue;
      }
      const s = starts.find((x) => x >= end && text.startsWith(p, x));
      if (s === undefined) {
        break;
      }
      end = s + p.length;
    }
    if (end > second) {
      return true;
    }
  }
  return false;
}

/** The blocked pattern `name` (the last path segment) could select, or null. */
export function blockedPatternFor(name: string): string | null {
  const parts = camelParts(name);
  const first = parts[0];
  if (first === undefined) {
    return null;
  }
  for (const p of PREFIXES) {
    if (prefixCompatible(first, p.words)) {
      return p.pattern;
    }
  }
  const flat = parts.join('');
  for (const inf of INFIXES) {
    if (flat.includes(inf.words.join('')) || spellsInfix(parts, inf.words)) {
      return inf.pattern;
    }
  }
  return null;
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
  const pattern = blockedPatternFor(name);
  if (pattern !== null) {
    return {
      ok: false,
      blocked: true,
      reason:
        `'${task}' is refused: it matches or could abbreviate a ${pattern} task (Gradle expands abbreviations such as pRB to publishReleaseBundle), ` +
        'and publishing, uploading and uninstalling tasks are blocked unless the user turns on allowUnrestrictedGradle in the settings. ' +
        'If you meant another task, pass its full name.',
    };
  }
  return { ok: true };
}
