import type { ClassMapping, MappedRange, MemberFlags } from './mapping-model.js';
import {
  hasMinified,
  hasOriginal,
  minifiedContains,
  newMappedRange,
  originalLineOf,
  sameMinified,
} from './mapping-model.js';

/**
 * Looking up one obfuscated frame (class, method name, line) in a class's mapping, with R8's rules
 * (RetraceMethodResultImpl.narrowByPosition and RetraceFrameResultImpl): the ranges that contain the
 * line, grouped into inline frames, split into alternatives when ambiguous, with the original line
 * of every frame.
 */

/** What the previous line tells the next one (R8's RetraceStackTraceContext). */
export interface TraceContext {
  /** Obfuscated name of the exception just thrown (for `throws(…)` conditions). */
  thrownException: string | null;
  /** The obfuscated position of an outline frame, for the outline's call site in the next frame. */
  rewritePosition: number | null;
}

export const EMPTY_CONTEXT: TraceContext = { thrownException: null, rewritePosition: null };

/** A retraced method: a frame of one alternative. */
export interface RetracedMethod {
  holder: string;
  name: string;
  returnType: string;
  params: string[];
  /** The original line, or undefined when the mapping does not say. */
  position: number | undefined;
}

/** One alternative (R8's frame element): its frames innermost first, before rewriting. */
export interface FrameElement {
  frames: RetracedMethod[];
  ranges: MappedRange[];
  member: MemberFlags | undefined;
  obfuscatedPosition: number | undefined;
}

export interface FrameLookup {
  /** True when the class or method is not in the mapping, or no range fits the line. */
  empty: boolean;
  ambiguous: boolean;
  elements: FrameElement[];
}

const EMPTY_LOOKUP: FrameLookup = { empty: true, ambiguous: false, elements: [] };

interface Partition {
  ranges: MappedRange[];
  member: MemberFlags | undefined;
}

interface Narrowed {
  members: Partition[];
  position: number | undefined;
}

/**
 * Looks up a frame. `position` is undefined when the frame has no line-number part at all, -1 when
 * the part is empty (`Unknown Source`), else the obfuscated line.
 *
 * A frame without a line (or at line 0) is read as R8 8.3 does: the range that covers line 0, else a
 * member's first range without a minified range, and when neither exists the member itself (its
 * outermost signature, no line) — R8 assumes no inlining happened before a method's first line, so a
 * preamble position does not list every inlinee as an alternative.
 */
export function lookupFrame(
  mapping: ClassMapping | undefined,
  methodName: string,
  position: number | undefined,
  context: TraceContext,
): FrameLookup {
  if (mapping === undefined) {
    return EMPTY_LOOKUP;
  }
  const ranges = mapping.methods.get(methodName);
  if (ranges === undefined || ranges.length === 0) {
    return EMPTY_LOOKUP;
  }
  const partitions = partitionOnSignature(ranges).map((p) => ({
    ranges: p,
    member: mapping.members.get((p[p.length - 1] as MappedRange).residualKey),
  }));
  const hasPosition = position !== undefined && position > 0;
  let narrowed = narrow(
    partitions,
    hasPosition ? (p) => rangesForLine(p.ranges, position, false) : (p) => rangesForLine(p.ranges, 0, true),
    position,
    context.rewritePosition,
  );
  if (hasPosition && narrowed === null) {
    narrowed = narrow(
      partitions,
      (p) => p.ranges.filter((r) => !hasMinified(r)),
      position,
      context.rewritePosition,
    );
  }
  if (narrowed === null && !hasPosition) {
    narrowed = {
      members: partitions.map((p) => (isSingleCatchAll(p.ranges) ? p : { ranges: [], member: p.member })),
      position,
    };
  }
  if (narrowed === null) {
    return EMPTY_LOOKUP;
  }
  const ambiguous = isAmbiguous(narrowed);
  return { empty: false, ambiguous, elements: elementsOf(mapping, methodName, narrowed, ambiguous) };
}

/** R8's MAX_LINE_NUMBER: `0:65535` is a range that covers every line. */
const MAX_LINE_NUMBER = 65535;

function isSingleCatchAll(ranges: MappedRange[]): boolean {
  const only = ranges.length === 1 ? ranges[0] : undefined;
  return only !== undefined && only.minFrom === 0 && only.minTo === MAX_LINE_NUMBER;
}

function narrow(
  partitions: Partition[],
  select: (p: Partition) => MappedRange[],
  position: number | undefined,
  rewritePosition: number | null,
): Narrowed | null {
  const members: Partition[] = [];
  for (const partition of partitions) {
    const selected = select(partition);
    if (selected.length === 0) {
      continue;
    }
    if (rewritePosition !== null) {
      const callsite = (selected[selected.length - 1] as MappedRange).outlineCallsite;
      if (callsite !== null) {
        // The previous frame was an outline: this frame's real position is the call site's.
        const newPosition = callsite.get(rewritePosition) ?? rewritePosition;
        return narrow(partitions, (p) => rangesForLine(p.ranges, newPosition, false), newPosition, null);
      }
    }
    members.push({ ranges: selected, member: partition.member });
  }
  return members.length === 0 ? null : { members, position };
}

