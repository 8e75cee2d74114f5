/** Structured diagnostics parsed out of Gradle's console output. Plain data, structured-clone safe. */

export type DiagnosticSeverity = 'error' | 'warning' | 'info';

export type DiagnosticSource =
  | 'kotlin'
  | 'javac'
  | 'aapt2'
  | 'r8'
  | 'ksp'
  | 'kapt'
  | 'lint'
  | 'config-cache'
  | 'duplicate-class'
  | 'test'
  | 'gradle';

export interface BuildDiagnostic {
  severity: DiagnosticSeverity;
  source: DiagnosticSource;
  message: string;
  /** The file as Gradle printed it (a `file://` URI turned into a path); null without a location. */
  file: string | null;
  line: number | null;
  column: number | null;
  endLine: number | null;
  endColumn: number | null;
  /** The Gradle task the diagnostic came from (`:app:compileDebugKotlin`), when known. */
  task: string | null;
  /** A tool's own id for the problem: the lint issue id (`MissingTranslation`). */
  code: string | null;
  /** The 1-based line of the build output where it was reported. */
  outputLine: number;
}

/** Makes a diagnostic with every optional field present (null). */
export function diagnostic(
  partial: Pick<BuildDiagnostic, 'severity' | 'source' | 'message'> & Partial<BuildDiagnostic>,
): BuildDiagnostic {
  return {
    file: null,
    line: null,
    column: null,
    endLine: null,
    endColumn: null,
    task: null,
    code: null,
    outputLine: 0,
    ...partial,
  };
}

function normFile(f: string): string {
  return f.replace(/\\/g, '/').replace(/^\.\//, '');
}

/** Two spellings of one file: equal, or one a path suffix of the other (relative vs absolute). */
function sameFile(a: string | null, b: string | null): boolean {
  if (a === null || b === null) {
    return a === b;
  }
  const x = normFile(a);
  const y = normFile(b);
  return x === y || x.endsWith('/' + y) || y.endsWith('/' + x);
}

function family(s: DiagnosticSource): string {
  // kapt reports javac-format errors; Kotlin's `e:` prefix sometimes wraps them too.
  return s === 'kapt' || s === 'javac' ? 'java' : s;
}

/** Keeps each problem once even when Gradle prints it twice (task output and "What went wrong"). */
export class DiagnosticSet {
  private readonly byKey = new Map<string, BuildDiagnostic[]>();
  readonly list: BuildDiagnostic[] = [];
  dropped = 0;

  constructor(private readonly max: number) {}

  private key(d: BuildDiagnostic): string {
    return `${d.severity}|${d.line ?? ''}|${d.message.replace(/\s+/g, ' ').trim()}`;
  }

  /** Adds `d` unless an equivalent one is present; returns whether it was added. */
  add(d: BuildDiagnostic): boolean {
    const key = this.key(d);
    const same = this.byKey.get(key);
    // Without a file, the task tells problems apart (two tasks can fail with the same message).
    const sameTask = (o: BuildDiagnostic): boolean =>
      d.file !== null || o.task === null || d.task === null || o.task === d.task;
    if (same?.some((o) => family(o.source) === family(d.source) && sameFile(o.file, d.file) && sameTask(o))) {
      return false;
    }
    if (this.list.length >= this.max) {
      this.dropped++;
      return false;
    }
    this.list.push(d);
    if (same) {
      same.push(d);
    } else {
      this.byKey.set(key, [d]);
    }
    return true;
  }
}
