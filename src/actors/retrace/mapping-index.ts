import { createHash } from 'node:crypto';
import { parseLenientJson } from './lenient-json.js';
import type { ClassMapping, MappingHeader } from './mapping-model.js';
import { MappingError, mapVersionRank } from './mapping-model.js';
import { parseClassBody } from './mapping-class.js';

/**
 * The index of a mapping: its text, where every class starts and ends, and the classes parsed so
 * far. Building it is one pass over the lines that looks only at class headers (a few percent of the
 * lines); members are parsed per class, on first use. A 20 MB mapping holds tens of thousands of
 * classes but millions of member lines, so the cold cost stays a scan, not a parse.
 */
export interface MappingIndex {
  readonly text: string;
  readonly sha256: string;
  /** Size of the file in bytes. */
  readonly bytes: number;
  readonly header: MappingHeader;
  /** Obfuscated class names, in file order. */
  readonly obfuscated: readonly string[];
  /** Original class names, in file order. */
  readonly original: readonly string[];
  /** Start (first character after the header line) and end of each class body in `text`. */
  readonly bodyStart: Uint32Array;
  readonly bodyEnd: Uint32Array;
  /** 1-based line number of each class header, for error messages. */
  readonly headerLine: Uint32Array;
  /** Map version rank in force at each class (see mapVersionRank). */
  readonly versionRank: Uint16Array;
  readonly byObfuscated: Map<string, number>;
  /** Built on first use: source files are looked up by original class name. */
  byOriginal: Map<string, number> | null;
  readonly parsed: (ClassMapping | undefined)[];
}

/**
 * Builds the index of a mapping from its bytes (or text); throws MappingError when it is not a
 * mapping. Callers that already hashed the bytes pass the sha256 (and, for text, the byte length).
 */
export function buildMappingIndex(
  input: Buffer | string,
  sha256?: string,
  byteLength?: number,
): MappingIndex {
  const text = typeof input === 'string' ? input : input.toString('utf8');
  const bytes = typeof input === 'string' ? (byteLength ?? Buffer.byteLength(input, 'utf8')) : input.length;
  const hash = sha256 ?? createHash('sha256').update(input).digest('hex');
  const scan = scanMapping(text);
  return {
    text,
    sha256: hash,
    bytes,
    header: scan.header,
    obfuscated: scan.obfuscated,
    original: scan.original,
    bodyStart: scan.bodyStart,
    bodyEnd: scan.bodyEnd,
    headerLine: scan.headerLine,
    versionRank: scan.versionRank,
    byObfuscated: scan.byObfuscated,
    byOriginal: null,
    parsed: new Array<ClassMapping | undefined>(scan.obfuscated.length),
  };
}

/** The parsed class whose obfuscated name this is, or undefined when the mapping has none. */
export function lookupClass(index: MappingIndex, obfuscatedName: string): ClassMapping | undefined {
  const i = index.byObfuscated.get(obfuscatedName);
  return i === undefined ? undefined : classAt(index, i);
}

/** The `sourceFile` metadata of a class, looked up by its original name (as R8 does). */
export function sourceFileOfOriginal(index: MappingIndex, originalName: string): string | null {
  if (index.byOriginal === null) {
    const map = new Map<string, number>();
    index.original.forEach((name, i) => {
      if (!map.has(name)) {
        map.set(name, i);
      }
    });
    index.byOriginal = map;
  }
  const i = index.byOriginal.get(originalName);
  return i === undefined ? null : classAt(index, i).sourceFile;
}

function classAt(index: MappingIndex, i: number): ClassMapping {
  let parsed = index.parsed[i];
  if (parsed === undefined) {
    parsed = parseClassBody(
      index.text,
      index.bodyStart[i] as number,
      index.bodyEnd[i] as number,
      index.obfuscated[i] as string,
      index.original[i] as string,
      index.versionRank[i] as number,
      (index.headerLine[i] as number) + 1,
    );
    index.parsed[i] = parsed;
  }
  return parsed;
}

interface ScanResult {
  header: MappingHeader;
  obfuscated: string[];
  original: string[];
  bodyStart: Uint32Array;
  bodyEnd: Uint32Array;
  headerLine: Uint32Array;
  versionRank: Uint16Array;
  byObfuscated: Map<string, number>;
}

const SPACE = 32;
const TAB = 9;
const HASH = 35;
const CR = 13;