/**
 * The ranges whose minified range holds the line, with the inline ranges that follow them; failing
 * that, when `takeNoLineRange`, the first range without a minified range (R8's allRangesForLine).
 */
function rangesForLine(ranges: MappedRange[], line: number, takeNoLineRange: boolean): MappedRange[] {
  let noLineRange: MappedRange | null = null;
  for (let i = 0; i < ranges.length; i++) {
    const r = ranges[i] as MappedRange;
    if (!hasMinified(r)) {
      if (noLineRange === null && takeNoLineRange) {
        noLineRange = r;
      }
    } else if (minifiedContains(r, line)) {
      let j = i + 1;
      while (j < ranges.length && sameMinified(ranges[j] as MappedRange, r)) {
        j++;
      }
      return ranges.slice(i, j);
    }
  }
  return noLineRange === null ? [] : [noLineRange];
}

/**
 * Splits the ranges of one renamed name by the signature of their outermost frame: overloads that
 * were renamed to the same name are separate members (R8's partitionOnMethodSignature).
 */
function partitionOnSignature(ranges: MappedRange[]): MappedRange[][] {
  if (ranges.length <= 1) {
    return [ranges];
  }
  let index = 0;
  let current: MappedRange[] = [];
  index = takeInlineGroup(ranges, index, current);
  const lastKey = (list: MappedRange[]): string => (list[list.length - 1] as MappedRange).signature.key;
  if (lastKey(current) === lastKey(ranges)) {
    return [ranges];
  }
  const partitions: MappedRange[][] = [];
  while (index < ranges.length) {
    const next: MappedRange[] = [];
    index = takeInlineGroup(ranges, index, next);
    if (lastKey(current) !== lastKey(next)) {
      partitions.push(current);
      current = [];
    }
    current.push(...next);
  }
  partitions.push(current);
  return partitions;
}

function takeInlineGroup(ranges: MappedRange[], index: number, into: MappedRange[]): number {
  while (
    index + 1 < ranges.length &&
    isInlinePair(ranges[index] as MappedRange, ranges[index + 1] as MappedRange)
  ) {
    into.push(ranges[index++] as MappedRange);
  }
  into.push(ranges[index++] as MappedRange);
  return index;
}

function isInlinePair(previous: MappedRange, next: MappedRange): boolean {
  return hasMinified(previous) && sameMinified(previous, next);
}

function isAmbiguous(narrowed: Narrowed): boolean {
  if (narrowed.members.length > 1) {
    return true;
  }
  const ranges = (narrowed.members[0] as Partition).ranges;
  const first = ranges[0] as MappedRange;
  for (const r of ranges) {
    if (isRangeAmbiguous(r)) {
      return true;
    }
    if (r !== first && (!hasMinified(r) || !sameMinified(r, first))) {
      return true;
    }
  }
  return false;
}

/** A range whose original lines cannot be told apart from its minified line. */
function isRangeAmbiguous(r: MappedRange): boolean {
  if (!hasOriginal(r) || r.origTo - r.origFrom + 1 === 1) {
    return false;
  }
  return !hasMinified(r) || r.minTo - r.minFrom !== r.origTo - r.origFrom;
}

/** A member as a range without lines (R8's `new MappedRange(null, signature, null, renamed)`). */
function memberRange(member: MemberFlags, renamed: string): MappedRange {
  return newMappedRange(member.signature, renamed, {
    minFrom: -1,
    minTo: -1,
    origFrom: -1,
    origTo: -1,
    origCardinal: false,
  });
}

interface RangeForFrame {
  range: MappedRange;
  /** The original line when the range alone decides it. */
  position: number | undefined;
}

function defaultRangeForFrame(range: MappedRange): RangeForFrame {
  return {
    range,
    position: hasOriginal(range) && range.origFrom === range.origTo ? range.origFrom : undefined,
  };
}

function elementsOf(
  mapping: ClassMapping,
  renamed: string,
  narrowed: Narrowed,
  ambiguous: boolean,
): FrameElement[] {
  const elements: FrameElement[] = [];
  for (const partition of narrowed.members) {
    const ranges = partition.ranges;
    if (ranges.length === 0) {
      // A preamble position: the member itself, without a line.
      if (partition.member !== undefined) {
        const range = memberRange(partition.member, renamed);
        elements.push(
          element(mapping, [defaultRangeForFrame(range)], partition.member, narrowed.position, ambiguous),
        );
      }
      continue;
    }
    let group: MappedRange[] = [ranges[0] as MappedRange];
    for (let i = 1; i < ranges.length; i++) {
      const r = ranges[i] as MappedRange;
      const head = group[0] as MappedRange;
      if (!hasMinified(head) || !sameMinified(head, r)) {
        splitAmbiguousPositions(mapping, group, partition.member, narrowed.position, ambiguous, elements);
        group = [];
      }
      group.push(r);
    }
    splitAmbiguousPositions(mapping, group, partition.member, narrowed.position, ambiguous, elements);
  }
  return elements;
}

