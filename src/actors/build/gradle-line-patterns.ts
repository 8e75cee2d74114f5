/**
 * Single-line recognisers for the diagnostic formats Gradle builds print: Kotlin, KSP, javac/kapt
 * headers, AAPT2 (AGPBI JSON and text), lint, R8/D8, duplicate classes, configuration cache
 * problems. Each returns the parts of a diagnostic it can read from that one line, or null.
 */
import { diagnostic, type BuildDiagnostic, type DiagnosticSeverity } from './diagnostic.js';

/** Turns `file:///C:/x/Foo.kt` or `file:/home/x` into a plain path; other text is returned as is. */
export function fileUriToPath(p: string): string {
  const m = /^file:(?:\/\/)?(\/[A-Za-z]:[\\/].*|\/.*)$/.exec(p);
  if (!m) {
    return p;
  }
  let rest = m[1] as string;
  if (/^\/[A-Za-z]:/.test(rest)) {
    rest = rest.slice(1);
  }
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest;
  }
}

const KOTLIN_NEW = /^(.+?):(\d+):(\d+)(?::? (.*)|:)?$/;
const KOTLIN_OLD = /^(.+?): \((\d+), (\d+)\): (.*)$/;
const KSP_LOCATED = /^\[ksp\] (.+?\.(?:kt|kts|java)):(\d+):(?: (.*))?$/;
export const JAVAC_HEADER = /^(.+?\.(?:java|kt)):(\d+): (error|warning): (.*)$/;
const LINT = /^(.+?):(\d+)(?::(\d+))?: (Error|Warning|Information): (.+?)(?: \[([A-Za-z0-9_]+)\])?$/;
const AAPT = /^(?:ERROR: ?)?(.+?):(\d+)(?::(\d+)(?:-(\d+)(?::(\d+))?)?)?: AAPT: (error|warning): (.*)$/;
const AAPT_OLD = /^(?:Output:\s+)?(.+?\.xml):(\d+)(?::(\d+))?: error: (.*)$/;
const R8_SUMMARY =
  /^(ERROR|WARNING): ?Missing classes detected while running R8\. .*?generated in (.+?missing_rules\.txt)\.?$/;
const R8_TOOL_WITH_FILE = /^(ERROR|WARNING): ?(.+?): (R8|D8): (.*)$/;
const R8_TOOL = /^(ERROR|WARNING): ?(?:R8|D8): (.*)$/;
const R8_MISSING = /^Missing class (\S+)(?: \((.*))?$/;
const DUPLICATE = /Duplicate class (\S+) found in modules? (.+?) and (.+?)\s*$/;
const CC_TASK = /^- Task `([^`]+)` of type `([^`]+)`: (.*)$/;
const CC_LOCATED = /^- (Build file|Settings file|Script|Init script) '([^']+)'(?:: line (\d+))?: (.*)$/;
const CC_OTHER = /^- (Plugin '[^']+'|Unknown location|Plugin class '[^']+'): (.*)$/;

/** A Kotlin compiler line after its `e: `/`w: ` prefix: new (`:12:5`), old (`: (12, 5):`) or no location. */
export function matchKotlinPayload(payload: string, severity: DiagnosticSeverity): BuildDiagnostic {
  const neu = KOTLIN_NEW.exec(payload);
  if (neu && looksLikePath(neu[1] as string)) {
    return diagnostic({
      severity,
      source: 'kotlin',
      file: fileUriToPath(neu[1] as string),
      line: Number(neu[2]),
      column: Number(neu[3]),
      message: (neu[4] ?? '').trim(),
    });
  }
  const old = KOTLIN_OLD.exec(payload);
  if (old && looksLikePath(old[1] as string)) {
    return diagnostic({
      severity,
      source: 'kotlin',
      file: fileUriToPath(old[1] as string),
      line: Number(old[2]),
      column: Number(old[3]),
      message: (old[4] as string).trim(),
    });
  }
  return diagnostic({ severity, source: 'kotlin', message: payload.trim() });
}

/** A path-looking string: has a separator or a drive, no spaces before the extension dot. */
function looksLikePath(s: string): boolean {
  return /[\\/]/.test(s) || /^[A-Za-z]:/.test(s) || /\.\w+$/.test(s);
}

