/**
 * Gradle's failure paragraphs: `* What went wrong:` (with `* Where:` before it) up to `* Try:`.
 * They name the failed task and, for failures no compiler explained, are the only message there is.
 */
import { diagnostic, type BuildDiagnostic } from './diagnostic.js';
import { taskSource } from './task-source.js';

export const EXECUTION_FAILED = /Execution failed for task '([^']+)'/;
export const WHERE_LOCATION = /^(?:Build file|Settings file|Script|Init script) '(.+)' line: (\d+)$/;

export interface WhatWentWrong {
  lines: string[];
  task: string | null;
  /** How many diagnostics existed when the block began. */
  startedAt: number;
  where: { file: string; line: number } | null;
}

const NOISE = [
  /^A failure occurred while executing /,
  /^\d+ exceptions? (?:was|were) raised by workers:$/,
  /^Fix the issues identified by lint, or add the following/,
  /^(?:\.\.\.|android \{|lintOptions \{|lint \{|abortOnError false|\})$/,
];

/**
 * Sentences that only say a compiler failed and point at its own output: a block of nothing else is
 * explained by the located diagnostics of its task.
 */
const POINTS_AT_OUTPUT = [
  /^Compilation error\. See log for more details$/,
  /^Compilation failed; see the compiler (?:error )?output (?:for details|below)\.?$/,
  /^Compilation failed to complete$/,
  /^Script compilation errors?:?$/,
  /^Android resource (?:linking|compilation) failed$/,
  /^Lint found (?:errors|\d+ errors?)/,
  /^To create a baseline,|^For more details, see the lint report|^Lint found fatal errors/,
  /^Missing classes detected while running R8/,
  /^Duplicate class /,
  /^KSP failed with exit code/,
  /^Error while evaluating property '.*' of task/,
  /^There were failing tests/,
];

/** The block's meaningful lines: no markers, no `Execution failed`, no wrapper noise. */
function meaningfulLines(block: WhatWentWrong): string[] {
  return block.lines
    .map((l) => l.replace(/^[\s>]+/, '').trimEnd())
    .filter((l) => l !== '' && !EXECUTION_FAILED.test(l) && !NOISE.some((re) => re.test(l)));
}

/**
 * Whether the block says something its task's located diagnostics do not: a second failure of the task
 * (a JVM-target mismatch next to compile errors) must not be dropped because the task has errors.
 */
export function saysMoreThan(block: WhatWentWrong, known: readonly BuildDiagnostic[]): boolean {
  return meaningfulLines(block).some(
    (line) =>
      !POINTS_AT_OUTPUT.some((re) => re.test(line)) &&
      !known.some((d) => d.message.includes(line) || line.includes(d.message)),
  );
}

/** The block as printed, trimmed and capped. */
export function blockText(block: WhatWentWrong): string {
  const full = block.lines
    .map((l) => l.trimEnd())
    .join('\n')
    .trim();
  return full.length > 4000 ? `${full.slice(0, 4000)}…` : full;
}

/** The block as one diagnostic: its meaningful lines, the task it names, the `* Where:` location. */
export function blockDiagnostic(block: WhatWentWrong): BuildDiagnostic {
  const text = meaningfulLines(block);
  let message = text.slice(0, 20).join('\n');
  if (message.length > 2000) {
    message = `${message.slice(0, 2000)}…`;
  }
  if (message === '') {
    message =
      block.task !== null
        ? `Execution failed for task '${block.task}'.`
        : 'The build failed (no details were printed).';
  }
  const source = taskSource(block.task);
  return diagnostic({
    severity: 'error',
    source: source === 'lint' || source === 'kapt' || source === 'ksp' || source === 'r8' ? source : 'gradle',
    message,
    task: block.task,
    file: block.where?.file ?? null,
    line: block.where?.line ?? null,
  });
}
