/** What tool a Gradle task runs, read from its name: for diagnostics that do not say so themselves. */
import type { DiagnosticSource } from './diagnostic.js';

/** `> Task :app:compileDebugKotlin` and its status. */
export const TASK_HEADER = /^> Task (\S+)(?: (UP-TO-DATE|FAILED|NO-SOURCE|FROM-CACHE|SKIPPED))?$/;
/** Gradle before 5 printed `:app:compileDebugKotlin` (and ` FAILED`) on its own line. */
export const OLD_TASK_HEADER =
  /^(:[\w.-]+(?::[\w.-]+)*)(?: (UP-TO-DATE|FAILED|NO-SOURCE|FROM-CACHE|SKIPPED))?$/;

/** What kind of tool a task runs, for diagnostics that do not say so themselves. */
export function taskSource(task: string | null): DiagnosticSource | null {
  if (task === null) {
    return null;
  }
  const name = task.slice(task.lastIndexOf(':') + 1);
  if (/^kapt\w*Kotlin$|^kaptGenerateStubs/.test(name)) {
    return 'kapt';
  }
  if (/^ksp\w*Kotlin/.test(name)) {
    return 'ksp';
  }
  if (/JavaWithJavac$|^compile\w*Java$|^hiltJavaCompile/.test(name)) {
    return 'javac';
  }
  if (/^compile\w*Kotlin/.test(name)) {
    return 'kotlin';
  }
  if (/^(?:process|link|verify|merge)\w*Resources$|^(?:compile|link)\w*Resources/.test(name)) {
    return 'aapt2';
  }
  if (
    /^minify\w*With(?:R8|Proguard)$|^dexBuilder|^mergeDex|^mergeExtDex|^mergeLibDex|^mergeProjectDex/.test(
      name,
    )
  ) {
    return 'r8';
  }
  if (/^lint/.test(name)) {
    return 'lint';
  }
  if (/^check\w*DuplicateClasses$/.test(name)) {
    return 'duplicate-class';
  }
  return null;
}
