/**
 * Where a build's sources came from, for later debug sessions: the git commit, branch, whether the
 * tree was dirty and which files changed. `git` runs with an argument vector in the project root,
 * with short timeouts, no prompts, no optional locks (a build must not block the user's own git),
 * and the file-system monitor hook turned off (it would run a program the repository names).
 */
import { runProcess } from '../../util/exec.js';
import { which } from '../../util/which.js';

const GIT_TIMEOUT_MS = 3_000;
const MAX_CHANGED_FILES = 200;

export interface GitProvenance {
  commit: string;
  branch: string | null;
  dirty: boolean;
  changed_files: string[];
  changed_files_truncated: boolean;
}

export type GitProvenanceResult = { git: GitProvenance; reason: null } | { git: null; reason: string };

/** Paths from `git status --porcelain=v1 -z` (a rename's entry carries its old path too). */
export function parsePorcelainZ(out: string): string[] {
  const parts = out.split('\0');
  const files: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i] as string;
    if (entry.length < 4) {
      continue;
    }
    const status = entry.slice(0, 2);
    files.push(entry.slice(3));
    if (status.includes('R') || status.includes('C')) {
      i++; // The source path of a rename or copy follows as its own field.
    }
  }
  return files;
}

/** Reads the git facts of the repository holding `root`; null with the reason when there are none. */
export async function gitProvenance(root: string, signal?: AbortSignal): Promise<GitProvenanceResult> {
  const git = which('git');
  if (git === null) {
    return { git: null, reason: 'git is not installed (not on PATH)' };
  }
  const env = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
  const run = (args: string[]) =>
    runProcess(git, ['-c', 'core.fsmonitor=false', ...args], {
      cwd: root,
      env,
      timeoutMs: GIT_TIMEOUT_MS,
      maxOutputBytes: 256 * 1024,
      ...(signal ? { signal } : {}),
    });
  const head = await run(['rev-parse', '--verify', '-q', 'HEAD']);
  if (head.timedOut) {
    return { git: null, reason: `git rev-parse did not answer within ${GIT_TIMEOUT_MS / 1000} s` };
  }
  if (head.code !== 0) {
    const inside = await run(['rev-parse', '--is-inside-work-tree']);
    if (inside.code !== 0) {
      const why = inside.stderr.trim().split('\n')[0] ?? '';
      return {
        git: null,
        reason: /not a git repository/i.test(why)
          ? 'the project is not in a git repository'
          : `git cannot read the repository: ${why.slice(0, 200) || `exit code ${inside.code}`}`,
      };
    }
    return { git: null, reason: 'the git repository has no commits yet' };
  }
  const [branch, status] = await Promise.all([
    run(['symbolic-ref', '--short', '-q', 'HEAD']),
    run(['status', '--porcelain=v1', '-z', '--untracked-files=normal']),
  ]);
  if (status.code !== 0 || status.timedOut) {
    return {
      git: null,
      reason: status.timedOut
        ? `git status did not answer within ${GIT_TIMEOUT_MS / 1000} s`
        : `git status failed: ${status.stderr.trim().slice(0, 200)}`,
    };
  }
  const changed = parsePorcelainZ(status.stdout);
  return {
    git: {
      commit: head.stdout.trim(),
      branch: branch.code === 0 && branch.stdout.trim() !== '' ? branch.stdout.trim() : null,
      dirty: changed.length > 0,
      changed_files: changed.slice(0, MAX_CHANGED_FILES),
      changed_files_truncated: changed.length > MAX_CHANGED_FILES,
    },
    reason: null,
  };
}