function scanMapping(text: string): ScanResult {
  const header: MappingHeader = {
    mapId: null,
    mapHash: null,
    compiler: null,
    compilerVersion: null,
    minApi: null,
    mapVersion: null,
  };
  const obfuscated: string[] = [];
  const original: string[] = [];
  let starts: Uint32Array<ArrayBuffer> = new Uint32Array(1024);
  let ends: Uint32Array<ArrayBuffer> = new Uint32Array(1024);
  let lines: Uint32Array<ArrayBuffer> = new Uint32Array(1024);
  let ranks: Uint16Array<ArrayBuffer> = new Uint16Array(1024);
  const byObfuscated = new Map<string, number>();
  let rank = 0;
  let lineNo = 0;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  while (pos < n) {
    lineNo++;
    let eol = text.indexOf('\n', pos);
    if (eol < 0) {
      eol = n;
    }
    let end = eol;
    if (end > pos && text.charCodeAt(end - 1) === CR) {
      end--;
    }
    const c = text.charCodeAt(pos);
    if (c === SPACE || c === TAB) {
      // A member line (or an indented comment): only make sure it is not garbage.
      const arrow = text.indexOf('->', pos);
      if (arrow < 0 || arrow >= end) {
        checkIndentedNonMember(text, pos, end, lineNo);
      }
    } else if (c === HASH) {
      const seenClass = obfuscated.length > 0;
      const body = text.slice(pos + 1, end).trim();
      if (body.startsWith('{')) {
        const version = mapVersionOf(body);
        if (version !== undefined) {
          rank = mapVersionRank(version);
          if (header.mapVersion === null) {
            header.mapVersion = version;
          }
        }
      } else if (!seenClass) {
        readHeaderComment(body, header);
      }
    } else if (end > pos) {
      const k = obfuscated.length;
      if (k > 0) {
        ends[k - 1] = pos;
      }
      const [orig, obf] = parseClassHeader(text, pos, end, lineNo);
      if (k === starts.length) {
        starts = grow(starts);
        ends = grow(ends);
        lines = grow(lines);
        ranks = grow16(ranks);
      }
      obfuscated.push(obf);
      original.push(orig);
      starts[k] = eol + 1 > n ? n : eol + 1;
      lines[k] = lineNo;
      ranks[k] = rank;
      if (!byObfuscated.has(obf)) {
        byObfuscated.set(obf, k);
      }
    }
    pos = eol + 1;
  }
  const count = obfuscated.length;
  if (count > 0) {
    ends[count - 1] = n;
  }
  return {
    header,
    obfuscated,
    original,
    bodyStart: starts.slice(0, count),
    bodyEnd: ends.slice(0, count),
    headerLine: lines.slice(0, count),
    versionRank: ranks.slice(0, count),
    byObfuscated,
  };
}

function grow(a: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(a.length * 2);
  b.set(a);
  return b;
}

function grow16(a: Uint16Array<ArrayBuffer>): Uint16Array<ArrayBuffer> {
  const b = new Uint16Array(a.length * 2);
  b.set(a);
  return b;
}

/** An indented line without `->` must be blank or a comment. */
function checkIndentedNonMember(text: string, pos: number, end: number, lineNo: number): void {
  for (let i = pos; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === TAB || c === CR) {
      continue;
    }
    if (c === HASH) {
      return;
    }
    throw new MappingError(
      `expected a member mapping ('… -> name') but found '${clip(text.slice(pos, end))}'`,
      lineNo,
    );
  }
}

function parseClassHeader(text: string, pos: number, end: number, lineNo: number): [string, string] {
  const line = text.slice(pos, end);
  const arrow = line.indexOf('->');
  const colon = arrow < 0 ? -1 : line.indexOf(':', arrow);
  if (arrow <= 0 || colon < 0) {
    throw new MappingError(
      `expected a class mapping ('original -> obfuscated:') but found '${clip(line)}'`,
      lineNo,
    );
  }
  const orig = line.slice(0, arrow).trim();
  const obf = line.slice(arrow + 2, colon).trim();
  const tail = line.slice(colon + 1).trim();
  if (orig === '' || obf === '' || !isName(orig) || !isName(obf) || (tail !== '' && !tail.startsWith('#'))) {
    throw new MappingError(`malformed class mapping '${clip(line)}'`, lineNo);
  }
  return [orig, obf];
}

function isName(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= SPACE || c === 0x7f || c === 0x3a /* : */ || c === 0x28 /* ( */ || c === 0x29 /* ) */) {
      return false;
    }
  }
  return true;
}

function clip(s: string): string {
  const printable = s.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 80 ? printable.slice(0, 77) + '...' : printable;
}

function mapVersionOf(json: string): string | undefined {
  if (!json.includes('com.android.tools.r8.mapping')) {
    return undefined;
  }
  const value = parseLenientJson(json);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return undefined;
  }
  if (value['id'] !== 'com.android.tools.r8.mapping') {
    return undefined;
  }
  const version = value['version'];
  return typeof version === 'string' ? version : undefined;
}

const HEADER_KEYS: Record<string, keyof MappingHeader> = {
  pg_map_id: 'mapId',
  pg_map_hash: 'mapHash',
  compiler: 'compiler',
  compiler_version: 'compilerVersion',
  min_api: 'minApi',
};

function readHeaderComment(body: string, header: MappingHeader): void {
  const colon = body.indexOf(':');
  if (colon <= 0) {
    return;
  }
  const key = HEADER_KEYS[body.slice(0, colon).trim()];
  if (key !== undefined && header[key] === null) {
    header[key] = body.slice(colon + 1).trim();
  }
}
