/**
 * The build actor's pure core: parsing Gradle's console output into structured diagnostics and a
 * summary, and the policy on which task names an agent may run. The actor wraps these; nothing
 * here spawns processes or touches the bus.
 */
export { createGradleOutputParser, parseGradleOutput, taskSource } from './gradle-output-parse.js';
export type {
  GradleOutputParser,
  GradleOutputParserOptions,
  BuildOutputSummary,
} from './gradle-output-parse.js';
export type { BuildDiagnostic, DiagnosticSeverity, DiagnosticSource } from './diagnostic.js';
export { parseGradleDuration } from './gradle-build-facts.js';
export type { BuildResult } from './gradle-build-facts.js';
export { fileUriToPath } from './gradle-line-patterns.js';
export { checkGradleTask, judgeDryRun, MAX_TASK_NAME_LENGTH } from './task-policy.js';
export { leavingReason, LEAVING_RULES } from './leaving-tasks.js';
export type { TaskCheck, TaskPolicyOptions } from './task-policy.js';
