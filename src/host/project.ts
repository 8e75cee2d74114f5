import { statSync } from 'node:fs';
import { findGradleRoot } from '../project/gradle-root.js';
import { canonicalProjectRoot } from '../project/trust.js';

/**
 * The project root the host opens for a path its person gave: the Gradle build around it
 * (canonical), else the folder itself. A path that is not a directory is a problem, not a root.
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
  return findGradleRoot(canonical) ?? canonical;
}
