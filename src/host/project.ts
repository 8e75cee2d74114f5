import { statSync } from 'node:fs';
import { buildFileIn, findGradleRoot } from '../project/gradle-root.js';
import { canonicalProjectRoot } from '../project/trust.js';

/**
 * The project root the host opens for a path its person gave: the Gradle build around it
 * (canonical), else the folder itself when it has a build file of its own (a single-project build
 * needs no settings file). A path that is not a directory, or a folder that is no Gradle build, is a
 * problem, not a root.
 */
export function resolveHostProject(p: string): string | { problem: string } {
  let isDir = false;
  try {
    isDir = statSync(p).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    return { problem: `${p} is not a directory` };
  }
  const canonical = canonicalProjectRoot(p);
  const root = findGradleRoot(canonical);
  if (root !== null) {
    return root;
  }
  if (buildFileIn(canonical) !== null) {
    return canonical;
  }
  return {
    problem: `${p} is not a Gradle project: neither it nor a folder above it has settings.gradle(.kts), and it has no build.gradle(.kts); open the folder of the Android project (the one with settings.gradle.kts)`,
  };
}
