import { realpathSync } from 'node:fs';
import path from 'node:path';
import { readSettings, updateSettings } from '../store/settings.js';

/** A project's canonical root (symlinks resolved), the form trust is recorded under. */
export function canonicalProjectRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

/** Whether the user trusted this project to run its Gradle build. Read fresh on every call. */
export function isProjectTrusted(root: string): boolean {
  const canonical = canonicalProjectRoot(root);
  return readSettings().trusted_projects.includes(canonical);
}

/** What the user must do for an untrusted project; null when it is trusted. */
export function trustHint(root: string | null): string | null {
  if (root === null) {
    return 'No Android project is selected. Start droidbus with --project PATH or from inside a Gradle project.';
  }
  if (isProjectTrusted(root)) {
    return null;
  }
  return `The project is not trusted, so droidbus will not run its Gradle build. Ask the user to review it and run: droidbus trust ${JSON.stringify(canonicalProjectRoot(root))}`;
}

/** Records the user's trust (CLI and the host's page only: no MCP tool can call this). */
export async function trustProject(root: string): Promise<string> {
  const canonical = canonicalProjectRoot(root);
  await updateSettings((s) => {
    if (!s.trusted_projects.includes(canonical)) {
      s.trusted_projects.push(canonical);
    }
  });
  return canonical;
}

/** Revokes trust. Returns false when the project was not trusted. */
export async function untrustProject(root: string): Promise<boolean> {
  const canonical = canonicalProjectRoot(root);
  let removed = false;
  await updateSettings((s) => {
    const before = s.trusted_projects.length;
    s.trusted_projects = s.trusted_projects.filter((p) => p !== canonical);
    removed = s.trusted_projects.length !== before;
  });
  return removed;
}
