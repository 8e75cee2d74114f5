import type { RetracedMethod, TraceContext } from './frame-lookup.js';
import type { ParsedStackLine } from './stack-line.js';

/**
 * One retraced candidate for a line (R8's RetraceStackTraceElementProxy): a frame of an
 * alternative, or the line's exception class, or the line itself when nothing matched.
 */
export interface TraceProxy {
  /** The first frame of an alternative (inline frames that follow it are not top frames). */
  top: boolean;
  /** Retraced class name, or null for a line that names no class. */
  className: string | null;
  classKnown: boolean;
  /** Null when the method could not be mapped (the obfuscated name is kept). */
  method: RetracedMethod | null;
  /** The file to print, or null when the line has no file part. */
  sourceFile: string | null;
  /** The line to print, -1 for none. */
  line: number;
  ambiguous: boolean;
  context: TraceContext;
}

/** R8's equivalence of two top frames of a line: duplicates are printed once. */
export function sameProxy(a: TraceProxy, b: TraceProxy, verbose: boolean, originalLine: number): boolean {
  if (a.className !== b.className || a.sourceFile !== b.sourceFile) {
    return false;
  }
  if ((verbose || originalLine > 0) && a.line !== b.line) {
    return false;
  }
  if ((a.method === null) !== (b.method === null)) {
    return false;
  }
  if (a.method !== null && b.method !== null) {
    if (a.method.name !== b.method.name) {
      return false;
    }
    if (verbose && methodKey(a.method) !== methodKey(b.method)) {
      return false;
    }
  }
  return true;
}

function methodKey(m: RetracedMethod): string {
  return `${m.holder}.${m.name}(${m.params.join(',')})${m.returnType}`;
}

/** R8's order of ambiguous alternatives: by class, method, file, then line. */
export function compareProxies(a: TraceProxy, b: TraceProxy): number {
  if (a === b) {
    return 0;
  }
  let c = compareBool(a.className !== null, b.className !== null);
  if (c !== 0) {
    return c;
  }
  if (a.className !== null && b.className !== null) {
    c = compareStrings(a.className, b.className);
    if (c !== 0) {
      return c;
    }
  }
  c = compareBool(a.method !== null, b.method !== null);
  if (c !== 0) {
    return c;
  }
  if (a.method !== null && b.method !== null) {
    c = compareMethods(a.method, b.method);
    if (c !== 0) {
      return c;
    }
  }
  c = compareBool(a.sourceFile !== null, b.sourceFile !== null);
  if (c !== 0) {
    return c;
  }
  if (a.sourceFile !== null && b.sourceFile !== null) {
    c = compareStrings(a.sourceFile, b.sourceFile);
    if (c !== 0) {
      return c;
    }
  }
  c = compareBool(a.line !== -1, b.line !== -1);
  if (c !== 0) {
    return c;
  }
  return a.line === b.line ? 0 : a.line < b.line ? -1 : 1;
}

function compareMethods(a: RetracedMethod, b: RetracedMethod): number {
  let c = compareStrings(a.name, b.name);
  if (c !== 0) {
    return c;
  }
  c = compareStrings(a.returnType, b.returnType);
  if (c !== 0) {
    return c;
  }
  c = a.params.length - b.params.length;
  if (c !== 0) {
    return c < 0 ? -1 : 1;
  }
  for (let i = 0; i < a.params.length; i++) {
    c = compareStrings(a.params[i] as string, b.params[i] as string);
    if (c !== 0) {
      return c;
    }
  }
  return 0;
}

function compareBool(a: boolean, b: boolean): number {
  return a === b ? 0 : a ? 1 : -1;
}

/** Java's String.compareTo order (UTF-16 code units), which JS relational operators follow. */
function compareStrings(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

/** Writes a candidate into its line: each recognised part replaced, everything else kept. */
export function renderProxy(
  parsed: ParsedStackLine,
  proxy: TraceProxy,
  verbose: boolean,
  originalLine: number,
): string {
  const line = parsed.line;
  const parts: { start: number; end: number; text: string }[] = [];
  if (parsed.className !== null && proxy.className !== null) {
    parts.push({ ...parsed.className, text: proxy.className });
  }
  if (parsed.methodName !== null && proxy.method !== null) {
    const m = proxy.method;
    parts.push({
      ...parsed.methodName,
      text: verbose ? `${m.returnType} ${m.name}(${m.params.join(',')})` : m.name,
    });
  }
  if (parsed.sourceFile !== null && proxy.sourceFile !== null) {
    parts.push({ ...parsed.sourceFile, text: proxy.sourceFile });
  }
  if (parsed.lineNumber !== null && proxy.line !== -1 && (originalLine > -1 || !proxy.ambiguous || verbose)) {
    parts.push({ ...parsed.lineNumber, text: proxy.line <= 0 ? '' : `:${proxy.line}` });
  }
  if (parts.length === 0) {
    return line;
  }
  parts.sort((x, y) => x.start - y.start);
  let out = '';
  let last = 0;
  for (const part of parts) {
    out += line.slice(last, part.start) + part.text;
    last = part.end;
  }
  return out + line.slice(last);
}

/** Marks an alternative the way R8 does: `<OR> ` before the first `at `, else before the text. */
export function insertOr(line: string): string {
  let at = line.indexOf('at ');
  if (at < 0) {
    at = line.search(/\S/);
    if (at < 0) {
      at = 0;
    }
  }
  return `${line.slice(0, at)}<OR> ${line.slice(at)}`;
}