/** `[ksp] /path/File.kt:12: message` (located) or `[ksp] message`. */
export function matchKsp(payload: string, severity: DiagnosticSeverity): BuildDiagnostic | null {
  if (!payload.startsWith('[ksp] ')) {
    return null;
  }
  const m = KSP_LOCATED.exec(payload);
  if (m) {
    return diagnostic({
      severity,
      source: 'ksp',
      file: fileUriToPath(m[1] as string),
      line: Number(m[2]),
      message: (m[3] ?? '').trim(),
    });
  }
  return diagnostic({ severity, source: 'ksp', message: payload.slice('[ksp] '.length).trim() });
}

/** `/path/Foo.java:12: error: msg` — the first line of a javac (or kapt) diagnostic. */
export function matchJavacHeader(line: string): BuildDiagnostic | null {
  const m = JAVAC_HEADER.exec(line);
  if (!m) {
    return null;
  }
  const file = m[1] as string;
  return diagnostic({
    severity: m[3] === 'error' ? 'error' : 'warning',
    source: /[\\/]build[\\/](?:tmp[\\/]kapt3|generated[\\/]source[\\/]kapt)[\\/]/.test(file)
      ? 'kapt'
      : 'javac',
    file,
    line: Number(m[2]),
    message: (m[4] as string).trim(),
  });
}

/** `/path/strings.xml:33: Error: message [IssueId]`. */
export function matchLint(line: string): BuildDiagnostic | null {
  if (!line.includes(': Error: ') && !line.includes(': Warning: ') && !line.includes(': Information: ')) {
    return null;
  }
  const m = LINT.exec(line);
  if (!m || !looksLikePath(m[1] as string)) {
    return null;
  }
  const sev = m[4] === 'Error' ? 'error' : m[4] === 'Warning' ? 'warning' : 'info';
  return diagnostic({
    severity: sev,
    source: 'lint',
    file: fileUriToPath(m[1] as string),
    line: Number(m[2]),
    column: m[3] !== undefined ? Number(m[3]) : null,
    message: (m[5] as string).trim(),
    code: m[6] ?? null,
  });
}

/** `file.xml:13:5-61: AAPT: error: msg`, ranges `104:5-108:13`, line only `:71:`, and AGP 3's `Output:  file.xml:12: error:`. */
export function matchAapt(line: string): BuildDiagnostic | null {
  if (line.includes(': AAPT: ')) {
    const m = AAPT.exec(line);
    if (m) {
      const col = m[3] !== undefined ? Number(m[3]) : null;
      const a = m[4] !== undefined ? Number(m[4]) : null;
      const b = m[5] !== undefined ? Number(m[5]) : null;
      return diagnostic({
        severity: m[6] === 'error' ? 'error' : 'warning',
        source: 'aapt2',
        file: m[1] as string,
        line: Number(m[2]),
        column: col,
        // `13:5-61` is a column range on one line; `104:5-108:13` spans lines.
        endLine: b !== null ? a : a !== null ? Number(m[2]) : null,
        endColumn: b !== null ? b : a,
        message: (m[7] as string).trim(),
      });
    }
  }
  if (line.includes('.xml:') && line.includes(': error: ')) {
    const m = AAPT_OLD.exec(line);
    if (m) {
      return diagnostic({
        severity: 'error',
        source: 'aapt2',
        file: m[1] as string,
        line: Number(m[2]),
        column: m[3] !== undefined ? Number(m[3]) : null,
        message: (m[4] as string).trim(),
      });
    }
  }
  return null;
}

/** AGP's machine-readable line: `AGPBI: {"kind":"error","text":…,"sources":[…],"original":…,"tool":…}`. */
export function matchAgpbi(line: string): BuildDiagnostic | null {
  if (!line.startsWith('AGPBI: ')) {
    return null;
  }
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line.slice('AGPBI: '.length)) as Record<string, unknown>;
  } catch {
    return null;
  }
  const kind = String(o['kind'] ?? '').toLowerCase();
  const severity: DiagnosticSeverity = kind === 'error' ? 'error' : kind === 'warning' ? 'warning' : 'info';
  const tool = String(o['tool'] ?? '');
  const source = /aapt/i.test(tool) ? 'aapt2' : /^(?:R8|D8)$/i.test(tool) ? 'r8' : 'gradle';
  const src = Array.isArray(o['sources'])
    ? (o['sources'][0] as Record<string, unknown> | undefined)
    : undefined;
  const pos = (src?.['position'] ?? {}) as Record<string, unknown>;
  const num = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
  // AGPBI positions are 0-based; every other format (and the `original` text) is 1-based.
  const startLine = num(pos['startLine']);
  const startColumn = num(pos['startColumn']);
  const endLine = num(pos['endLine']);
  const endColumn = num(pos['endColumn']);
  const original = typeof o['original'] === 'string' ? o['original'].trim() : '';
  const fromOriginal = /: AAPT: (?:error|warning): ([\s\S]*)$/.exec(original)?.[1]?.trim();
  const text = typeof o['text'] === 'string' ? o['text'] : '';
  return diagnostic({
    severity,
    source,
    file: typeof src?.['file'] === 'string' ? fileUriToPath(src['file']) : null,
    line: startLine !== null ? startLine + 1 : null,
    column: startColumn !== null ? startColumn + 1 : null,
    endLine: endLine !== null ? endLine + 1 : null,
    endColumn: endColumn !== null ? endColumn + 1 : null,
    message: fromOriginal || original || text,
  });
}

