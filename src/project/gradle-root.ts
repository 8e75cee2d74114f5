import { statSync } from 'node:fs';
import path from 'node:path';

/** The names of a Gradle build's settings file, Kotlin DSL first. */
export const SETTINGS_FILES = ['settings.gradle.kts', 'settings.gradle'] as const;

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The settings file of a Gradle build directory, or null. */
export function settingsFileIn(dir: string): string | null {
  for (const name of SETTINGS_FILES) {
    const file = path.join(dir, name);
    if (isFile(file)) {
      return file;
    }
  }
  return null;
}

/** The build file of a Gradle project directory (`build.gradle.kts` or `build.gradle`), or null. */
export function buildFileIn(dir: string): string | null {
  for (const name of ['build.gradle.kts', 'build.gradle']) {
    const file = path.join(dir, name);
    if (isFile(file)) {
      return file;
    }
  }
  return null;
}

/** The nearest folder at or above `start` that holds settings.gradle(.kts); null when none does. */
export function findGradleRoot(start: string): string | null {
  let dir = path.resolve(start);
  for (;;) {
    if (settingsFileIn(dir)) {
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      return null;
    }
    dir = parent;
  }
}
