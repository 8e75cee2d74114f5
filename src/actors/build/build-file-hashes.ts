/**
 * SHA-256 of the files that say how a project builds (settings, every module's build.gradle(.kts),
 * the version catalog, gradle.properties, the wrapper properties), taken when a build starts, so
 * a later comparison of two debug sessions can say which build files changed between their builds.
 * Files are read through the project-file checks (inside the project, regular files, size-capped).
 */
import { createHash } from 'node:crypto';
import type { ProjectModel } from '../../project/project-model.js';
import { readProjectFile } from '../../project/project-files.js';

/** Build files hashed at most per build. */
const MAX_FILES = 64;

/** The build files of a project, relative to its root (`/`-separated), without duplicates. */
export function buildFileCandidates(project: ProjectModel): string[] {
  const out = new Set<string>();
  if (project.settingsFile !== null) {
    out.add(project.settingsFile);
  }
  out.add('build.gradle.kts');
  out.add('build.gradle');
  for (const m of project.modules) {
    if (m.buildFile !== null) {
      out.add(m.buildFile);
    }
  }
  if (project.versionCatalog !== null) {
    out.add(project.versionCatalog);
  }
  out.add('gradle.properties');
  out.add('gradle/wrapper/gradle-wrapper.properties');
  return [...out].slice(0, MAX_FILES);
}

/** The hashes of the build files that exist, sorted by path. */
export async function hashBuildFiles(project: ProjectModel): Promise<{ path: string; sha256: string }[]> {
  const hashes: { path: string; sha256: string }[] = [];
  for (const rel of buildFileCandidates(project)) {
    const read = await readProjectFile(project.root, rel);
    if (read.ok) {
      hashes.push({ path: rel, sha256: createHash('sha256').update(read.text, 'utf8').digest('hex') });
    }
  }
  return hashes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
