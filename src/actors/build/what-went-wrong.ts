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
  const text = block.lines
    .map((l) => l.replace(/^[\s>]+/, '').trimEnd())
    .filter((l) => l !== '' && !EXECUTION_FAILED.test(l) && !NOISE.some((re) => re.test(l)));
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
