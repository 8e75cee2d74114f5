/**
 * Splits one stack-trace line into the parts retrace rewrites, with R8's default regular expression
 * (StackTraceRegularExpressionParser.DEFAULT_REGULAR_EXPRESSION, R8 8.x):
 *
 *   (?:.*?\bat\s+%c\.%m\s*\(%S\)\p{Z}*(?:~\[.*\])?)
 *   |(Suppressed:\s+|Caused [bB]y:\s+)?%c:\s.*
 *   |Exception in .*".*"\s%c
 *
 * The first branch is a frame (`… at a.b.c(SourceFile:12)`, whatever precedes it); the others an
 * exception header (`a.b.c: message`, `Caused by: a.b.c: …`, `Exception in thread "main" a.b.c`).
 * A class written with a class-loader or module prefix (`app//a.b.c`, `loader/module@1.0/a.b.c`) is
 * the part after the last `/`, the prefix is kept as it was.
 *
 * One extension: a logcat prefix (`03-15 12:00:00.123  1234  1234 E AndroidRuntime: `, or the
 * brief/time formats) is set aside first and the rest parsed as above, so exception headers inside
 * logcat output are retraced too. R8 retraces the frames of such lines (its `.*?` swallows the
 * prefix) but not their exception headers.
 */

/** A half-open character span of the line. */
export interface Span {
  start: number;
  end: number;
}

export interface ParsedStackLine {
  line: string;
  kind: 'frame' | 'exception' | 'text';
  className: Span | null;
  methodName: Span | null;
  sourceFile: Span | null;
  /** The line number text, which for frames includes its leading `:` when there is one. */
  lineNumber: Span | null;
}

// Java's \s is ASCII whitespace; \p{Z} are Unicode separators.
const WS = String.raw`[ \t\n\x0B\f\r]`;
// R8's identifierSegment `[^\s\[;:(<]+`. Its class expression `(segment\.)*segment` matches the same
// strings as one segment (a segment may hold dots), so one segment is used: no nested quantifier.
const SEGMENT = String.raw`[^ \t\n\x0B\f\r\[;:(<]+`;
const METHOD = String.raw`(?:${SEGMENT}|<init>|<clinit>)`;

const DEFAULT_PATTERN = new RegExp(
  '^(?:' +
    String.raw`(?:.*?\bat${WS}+(?<c1>${SEGMENT})\.(?<m>${METHOD})${WS}*\((?<S>.*)\)\p{Z}*(?:~\[.*\])?)` +
    String.raw`|(?:Suppressed:${WS}+|Caused [bB]y:${WS}+)?(?<c2>${SEGMENT}):${WS}.*` +
    String.raw`|Exception in .*".*"${WS}(?<c3>${SEGMENT})` +
    ')$',
  'du',
);

/** logcat's threadtime (optionally with uid or year) and brief/time prefixes. */
const LOGCAT_PREFIX =
  /^(?:(?:\d{4}-)?\d\d-\d\d[ T]\d\d:\d\d:\d\d\.\d+\s+(?:[\w.-]+\s+)?\d+\s+\d+\s+[VDIWEFAS]\s+.*?: |(?:(?:\d{4}-)?\d\d-\d\d[ T]\d\d:\d\d:\d\d\.\d+\s+)?[VDIWEFAS]\/[^(]*\(\s*\d+\): )/;

/** Parses one line; lines that are neither frames nor exception headers come back as `text`. */
export function parseStackLine(line: string): ParsedStackLine {
  const prefix = LOGCAT_PREFIX.exec(line);
  if (prefix !== null) {
    const inner = parseUnprefixed(line.slice(prefix[0].length));
    return shift(inner, line, prefix[0].length);
  }
  return parseUnprefixed(line);
}

function parseUnprefixed(line: string): ParsedStackLine {
  const result: ParsedStackLine = {
    line,
    kind: 'text',
    className: null,
    methodName: null,
    sourceFile: null,
    lineNumber: null,
  };
  const m = DEFAULT_PATTERN.exec(line);
  const groups = m?.indices?.groups;
  if (!m || !groups) {
    return result;
  }
  const c1 = groups['c1'];
  if (c1) {
    result.kind = 'frame';
    result.className = classSpan(line, c1);
    const method = groups['m'];
    if (method) {
      result.methodName = span(method);
    }
    const s = groups['S'];
    if (s) {
      registerSourceAndLine(result, line, span(s));
    }
    return result;
  }
  const c = groups['c2'] ?? groups['c3'];
  if (c) {
    result.kind = 'exception';
    result.className = classSpan(line, c);
  }
  return result;
}

/** The class is what follows the last `/` (class-loader and module prefixes are kept). */
function classSpan(line: string, g: [number, number]): Span {
  const slash = line.lastIndexOf('/', g[1] - 1);
  return { start: slash >= g[0] ? slash + 1 : g[0], end: g[1] };
}

function shift(parsed: ParsedStackLine, line: string, by: number): ParsedStackLine {
  const move = (s: Span | null): Span | null =>
    s === null ? null : { start: s.start + by, end: s.end + by };
  return {
    line,
    kind: parsed.kind,
    className: move(parsed.className),
    methodName: move(parsed.methodName),
    sourceFile: move(parsed.sourceFile),
    lineNumber: move(parsed.lineNumber),
  };
}

function span(g: [number, number]): Span {
  return { start: g[0], end: g[1] };
}

/**
 * R8's `%S`: the text in parentheses is a source file, then `:digits` at the end is the line number
 * (`(SourceFile:12)`, `(:12)`). Without one, the line number is an empty span at the end.
 */
function registerSourceAndLine(result: ParsedStackLine, line: string, s: Span): void {
  const group = line.slice(s.start, s.end);
  const sourceEnd = s.start + endOfSourceFile(group);
  result.sourceFile = { start: s.start, end: sourceEnd };
  result.lineNumber = { start: Math.min(sourceEnd, s.end), end: s.end };
}

function endOfSourceFile(group: string): number {
  let index = group.length;
  while (index > 0) {
    const c = group.charCodeAt(index - 1);
    if (c === 0x3a /* : */ && index < group.length) {
      return index - 1;
    }
    if (c < 0x30 || c > 0x39) {
      return group.length;
    }
    index--;
  }
  return group.length;
}

/** The line number of a parsed frame: -1 when it has none (`Unknown Source`, `SourceFile:`). */
export function lineNumberOf(parsed: ParsedStackLine): number {
  if (parsed.lineNumber === null) {
    return -1;
  }
  let text = parsed.line.slice(parsed.lineNumber.start, parsed.lineNumber.end);
  if (text.startsWith(':')) {
    text = text.slice(1);
  }
  if (text === '' || !/^\d+$/.test(text)) {
    return -1;
  }
  const n = Number(text);
  return n > 0x7fffffff ? -1 : n;
}
