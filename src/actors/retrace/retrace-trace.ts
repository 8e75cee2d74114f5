import type { FrameLookup, TraceContext } from './frame-lookup.js';
import { EMPTY_CONTEXT, contextAfter, lookupFrame, rewrittenFrames } from './frame-lookup.js';
import type { MappingIndex } from './mapping-index.js';
import type { ClassMapping } from './mapping-model.js';
import { lookupClass, sourceFileOfOriginal } from './mapping-index.js';
import { inferSourceFile } from './source-file.js';
import type { ParsedStackLine } from './stack-line.js';
import { isExceptionHeader, lineNumberOf, parseStackLine } from './stack-line.js';
import type { TraceProxy } from './trace-proxy.js';
import { compareProxies, insertOr, renderProxy, sameProxy } from './trace-proxy.js';

export interface RetraceOptions {
  /** R8's `--verbose`: methods are printed with their signature. */
  verbose?: boolean;
}

/** One original frame a stack line stands for (one of possibly several alternatives). */
export interface RetracedFrameCandidate {
  className: string;
  methodName: string;
  /** `void foo(int)` form, when the method was mapped. */
  signature: string | null;
  sourceFile: string | null;
  lineNumber: number | null;
  /** 0 for the first alternative; ambiguous lines have more. */
  alternative: number;
  /** True for frames inlined into the next one (every frame of an alternative but the last). */
  inlined: boolean;
}

/** What happened to one input line that named a class. */
export interface RetracedFrame {
  /** 0-based index of the input line. */
  index: number;
  kind: 'frame' | 'exception';
  input: string;
  /** The lines printed for it: several for inlined or ambiguous frames, none for synthesized ones. */
  output: string[];
  obfuscatedClass: string;
  /** The class is in the mapping. */
  classMapped: boolean;
  /** For frames: the method was found at that line. */
  methodMapped: boolean;
  ambiguous: boolean;
  /** The `r8-map-id-…` id named as this frame's file, if any. */
  mapId: string | null;
  candidates: RetracedFrameCandidate[];
}

export interface RetraceResult {
  text: string;
  frames: RetracedFrame[];
  /** True when the output differs from the input. */
  changed: boolean;
  /** Frame lines whose class or method the mapping does not have (they are printed as they were). */
  unmappedFrames: number;
  /** The distinct `r8-map-id-…` ids of the trace's frames, in order of appearance. */
  mapIds: string[];
}

const MAP_ID = /^r8-map-id-(.+)$/;

/** Splits a trace into lines as Java's readAllLines does (no empty line after a final newline). */
export function splitTraceLines(text: string): string[] {
  if (text === '') {
    return [];
  }
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') {
    lines.pop();
  }
  return lines;
}

/** Retraces a whole trace (any text: logcat output, a pasted trace) with R8's semantics. */
export function retraceTrace(
  index: MappingIndex,
  traceText: string,
  options: RetraceOptions = {},
): RetraceResult {
  const verbose = options.verbose === true;
  const lines = splitTraceLines(traceText);
  const out: string[] = [];
  const frames: RetracedFrame[] = [];
  const mapIds: string[] = [];
  let unmapped = 0;
  let context: TraceContext = EMPTY_CONTEXT;
  const isMapped = (className: string): boolean => lookupClass(index, className) !== undefined;
  lines.forEach((line, i) => {
    const parsed = parseStackLine(line, isMapped);
    const step = retraceLine(index, parsed, context, verbose);
    context = step.context;
    out.push(...step.output);
    if (parsed.kind === 'text' || parsed.className === null) {
      return;
    }
    const frame = step.frame as RetracedFrame;
    if (frame.kind === 'exception' && !frame.classMapped && !isExceptionHeader(line)) {
      // R8's expression names a class in many a message (`FATAL EXCEPTION: main` names `main`): outside an
      // exception header, a word the mapping does not have is no finding.
      return;
    }
    frame.index = i;
    frames.push(frame);
    if (frame.kind === 'frame' && !frame.methodMapped) {
      unmapped++;
    }
    if (frame.mapId !== null && !mapIds.includes(frame.mapId)) {
      mapIds.push(frame.mapId);
    }
  });
  const trailingNewline = /[\r\n]$/.test(traceText);
  const text = out.join('\n') + (trailingNewline && out.length > 0 ? '\n' : '');
  return { text, frames, changed: out.join('\n') !== lines.join('\n'), unmappedFrames: unmapped, mapIds };
}

