/**
 * Diagnostics that span several output lines: javac/kapt (header, source line, caret, details),
 * KSP messages that continue on the next lines, R8 `Missing class` lines, runs of duplicate
 * classes, which are grouped per pair of clashing artifacts, and failed tests with their traces.
 */
import { diagnostic, type BuildDiagnostic } from './diagnostic.js';
import { matchDuplicate, matchJavacHeader } from './gradle-line-patterns.js';
import { TASK_HEADER } from './task-source.js';

export interface DuplicateGroup {
  d: BuildDiagnostic;
  firstClass: string;
  count: number;
}

export type Pending =
  | { kind: 'javac'; d: BuildDiagnostic; stage: 'source' | 'caret' | 'details'; details: string[] }
  | { kind: 'ksp'; d: BuildDiagnostic; extra: string[] }
  | { kind: 'r8'; d: BuildDiagnostic }
  | { kind: 'test'; d: BuildDiagnostic; trace: string[]; consumed: number }
  | { kind: 'duplicate'; groups: Map<string, DuplicateGroup> };

/** Adds one `Duplicate class` line to its pair of artifacts. */
export function addDuplicate(
  groups: Map<string, DuplicateGroup>,
  className: string,
  modules: string,
  task: string | null,
  outputLine: number,
): void {
  const g = groups.get(modules);
  if (g) {
    g.count++;
    return;
  }
  const d = diagnostic({
    severity: 'error',
    source: 'duplicate-class',
    message: `Duplicate class ${className} found in modules ${modules}`,
    task,
    outputLine,
  });
  groups.set(modules, { d, firstClass: className, count: 1 });
}

/** Tries `rawLine` as the continuation of a multi-line diagnostic; true when consumed. */
export function continuePending(
  p: Pending,
  rawLine: string,
  task: string | null,
  outputLine: number,
): boolean {
  switch (p.kind) {
    case 'javac': {
      // kapt run through the Kotlin reporter prefixes every line with `e: `.
      const line = rawLine.startsWith('e: ') ? rawLine.slice(3) : rawLine === 'e:' ? '' : rawLine;
      if (p.stage === 'source') {
        if (line.trim() === '' || matchJavacHeader(line.trim()) || line.startsWith('> Task ')) {
          return false;
        }
        p.stage = 'caret';
        return true;
      }
      if (p.stage === 'caret') {
        const caret = /^(\s*)\^\s*$/.exec(line);
        if (caret) {
          p.d.column = (caret[1] as string).length + 1;
          p.stage = 'details';
          return true;
        }
        p.stage = 'details';
      }
      if (/^\s+\S/.test(line) && p.details.length < 12 && !line.trimStart().startsWith('at ')) {
        p.details.push(line.trim());
        return true;
      }
      return false;
    }
    case 'ksp': {
      const t = rawLine.trim();
      if (
        t === '' ||
        p.extra.length >= 20 ||
        /^(?:[ew]: |> |\* |FAILURE|BUILD |Execution failed)/.test(t) ||
        TASK_HEADER.test(t)
      ) {
        return false;
      }
      if (p.d.message === '') {
        p.d.message = t;
      } else {
        p.extra.push(t);
      }
      return true;
    }
    case 'r8': {
      const t = rawLine.trim();
      if (/^\(referenced from|^and \d+ other contexts?\)?$/.test(t)) {
        p.d.message += ` ${t}`;
        return true;
      }
      return false;
    }
    case 'test': {
      // The failure's indented lines (Gradle's test logging, AGP's connected runner): the exception
      // and a few frames are kept; the rest of the trace is consumed so no frame reads as a diagnostic.
      if (!/^\s+\S/.test(rawLine) || p.consumed >= 200) {
        return false;
      }
      p.consumed++;
      if (p.trace.length < 6) {
        p.trace.push(rawLine.trim());
      }
      return true;
    }
    case 'duplicate': {
      const dup = matchDuplicate(rawLine);
      if (!dup) {
        return false;
      }
      addDuplicate(p.groups, dup.className, dup.modules, task, outputLine);
      return true;
    }
  }
}

/** The finished diagnostics of a pending multi-line one. */
export function finishPending(p: Pending): BuildDiagnostic[] {
  if (p.kind === 'duplicate') {
    // One diagnostic per pair of clashing artifacts, not one per class.
    return [...p.groups].map(([modules, g]) => {
      if (g.count > 1) {
        g.d.message = `Duplicate class ${g.firstClass} found in modules ${modules} (and ${g.count - 1} more duplicate classes from the same modules)`;
      }
      return g.d;
    });
  }
  if (p.kind === 'javac' && p.details.length > 0) {
    p.d.message = [p.d.message, ...p.details].join('\n');
  } else if (p.kind === 'test' && p.trace.length > 0) {
    p.d.message = [p.d.message, ...p.trace].join('\n');
  } else if (p.kind === 'ksp' && p.extra.length > 0) {
    p.d.message = [p.d.message, ...p.extra].filter((x) => x !== '').join('\n');
  }
  return [p.d];
}
