import { statSync } from 'node:fs';
import { findGradleRoot } from '../project/gradle-root.js';
import { canonicalProjectRoot } from '../project/trust.js';
import { readSettings } from '../store/settings.js';
import type { SelectedBy } from './session.js';

export interface ProjectSelection {
  root: string | null;
  selectedBy: SelectedBy | null;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Thrown when `--project` names something that is not a directory. */
export class ProjectArgumentError extends Error {}

/**
 * Picks the session's project: `--project`; else the Gradle build around the working directory
 * (the nearest folder with settings.gradle(.kts)); else the last active project if it is still a
 * directory; else none.
 */
export function selectProject(argument: string | undefined, cwd: string): ProjectSelection {
  if (argument !== undefined) {
    if (!isDirectory(argument)) {
      throw new ProjectArgumentError(`--project ${argument} is not a directory`);
    }
    const canonical = canonicalProjectRoot(argument);
    return { root: findGradleRoot(canonical) ?? canonical, selectedBy: 'argument' };
  }
  const around = findGradleRoot(cwd);
  if (around) {
    return { root: canonicalProjectRoot(around), selectedBy: 'working_directory' };
  }
  const last = readSettings().last_active_project;
  if (last && isDirectory(last)) {
    return { root: canonicalProjectRoot(last), selectedBy: 'last_active_project' };
  }
  return { root: null, selectedBy: null };
}