export type R8Match = { kind: 'summary' | 'tool' | 'missing'; diagnostic: BuildDiagnostic };

/** Inside R8 output: the severity of the R8 line bare `Missing class …` lines continue; null outside. */
export type R8Context = 'error' | 'warning' | null;

/**
 * R8/D8 lines: the missing-classes summary, `ERROR: R8: …`, `ERROR:/f.jar: D8: …`, and `Missing class X (…)`,
 * which R8 prints bare after the first one of a run and which takes that one's severity
 * (`WARNING:R8: Missing class …` then `Missing class …` when the missing classes are only warned about).
 */
export function matchR8(line: string, r8Context: R8Context): R8Match | null {
  if (line.startsWith('ERROR') || line.startsWith('WARNING')) {
    const sum = R8_SUMMARY.exec(line);
    if (sum) {
      return {
        kind: 'summary',
        diagnostic: diagnostic({
          severity: sum[1] === 'ERROR' ? 'error' : 'warning',
          source: 'r8',
          file: sum[2] as string,
          message: line.replace(/^(?:ERROR|WARNING): ?/, ''),
        }),
      };
    }
    const tool = R8_TOOL.exec(line);
    if (tool) {
      return {
        kind: 'tool',
        diagnostic: diagnostic({
          severity: tool[1] === 'ERROR' ? 'error' : 'warning',
          source: 'r8',
          message: (tool[2] as string).trim(),
        }),
      };
    }
    const withFile = R8_TOOL_WITH_FILE.exec(line);
    if (withFile) {
      return {
        kind: 'tool',
        diagnostic: diagnostic({
          severity: withFile[1] === 'ERROR' ? 'error' : 'warning',
          source: 'r8',
          file: withFile[2] as string,
          message: (withFile[4] as string).trim(),
        }),
      };
    }
  }
  if (r8Context !== null && line.startsWith('Missing class ')) {
    const m = R8_MISSING.exec(line);
    if (m) {
      return {
        kind: 'missing',
        diagnostic: diagnostic({ severity: r8Context, source: 'r8', message: line.trim() }),
      };
    }
  }
  return null;
}

export interface DuplicateMatch {
  className: string;
  modules: string;
}

/** `Duplicate class X found in modules A and B`, wherever it sits in the line. */
export function matchDuplicate(line: string): DuplicateMatch | null {
  if (!line.includes('Duplicate class ')) {
    return null;
  }
  const m = DUPLICATE.exec(line);
  return m ? { className: m[1] as string, modules: `${m[2] as string} and ${m[3] as string}` } : null;
}

/** One configuration-cache problem line (`- Task `:x` of type `T`: …`, `- Build file 'f': line 3: …`). */
export function matchConfigCacheProblem(line: string): BuildDiagnostic | null {
  if (!line.startsWith('- ')) {
    return null;
  }
  const t = CC_TASK.exec(line);
  if (t) {
    return diagnostic({
      severity: 'error',
      source: 'config-cache',
      task: t[1] as string,
      message: (t[3] as string).trim(),
    });
  }
  const f = CC_LOCATED.exec(line);
  if (f) {
    return diagnostic({
      severity: 'error',
      source: 'config-cache',
      file: f[2] as string,
      line: f[3] !== undefined ? Number(f[3]) : null,
      message: (f[4] as string).trim(),
    });
  }
  const o = CC_OTHER.exec(line);
  if (o) {
    return diagnostic({
      severity: 'error',
      source: 'config-cache',
      message: `${o[1] as string}: ${(o[2] as string).trim()}`,
    });
  }
  return null;
}