interface LineStep {
  output: string[];
  context: TraceContext;
  frame: RetracedFrame | null;
}

type Group = { top: TraceProxy; lines: string[]; proxies: TraceProxy[] };

function mapIdOf(parsed: ParsedStackLine): string | null {
  const sourceText =
    parsed.sourceFile === null ? null : parsed.line.slice(parsed.sourceFile.start, parsed.sourceFile.end);
  return sourceText === null ? null : (MAP_ID.exec(sourceText)?.[1] ?? null);
}

/** A frame of a class the mapping does not know, left exactly as it was (`(Unknown Source:0)` keeps its `:0`). */
function untouchedFrame(parsed: ParsedStackLine, context: TraceContext, obfuscatedClass: string): LineStep {
  const line = parsed.line;
  return {
    output: [line],
    context,
    frame: {
      index: 0,
      kind: 'frame',
      input: line,
      output: [line],
      obfuscatedClass,
      classMapped: false,
      methodMapped: false,
      ambiguous: false,
      mapId: mapIdOf(parsed),
      candidates: [],
    },
  };
}

/** The frames a stack frame line retraces to: its inline chains, one per mapping candidate. */
function frameProxies(
  index: MappingIndex,
  parsed: ParsedStackLine,
  mapping: ClassMapping | undefined,
  lookup: FrameLookup,
  context: TraceContext,
): { proxies: TraceProxy[]; resultContext: TraceContext } {
  const originalLine = lineNumberOf(parsed);
  const lineOf = (position: number | null | undefined): number =>
    parsed.lineNumber === null ? -1 : (position ?? originalLine);
  if (lookup.empty) {
    const className = mapping?.original ?? parsed.line.slice(parsed.className!.start, parsed.className!.end);
    return {
      proxies: [
        {
          top: true,
          className,
          classKnown: mapping !== undefined,
          method: null,
          sourceFile: sourceFileFor(index, parsed, className, mapping !== undefined),
          line: lineOf(undefined),
          ambiguous: false,
          context,
        },
      ],
      resultContext: EMPTY_CONTEXT,
    };
  }
  const proxies: TraceProxy[] = [];
  let resultContext: TraceContext = EMPTY_CONTEXT;
  for (const element of lookup.elements) {
    const elementContext = contextAfter(element);
    resultContext = elementContext;
    rewrittenFrames(element, context).forEach((method, i) => {
      proxies.push({
        top: i === 0,
        className: method.holder,
        classKnown: true,
        method,
        sourceFile: sourceFileFor(index, parsed, method.holder, true),
        line: lineOf(method.position),
        ambiguous: lookup.ambiguous,
        context: elementContext,
      });
    });
  }
  return { proxies, resultContext };
}

/** Groups by top frame, dropping alternatives that print the same (R8's RetraceBase); sorted. */
function groupAlternatives(parsed: ParsedStackLine, proxies: TraceProxy[], verbose: boolean): Group[] {
  const originalLine = lineNumberOf(parsed);
  const groups: Group[] = [];
  let current: Group | null = null;
  for (const proxy of proxies) {
    if (proxy.top || proxy.className === null) {
      if (groups.some((g) => sameProxy(g.top, proxy, verbose, originalLine))) {
        current = null;
      } else {
        current = { top: proxy, lines: [], proxies: [] };
        groups.push(current);
      }
    }
    if (current !== null) {
      current.lines.push(renderProxy(parsed, proxy, verbose, originalLine));
      current.proxies.push(proxy);
    }
  }
  return groups.sort((a, b) => compareProxies(a.top, b.top));
}

