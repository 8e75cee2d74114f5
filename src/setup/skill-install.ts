import { lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../store/atomic.js';

/** Where Claude Code reads user skills: `~/.claude/skills`. */
export function claudeSkillsDir(home: string = os.homedir()): string {
  return path.join(home, '.claude', 'skills');
}

/** Thrown when installing would overwrite something the user has: the message says what and how to replace it. */
export class SkillInstallRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SkillInstallRefused';
  }
}

export interface SkillInstallResult {
  /** `installed`: written fresh; `replaced`: a different file was replaced (--replace); `unchanged`: already the shipped skill. */
  status: 'installed' | 'replaced' | 'unchanged';
  path: string;
}

/** What is installed now, without changing anything. */
export function skillStatus(
  skillText: string,
  home: string = os.homedir(),
): 'missing' | 'current' | 'different' | 'symlink' {
  const file = path.join(claudeSkillsDir(home), 'droidbus', 'SKILL.md');
  try {
    if (lstatSync(file).isSymbolicLink()) {
      return 'symlink';
    }
    return readFileSync(file, 'utf8') === skillText ? 'current' : 'different';
  } catch {
    return 'missing';
  }
}

function inside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * Installs the agent skill for Claude Code as `~/.claude/skills/droidbus/SKILL.md`, written to a
 * unique temporary file and renamed over the target. It refuses, unless `replace`, a `droidbus`
 * folder that resolves outside `~/.claude/skills` (a symlink elsewhere), and a SKILL.md that is a
 * symlink or differs from the shipped one. Replacing never writes through a symlink: the link itself
 * is replaced.
 */
export function installSkill(options: {
  skillText: string;
  replace?: boolean;
  home?: string;
}): SkillInstallResult {
  const replace = options.replace === true;
  const skills = claudeSkillsDir(options.home);
  mkdirSync(skills, { recursive: true });
  const realSkills = realpathSync(skills);
  const dir = path.join(skills, 'droidbus');
  const file = path.join(dir, 'SKILL.md');
  const again = ' Pass --replace to replace it with the shipped skill.';

  let dirStat;
  try {
    dirStat = lstatSync(dir);
  } catch {
    dirStat = undefined;
  }
  if (dirStat?.isSymbolicLink()) {
    let target: string | null;
    try {
      target = realpathSync(dir);
    } catch {
      target = null;
    }
    if (target === null || !inside(target, realSkills)) {
      if (!replace) {
        throw new SkillInstallRefused(
          `${dir} is a symlink to ${target ?? 'a folder that does not exist'}, outside ${skills}; droidbus will not write there.${again}`,
        );
      }
      unlinkSync(dir);
      dirStat = undefined;
    }
  } else if (dirStat && !dirStat.isDirectory()) {
    if (!replace) {
      throw new SkillInstallRefused(`${dir} exists and is not a folder.${again}`);
    }
    rmSync(dir, { force: true });
    dirStat = undefined;
  }
  mkdirSync(dir, { recursive: true });

  let replaced = false;
  let fileStat;
  try {
    fileStat = lstatSync(file);
  } catch {
    fileStat = undefined;
  }
  if (fileStat) {
    if (fileStat.isSymbolicLink()) {
      if (!replace) {
        throw new SkillInstallRefused(`${file} is a symlink.${again}`);
      }
      replaced = true;
    } else if (!fileStat.isFile()) {
      throw new SkillInstallRefused(`${file} exists and is not a regular file; remove it first.`);
    } else if (readFileSync(file, 'utf8') === options.skillText) {
      return { status: 'unchanged', path: file };
    } else if (!replace) {
      throw new SkillInstallRefused(
        `${file} differs from the skill this droidbus ships (an edited or older copy).${again}`,
      );
    } else {
      replaced = true;
    }
  }
  writeFileAtomic(file, options.skillText, 0o644);
  return { status: replaced ? 'replaced' : 'installed', path: file };
}
