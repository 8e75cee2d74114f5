/**
 * Splits one stack-trace line into the parts retrace rewrites, with R8's default regular expression
 * (StackTraceRegularExpressionParser.DEFAULT_REGULAR_EXPRESSION, R8 8.3):
 *
 *   (?:.*?\bat\s+%c\.%m\s*\(%S\)\p{Z}*(?:~\[.*\])?)
 *   |(?:(?:(?:%c|.*)?[:"]\s+)?%c(?:(:|]).*)?)
 *
 * The first branch is a frame (`… at a.b.c(SourceFile:12)`, whatever precedes it); the second names a
 * class anywhere a class may stand: an exception header (`a.b.c: message`, `Caused by: a.b.c: …`,
 * `Exception in thread "main" a.b.c`), the last `: word` of a message (`…: net::ERR_…` names `net`), a
 * `[CIRCULAR REFERENCE: a.b]`. When both `%c` of the second branch matched, the first one counts
 * (R8 registers the first class group that matched), except the word `Suppressed`. A class written with
 * a class-loader or module prefix (`app//a.b.c`, `loader/module@1.0/a.b.c`) is the part after the last
 * `/`, the prefix is kept as it was.
 *
 * One extension, for logcat: when the class R8's expression finds is not in the mapping and the line
 * starts with a logcat prefix (`03-15 12:00:00.123  1234  1234 E AndroidRuntime: `, or the brief/time
 * formats), the rest is read as an exception header (`Caused by: a.b.c: …`, R8 8.0's rule). R8's greedy
 * `.*` finds a message's last word there instead, so it retraces a logcat line's frames but not its
 * exception headers.
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
// R8's identifierSegment: a first character that is not a digit, then none of `\s[];:()<>`. Its class
// expression `(segment\.)*segment` matches the same strings as one segment (a segment may hold dots),
// so one segment is used: no nested quantifier.
const SEGMENT = String.raw`[^\d \t\n\x0B\f\r\[\];:()<>][^ \t\n\x0B\f\r\[\];:()<>]*`;
const METHOD = String.raw`(?:${SEGMENT}|<init>|<clinit>)`;

const DEFAULT_PATTERN = new RegExp(
  '^(?:' +
    String.raw`(?:.*?\bat${WS}+(?<c1>${SEGMENT})\.(?<m>${METHOD})${WS}*\((?<S>.*)\)\p{Z}*(?:~\[.*\])?)` +
    String.raw`|(?:(?:(?:(?<c2>${SEGMENT})|.*)?[:"]${WS}+)?(?<c3>${SEGMENT})(?::.*|\].*)?)` +
    ')$',
  'du',
);

/** R8 8.0's exception header, read after a logcat prefix. */
const HEADER_PATTERN = new RegExp(
  '^(?:' +
    String.raw`(?:Suppressed:${WS}+|Caused [bB]y:${WS}+)?(?<c2>${SEGMENT}):${WS}.*` +
    String.raw`|Exception in .*".*"${WS}(?<c3>${SEGMENT})` +
    ')$',
  'du',
);

/** logcat's threadtime (optionally with uid or year) and brief/time prefixes. */
const LOGCAT_PREFIX =
  /^(?:(?:\d{4}-)?\d\d-\d\d[ T]\d\d:\d\d:\d\d\.\d+\s+(?:[\w.-]+\s+)?\d+\s+\d+\s+[VDIWEFAS]\s+.*?: |(?:(?:\d{4}-)?\d\d-\d\d[ T]\d\d:\d\d:\d\d\.\d+\s+)?[VDIWEFAS]\/[^(]*\(\s*\d+\): )/;

/**
 * Parses one line; lines that are neither frames nor name a class come back as `text`. `isMapped`
 * (is this obfuscated class in the mapping?) lets a logcat line's exception header be found when
 * R8's expression lands on a word the mapping does not have.
 */
export function parseStackLine(line: string, isMapped?: (className: string) => boolean): ParsedStackLine {
  const parsed = parseWith(DEFAULT_PATTERN, line);
  if (parsed.kind !== 'exception' || isMapped === undefined || isMapped(classNameOf(parsed))) {
    return parsed;
  }
  const prefix = LOGCAT_PREFIX.exec(line);
  if (prefix === null) {
    return parsed;
  }
  const header = shift(parseWith(HEADER_PATTERN, line.slice(prefix[0].length)), line, prefix[0].length);
  return header.kind === 'exception' && isMapped(classNameOf(header)) ? header : parsed;
}

/** Whether the line (after any logcat prefix) is an exception header: `a.b.C: msg`, `Caused by: …`, `Exception in …`. */
export function isExceptionHeader(line: string): boolean {
  const prefix = LOGCAT_PREFIX.exec(line);
  return HEADER_PATTERN.test(prefix === null ? line : line.slice(prefix[0].length));
}

function classNameOf(parsed: ParsedStackLine): string {
  return parsed.line.slice(parsed.className!.start, parsed.className!.end);
}

function parseWith(pattern: RegExp, line: string): ParsedStackLine {
  const result: ParsedStackLine = {
    line,
    kind: 'text',
    className: null,
    methodName: null,
    sourceFile: null,
    lineNumber: null,
  };
  const m = pattern.exec(line);
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
  const c2 = groups['c2'];
  const c = c2 && line.slice(c2[0], c2[1]) !== 'Suppressed' ? c2 : groups['c3'];
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
