/**
 * The shapes of a parsed R8/ProGuard mapping. A class's members are parsed only when a stack frame
 * needs them (see mapping-class.ts); the index (mapping-index.ts) only knows where each class is.
 */

/** A method signature as the mapping writes it; `holder` is set for inlinees written `a.b.C.m`. */
export interface MethodSignature {
  returnType: string;
  name: string;
  holder: string | null;
  params: string[];
  /** `returnType holder.name(params)`, used to compare signatures. */
  key: string;
}

/** `com.android.tools.r8.rewriteFrame`: when every `throws` condition holds, apply the actions. */
export interface RewriteFrameRule {
  /** Descriptors of the thrown exception classes that must match (`Ljava/lang/NullPointerException;`). */
  throws: string[];
  removeInnerFrames: number;
}

/**
 * One method line: `[minFrom:minTo:]returnType name(params)[:origFrom[:origTo]] -> renamed`.
 * A missing range is -1. `origCardinal` is the `:u` form (a single original line, the call site of
 * an inlinee or a position mapped to one line).
 */
export interface MappedRange {
  minFrom: number;
  minTo: number;
  signature: MethodSignature;
  origFrom: number;
  origTo: number;
  origCardinal: boolean;
  renamed: string;
  /** The residual signature key of this line's member (`returnType renamed(params)` unless given). */
  residualKey: string;
  synthesized: boolean;
  outline: boolean;
  outlineCallsite: Map<number, number> | null;
  rewriteFrame: RewriteFrameRule[] | null;
  /** From `com.android.tools.r8.residualsignature`, as a JVM descriptor such as `(LX;)V`. */
  residualDescriptor: string | null;
}

/** Member-level facts R8 keeps on the member naming (keyed by residual signature). */
export interface MemberFlags {
  /** The original signature of the member's outermost frame, as first written for this residual key. */
  signature: MethodSignature;
  synthesized: boolean;
  outline: boolean;
}

export interface FieldMapping {
  type: string;
  name: string;
  renamed: string;
}

/** One class of the mapping, parsed. */
export interface ClassMapping {
  obfuscated: string;
  original: string;
  sourceFile: string | null;
  synthesized: boolean;
  /** Method lines by renamed name, in file order. */
  methods: Map<string, MappedRange[]>;
  fields: Map<string, FieldMapping[]>;
  members: Map<string, MemberFlags>;
}

/** The header facts of a mapping file (the comment lines before the first class). */
export interface MappingHeader {
  /** `# pg_map_id:` — the id R8 also writes into `r8-map-id-…` frames. */
  mapId: string | null;
  /** `# pg_map_hash:` as written (`SHA-256 …`). */
  mapHash: string | null;
  compiler: string | null;
  compilerVersion: string | null;
  minApi: string | null;
  /** The `com.android.tools.r8.mapping` version, null for ProGuard mappings. */
  mapVersion: string | null;
}

/** A mapping that cannot be read, with the 1-based line where reading stopped (0 when none). */
export class MappingError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(line > 0 ? `line ${line}: ${message}` : message);
    this.name = 'MappingError';
  }
}

/** A method line's range: its lines (-1 for none), signature and renamed name, no metadata yet. */
export function newMappedRange(
  signature: MethodSignature,
  renamed: string,
  lines: { minFrom: number; minTo: number; origFrom: number; origTo: number; origCardinal: boolean },
): MappedRange {
  return {
    ...lines,
    signature,
    renamed,
    residualKey: `${signature.returnType} ${renamed}(${signature.params.join(',')})`,
    synthesized: false,
    outline: false,
    outlineCallsite: null,
    rewriteFrame: null,
    residualDescriptor: null,
  };
}

export function hasMinified(range: MappedRange): boolean {
  return range.minFrom >= 0;
}

export function hasOriginal(range: MappedRange): boolean {
  return range.origFrom >= 0;
}

export function minifiedContains(range: MappedRange, line: number): boolean {
  return range.minFrom >= 0 && range.minFrom <= line && line <= range.minTo;
}

export function sameMinified(a: MappedRange, b: MappedRange): boolean {
  return a.minFrom === b.minFrom && a.minTo === b.minTo;
}

/** The original line for a minified line inside the range (R8's MappedRange.getOriginalLineNumber). */
export function originalLineOf(range: MappedRange, minifiedLine: number): number {
  if (!hasMinified(range) || !hasOriginal(range)) {
    return minifiedLine;
  }
  if (range.origFrom === range.origTo) {
    return range.origTo;
  }
  return range.origFrom + minifiedLine - range.minFrom;
}

/** Map versions in the order R8 compares them; unknown and experimental ones rank above all. */
export function mapVersionRank(version: string | null): number {
  switch (version) {
    case null:
    case 'none':
      return 0;
    case '1.0':
      return 10;
    case '2.0':
      return 20;
    case '2.1':
      return 21;
    case '2.2':
      return 22;
    case '2.3':
      return 23;
    default:
      return 1000;
  }
}

export const VERSION_1_0 = 10;
export const VERSION_2_0 = 20;
export const VERSION_2_2 = 22;
