import { parseLenientJson } from './lenient-json.js';
import type { LenientValue } from './lenient-json.js';
import type {
  ClassMapping,
  FieldMapping,
  MappedRange,
  MethodSignature,
  RewriteFrameRule,
} from './mapping-model.js';
import { MappingError, VERSION_1_0, VERSION_2_0, VERSION_2_2, newMappedRange } from './mapping-model.js';

/**
 * One member line, R8's grammar:
 * `[minFrom:minTo:]type name[(params)][:origFrom[:origTo]] -> renamed`, whitespace allowed around
 * the separators. A single number after the signature is a "cardinal" original line.
 */
const MEMBER_LINE =
  /^[ \t]*(?:(\d+)[ \t]*:[ \t]*(\d+)[ \t]*:[ \t]*)?([^\s(:]+)[ \t]+([^\s(:]+)[ \t]*(?:\(([^)]*)\))?[ \t]*(?::[ \t]*(\d+)(?:[ \t]*:[ \t]*(\d+))?)?[ \t]*->[ \t]*(\S+)[ \t]*$/;

/** The member line before: whether the next one continues its inline group. */
interface PreviousMember {
  signature: MethodSignature;
  renamed: string;
  minFrom: number;
  minTo: number;
  key: string;
}

/** One class body's parse: its members so far and the metadata waiting for its member. */
class ClassBody {
  readonly result: ClassMapping;
  lineNo: number;
  private sawMember = false;
  private lastRange: MappedRange | null = null;
  // R8 collects member-level ("referential") metadata until the inline group ends and then puts it
  // on the member of the group's last line.
  private pending: { synthesized: boolean; outline: boolean } | null = null;
  private previous: PreviousMember | null = null;

  constructor(
    obfuscated: string,
    private readonly original: string,
    private readonly versionRank: number,
    firstLine: number,
  ) {
    this.result = {
      obfuscated,
      original,
      sourceFile: null,
      synthesized: false,
      methods: new Map(),
      fields: new Map(),
      members: new Map(),
    };
    this.lineNo = firstLine - 1;
  }

  line(line: string): void {
    const trimmed = line.trim();
    if (trimmed === '') {
      return;
    }
    if (trimmed.startsWith('#')) {
      this.metadata(trimmed);
      return;
    }
    const m = MEMBER_LINE.exec(line);
    if (m === null) {
      throw new MappingError(
        `cannot read member mapping '${clip(trimmed)}' of class ${this.original}`,
        this.lineNo,
      );
    }
    this.sawMember = true;
    const [, minA, minB, type, name, params, origA, origB, renamed] = m as unknown as string[];
    if (params === undefined) {
      if (minA !== undefined) {
        throw new MappingError(`a field cannot have a line range: '${clip(trimmed)}'`, this.lineNo);
      }
      this.field({ type: type as string, name: name as string, renamed: renamed as string });
      return;
    }
    this.method(
      methodSignature(type as string, name as string, params),
      minA,
      minB,
      origA,
      origB,
      renamed as string,
    );
  }

  end(): ClassMapping {
    this.commitPending();
    return this.result;
  }

  /** `# {…}`: the class's own metadata before its first member, else its last member's. */
  private metadata(trimmed: string): void {
    const json = trimmed.slice(1).trim();
    if (!json.startsWith('{')) {
      return;
    }
    const info = parseLenientJson(json);
    if (info === null || typeof info !== 'object' || Array.isArray(info)) {
      return;
    }
    const id = info['id'];
    if (typeof id !== 'string') {
      return;
    }
    const rank = this.versionRank;
    if (!this.sawMember) {
      applyClassInfo(this.result, id, info, rank);
      return;
    }
    if (this.lastRange !== null) {
      applyRangeInfo(this.lastRange, id, info, rank, this.lineNo);
    }
    const synthesized = id === 'com.android.tools.r8.synthesized' && rank >= VERSION_1_0;
    const outline = id === 'com.android.tools.r8.outline' && rank >= VERSION_2_0;
    if (synthesized || outline) {
      this.pending ??= { synthesized: false, outline: false };
      this.pending.synthesized ||= synthesized;
      this.pending.outline ||= outline;
    }
  }

  private field(field: FieldMapping): void {
    const list = this.result.fields.get(field.renamed);
    if (list === undefined) {
      this.result.fields.set(field.renamed, [field]);
    } else {
      list.push(field);
    }
  }

  private method(
    signature: MethodSignature,
    minA: string | undefined,
    minB: string | undefined,
    origA: string | undefined,
    origB: string | undefined,
    renamed: string,
  ): void {
    const [minFrom, minTo] = orderedRange(minA, minB);
    const [origFrom, origTo] = orderedRange(origA, origB ?? origA);
    const range = newMappedRange(signature, renamed, {
      minFrom,
      minTo,
      origFrom,
      origTo,
      origCardinal: origA !== undefined && origB === undefined,
    });
    const previous = this.previous;
    const continues =
      previous !== null &&
      previous.renamed === range.renamed &&
      previous.minFrom >= 0 &&
      previous.minFrom === range.minFrom &&
      previous.minTo === range.minTo &&
      range.origCardinal;
    if (!continues) {
      this.commitPending();
    }
    this.previous = {
      signature,
      renamed,
      minFrom: range.minFrom,
      minTo: range.minTo,
      key: range.residualKey,
    };
    this.lastRange = range;
    const list = this.result.methods.get(renamed);
    if (list === undefined) {
      this.result.methods.set(renamed, [range]);
    } else {
      list.push(range);
    }
  }

  /** Ends an inline group: its last line is a member (R8's addMemberEntryOrCopyInformation). */
  private commitPending(): void {
    const previous = this.previous;
    if (previous !== null) {
      const members = this.result.members;
      let member = members.get(previous.key);
      if (member === undefined) {
        member = { signature: previous.signature, synthesized: false, outline: false };
        members.set(previous.key, member);
      }
      if (this.pending !== null) {
        member.synthesized ||= this.pending.synthesized;
        member.outline ||= this.pending.outline;
      }
    }
    this.pending = null;
  }
}

/**
 * Parses the member lines and `# {…}` metadata of one class (the text between its header and the
 * next class header). `firstLine` is the 1-based line number of the first body line.
 */
export function parseClassBody(
  text: string,
  start: number,
  end: number,
  obfuscated: string,
  original: string,
  versionRank: number,
  firstLine: number,
): ClassMapping {
  const body = new ClassBody(obfuscated, original, versionRank, firstLine);
  let pos = start;
  while (pos < end) {
    body.lineNo++;
    let eol = text.indexOf('\n', pos);
    if (eol < 0 || eol > end) {
      eol = end;
    }
    let lineEnd = eol;
    if (lineEnd > pos && text.charCodeAt(lineEnd - 1) === 13) {
      lineEnd--;
    }
    body.line(text.slice(pos, lineEnd));
    pos = eol + 1;
  }
  return body.end();
}

/**
 * A `from:to` range as R8's ProguardMapReader.parseRange reads it: old R8 versions wrote some ranges
 * reversed, so `5:3` is `3:5`, and `7:0` (a wrong 0 end) is the single line 7. [-1, -1] when absent.
 */
function orderedRange(from: string | undefined, to: string | undefined): [number, number] {
  if (from === undefined || to === undefined) {
    return [-1, -1];
  }
  const a = Number(from);
  const b = Number(to);
  if (a <= b) {
    return [a, b];
  }
  return b === 0 ? [a, a] : [b, a];
}

function methodSignature(returnType: string, name: string, params: string): MethodSignature {
  const list = params.trim() === '' ? [] : params.split(',').map((p) => p.trim());
  const dot = name.lastIndexOf('.');
  const holder = dot > 0 ? name.slice(0, dot) : null;
  const simple = dot > 0 ? name.slice(dot + 1) : name;
  return {
    returnType,
    name: simple,
    holder,
    params: list,
    key: `${returnType} ${name}(${list.join(',')})`,
  };
}

function applyClassInfo(
  mapping: ClassMapping,
  id: string,
  info: { [key: string]: LenientValue },
  versionRank: number,
): void {
  if (id === 'sourceFile') {
    const fileName = info['fileName'];
    if (typeof fileName === 'string' && mapping.sourceFile === null) {
      mapping.sourceFile = fileName;
    }
  } else if (id === 'com.android.tools.r8.synthesized' && versionRank >= VERSION_1_0) {
    mapping.synthesized = true;
  }
}

function applyRangeInfo(
  range: MappedRange,
  id: string,
  info: { [key: string]: LenientValue },
  versionRank: number,
  lineNo: number,
): void {
  switch (id) {
    case 'com.android.tools.r8.synthesized':
      if (versionRank >= VERSION_1_0) {
        range.synthesized = true;
      }
      return;
    case 'com.android.tools.r8.outline':
      if (versionRank >= VERSION_2_0) {
        range.outline = true;
      }
      return;
    case 'com.android.tools.r8.outlineCallsite':
      if (versionRank >= VERSION_2_0 && range.outlineCallsite === null) {
        range.outlineCallsite = outlinePositions(info, lineNo);
      }
      return;
    case 'com.android.tools.r8.rewriteFrame':
      if (versionRank >= VERSION_2_0) {
        (range.rewriteFrame ??= []).push(rewriteRule(info, lineNo));
      }
      return;
    case 'com.android.tools.r8.residualsignature': {
      const signature = info['signature'];
      if (versionRank >= VERSION_2_2 && typeof signature === 'string') {
        range.residualDescriptor = signature;
      }
      return;
    }
    default:
      return;
  }
}

function outlinePositions(info: { [key: string]: LenientValue }, lineNo: number): Map<number, number> {
  const positions = info['positions'];
  if (positions === null || typeof positions !== 'object' || Array.isArray(positions)) {
    throw new MappingError(`outlineCallsite without 'positions'`, lineNo);
  }
  const map = new Map<number, number>();
  for (const [key, value] of Object.entries(positions)) {
    const from = Number(key);
    if (!Number.isInteger(from) || typeof value !== 'number' || !Number.isInteger(value)) {
      throw new MappingError(`invalid outlineCallsite position '${key}'`, lineNo);
    }
    map.set(from, value);
  }
  return map;
}

function rewriteRule(info: { [key: string]: LenientValue }, lineNo: number): RewriteFrameRule {
  const conditions = info['conditions'];
  const actions = info['actions'];
  if (!Array.isArray(conditions) || !Array.isArray(actions)) {
    throw new MappingError(`rewriteFrame needs 'conditions' and 'actions' arrays`, lineNo);
  }
  const rule: RewriteFrameRule = { throws: [], removeInnerFrames: 0 };
  for (const condition of conditions) {
    const m = typeof condition === 'string' ? /^throws\((L[^;]+;)\)$/.exec(condition.trim()) : null;
    if (m === null) {
      throw new MappingError(`unsupported rewriteFrame condition ${JSON.stringify(condition)}`, lineNo);
    }
    rule.throws.push(m[1] as string);
  }
  for (const action of actions) {
    const m = typeof action === 'string' ? /^removeInnerFrames\((\d+)\)$/.exec(action.trim()) : null;
    if (m === null) {
      throw new MappingError(`unsupported rewriteFrame action ${JSON.stringify(action)}`, lineNo);
    }
    rule.removeInnerFrames += Number(m[1]);
  }
  return rule;
}

function clip(s: string): string {
  const printable = s.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 80 ? printable.slice(0, 77) + '...' : printable;
}