/** Every candidate of every alternative, for the structured answer. */
function candidatesOf(
  parsed: ParsedStackLine,
  groups: Group[],
  obfuscatedClass: string,
): RetracedFrame['candidates'] {
  const methodName =
    parsed.methodName === null ? '' : parsed.line.slice(parsed.methodName.start, parsed.methodName.end);
  return groups.flatMap((g, alternative) =>
    g.proxies.map((p, i) => ({
      className: p.className ?? obfuscatedClass,
      methodName: p.method?.name ?? methodName,
      signature:
        p.method === null ? null : `${p.method.returnType} ${p.method.name}(${p.method.params.join(',')})`,
      sourceFile: p.sourceFile,
      lineNumber: p.line > 0 ? p.line : null,
      alternative,
      inlined: i < g.proxies.length - 1,
    })),
  );
}

function retraceLine(
  index: MappingIndex,
  parsed: ParsedStackLine,
  context: TraceContext,
  verbose: boolean,
): LineStep {
  if (parsed.kind === 'text' || parsed.className === null) {
    // R8 keeps the incoming context across lines it cannot read.
    return { output: [parsed.line], context, frame: null };
  }
  const line = parsed.line;
  const obfuscatedClass = line.slice(parsed.className.start, parsed.className.end);
  const mapping = lookupClass(index, obfuscatedClass);
  let proxies: TraceProxy[];
  let resultContext: TraceContext = EMPTY_CONTEXT;
  let lookup: FrameLookup | null = null;
  if (parsed.kind === 'exception') {
    proxies = [
      {
        top: true,
        className: mapping?.original ?? obfuscatedClass,
        classKnown: mapping !== undefined,
        method: null,
        sourceFile: null,
        line: -1,
        ambiguous: false,
        context: { thrownException: obfuscatedClass, rewritePosition: null },
      },
    ];
  } else {
    const methodName =
      parsed.methodName === null ? '' : line.slice(parsed.methodName.start, parsed.methodName.end);
    lookup = lookupFrame(
      mapping,
      methodName,
      parsed.lineNumber === null ? undefined : lineNumberOf(parsed),
      context,
    );
    if (lookup.empty && mapping === undefined) {
      return untouchedFrame(parsed, context, obfuscatedClass);
    }
    ({ proxies, resultContext } = frameProxies(index, parsed, mapping, lookup, context));
  }
  const groups = groupAlternatives(parsed, proxies, verbose);
  const output = joinAlternatives(groups.map((g) => g.lines));
  const nextContext =
    groups.length === 0 ? resultContext : groups.length === 1 ? groups[0]!.top.context : EMPTY_CONTEXT;
  const frame: RetracedFrame = {
    index: 0,
    kind: parsed.kind,
    input: line,
    output,
    obfuscatedClass,
    classMapped: mapping !== undefined,
    methodMapped: parsed.kind === 'frame' ? lookup !== null && !lookup.empty : mapping !== undefined,
    ambiguous: groups.length > 1,
    mapId: mapIdOf(parsed),
    candidates: candidatesOf(parsed, groups, obfuscatedClass),
  };
  return { output, context: nextContext, frame };
}

/** R8's StringRetrace.joinAmbiguousLines: alternatives interleaved line by line, `<OR>` on all but the first. */
function joinAlternatives(alternatives: string[][]): string[] {
  const result: string[] = [];
  const longest = alternatives.reduce((n, a) => Math.max(n, a.length), 0);
  for (let lineIndex = 0; lineIndex < longest; lineIndex++) {
    const reported = new Set<string>();
    alternatives.forEach((lines, alternative) => {
      const text = lines[lineIndex];
      if (text === undefined || reported.has(text)) {
        return;
      }
      reported.add(text);
      result.push(alternative === 0 ? text : insertOr(text));
    });
  }
  return result;
}

function sourceFileFor(
  index: MappingIndex,
  parsed: ParsedStackLine,
  className: string,
  known: boolean,
): string | null {
  if (parsed.sourceFile === null) {
    return null;
  }
  const fromMapping = sourceFileOfOriginal(index, className);
  if (fromMapping !== null) {
    return fromMapping;
  }
  return inferSourceFile(className, parsed.line.slice(parsed.sourceFile.start, parsed.sourceFile.end), known);
}
