/**
 * What the task policy resolves names against, read from Gradle itself: the project's full task
 * list (`gradlew tasks --all`), cached per build-file hash (settings, build scripts, the version
 * catalog, gradle.properties: `build-file-hashes.ts`), and Gradle's dry run (`gradlew -m NAME`),
 * the exact list of what an invocation executes, cached per hash and name.
 */
import { createHash } from 'node:crypto';
import { startGradle } from './gradle-process.js';
import { parseGradleOutput } from './gradle-output-parse.js';
import type { ProjectTasks } from './task-policy.js';

/** Lines of a report kept (a `tasks --all` of a large project is a few thousand). */
const MAX_REPORT_LINES = 50_000;
/** A report's time limit, whatever the build timeout. */
const MAX_REPORT_MS = 300_000;

/** A group's task line: `name`, `name - description`, `app:name - description`, `:a:b:name`. */
const TASK_LINE = /^((?::?[\w.-]+:)*)([A-Za-z_][\w.-]*)(?: - .*)?$/;
const UNDERLINE = /^-{3,}$/;

/**
 * The tasks of a `tasks --all` report by project path. Gradle prints each group as a title, a
 * dashed underline and one task a line (subprojects' tasks as `app:name`, the root's bare), ended
 * by a blank line; rule lines (`Pattern: …`) and the banner are not tasks.
 */
export function parseTasksReport(lines: readonly string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  let inGroup = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trimEnd();
    if (UNDERLINE.test(line)) {
      // A group's underline follows its title; the banner's dashed lines frame a sentence.
      inGroup = i > 0 && lines[i - 1]!.trim() !== '' && !/^Tasks runnable from /.test(lines[i + 1] ?? '');
      continue;
    }
    if (line === '') {
      inGroup = false;
      continue;
    }
    const m = inGroup ? TASK_LINE.exec(line) : null;
    if (m === null) {
      continue;
    }
    const prefix = m[1]!.replace(/^:/, '').replace(/:$/, '');
    const project = prefix === '' ? ':' : `:${prefix}`;
    const set = out.get(project) ?? new Set<string>();
    set.add(m[2]!);
    out.set(project, set);
  }
  return out;
}

/** The task paths a dry run (`gradlew -m`) lists: `:app:assembleDebug SKIPPED`. */
export function parseDryRun(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const m = /^(:[\w.:-]*) SKIPPED$/.exec(line.trimEnd());
    if (m) {
      out.push(m[1]!);
    }
  }
  return out;
}

/** Why a report failed, in Gradle's words: the build output parser's error (its What went wrong block). */
function failureOf(lines: readonly string[], code: number): string {
  const { diagnostics } = parseGradleOutput(lines.join('\n'), { exitCode: code });
  const error = diagnostics.find((d) => d.severity === 'error');
  return (
    error?.message ??
    lines
      .filter((l) => l.trim() !== '')
      .slice(-3)
      .join(' ')
  ).slice(0, 1_000);
}

export type ReportResult = { ok: true; lines: string[] } | { ok: false; error: string };

/** Runs the wrapper for a report (`tasks --all`, `-m NAME`), its output collected. */
export async function runGradleReport(
  root: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<ReportResult> {
  const lines: string[] = [];
  const proc = startGradle({
    root,
    args: ['--console=plain', ...args],
    env,
    onLine: (line) => {
      if (lines.length < MAX_REPORT_LINES) {
        lines.push(line);
      }
    },
  });
  const stop = (): void => proc.stop();
  signal.addEventListener('abort', stop, { once: true });
  const timer = setTimeout(stop, Math.min(timeoutMs, MAX_REPORT_MS));
  try {
    const exit = await proc.exited;
    if (exit.spawnError !== undefined) {
      return { ok: false, error: `the wrapper could not start: ${exit.spawnError}` };
    }
    if (exit.code !== 0) {
      return {
        ok: false,
        error:
          exit.code === null
            ? `stopped (${signal.aborted ? 'the request ended' : 'time limit'})`
            : failureOf(lines, exit.code),
      };
    }
    return { ok: true, lines };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
}

/** One hash of the build files' hashes (build-file-hashes.ts): what a cached list or dry run is valid for. */
export function buildFilesKey(files: readonly { path: string; sha256: string }[]): string {
  const h = createHash('sha256');
  for (const f of files) {
    h.update(`${f.path}\0${f.sha256}\n`);
  }
  return h.digest('hex');
}

/** Task lists and dry-run verdicts of each Gradle root, for the build-file state they were read in. */
export class TaskListCache {
  private readonly lists = new Map<string, { key: string; tasks: ProjectTasks }>();
  private readonly dryRuns = new Map<string, string[]>();

  list(root: string, key: string): ProjectTasks | null {
    const hit = this.lists.get(root);
    return hit !== undefined && hit.key === key ? hit.tasks : null;
  }

  setList(root: string, key: string, tasks: ProjectTasks): void {
    this.lists.set(root, { key, tasks });
    // Dry runs of an older state are stale.
    for (const k of this.dryRuns.keys()) {
      if (k.startsWith(`${root}\0`) && !k.startsWith(`${root}\0${key}\0`)) {
        this.dryRuns.delete(k);
      }
    }
  }

  dryRun(root: string, key: string, task: string): string[] | null {
    return this.dryRuns.get(`${root}\0${key}\0${task}`) ?? null;
  }

  setDryRun(root: string, key: string, task: string, executed: string[]): void {
    this.dryRuns.set(`${root}\0${key}\0${task}`, executed);
  }
}