function splitAmbiguousPositions(
  mapping: ClassMapping,
  group: MappedRange[],
  member: MemberFlags | undefined,
  position: number | undefined,
  ambiguous: boolean,
  into: FrameElement[],
): void {
  const head = group[0] as MappedRange;
  if (!ambiguous || !isRangeAmbiguous(head)) {
    into.push(element(mapping, group.map(defaultRangeForFrame), member, position, ambiguous));
    return;
  }
  // Only the innermost frame can be ambiguous: every original line of it is an alternative.
  for (let line = head.origFrom; line <= head.origTo; line++) {
    const frames: RangeForFrame[] = [
      { range: head, position: line },
      ...group.slice(1).map(defaultRangeForFrame),
    ];
    into.push(element(mapping, frames, member, position, ambiguous));
  }
}

function element(
  mapping: ClassMapping,
  frames: RangeForFrame[],
  member: MemberFlags | undefined,
  position: number | undefined,
  ambiguous: boolean,
): FrameElement {
  return {
    frames: frames.map((f) => retracedMethod(mapping, f, position, ambiguous)),
    ranges: frames.map((f) => f.range),
    member,
    obfuscatedPosition: position,
  };
}

function retracedMethod(
  mapping: ClassMapping,
  frame: RangeForFrame,
  obfuscated: number | undefined,
  ambiguous: boolean,
): RetracedMethod {
  const r = frame.range;
  const signature = r.signature;
  let position: number | undefined;
  if (!ambiguous && (!hasMinified(r) || obfuscated === undefined || obfuscated === -1)) {
    const first = hasOriginal(r) ? r.origFrom : hasMinified(r) ? r.minFrom : 0;
    position = frame.position ?? (first > 0 ? first : undefined);
  } else if (obfuscated === undefined || !minifiedContains(r, obfuscated)) {
    position = frame.position;
  } else {
    position = frame.position ?? originalLineOf(r, obfuscated);
  }
  return {
    holder: signature.holder ?? mapping.original,
    name: signature.name,
    returnType: signature.returnType,
    params: signature.params,
    position,
  };
}

/** Whether the outermost frame of an alternative is compiler-synthesized (and so not shown). */
export function outermostSynthesized(element: FrameElement): boolean {
  if (element.member !== undefined) {
    return element.member.synthesized || element.member.outline;
  }
  const last = element.ranges[element.ranges.length - 1];
  return last !== undefined && (last.synthesized || last.outline);
}

function isOutlineFrame(element: FrameElement): boolean {
  if (element.member !== undefined) {
    return element.member.outline;
  }
  const last = element.ranges[element.ranges.length - 1];
  return last !== undefined && last.outline;
}

/** The context an alternative hands to the next line: an outline's position, else nothing. */
export function contextAfter(element: FrameElement): TraceContext {
  if (element.ranges.length === 0 || element.obfuscatedPosition === undefined || !isOutlineFrame(element)) {
    return EMPTY_CONTEXT;
  }
  return { thrownException: null, rewritePosition: element.obfuscatedPosition };
}

/**
 * The frames of an alternative as they are shown: inner frames removed by a matching
 * `rewriteFrame` rule, and a synthesized outermost frame dropped. Returns each frame with its index
 * among the shown ones (0 is the top).
 */
export function rewrittenFrames(element: FrameElement, context: TraceContext): RetracedMethod[] {
  let remove = 0;
  const thrown = context.thrownException === null ? null : `L${context.thrownException.replace(/\./g, '/')};`;
  for (const range of element.ranges) {
    for (const rule of range.rewriteFrame ?? []) {
      if (rule.throws.every((t) => t === thrown)) {
        remove += rule.removeInnerFrames;
      }
    }
  }
  const total = element.ranges.length === 0 ? 1 : element.ranges.length;
  if (remove > total) {
    remove = 0;
  }
  const shown: RetracedMethod[] = [];
  let prev = element.frames[0] as RetracedMethod;
  for (let i = 1; i < element.frames.length; i++) {
    if (remove-- <= 0) {
      shown.push(prev);
    }
    prev = element.frames[i] as RetracedMethod;
  }
  if (remove <= 0 && !outermostSynthesized(element)) {
    shown.push(prev);
  }
  return shown;
}
