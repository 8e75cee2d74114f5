import type { ClassMapping, MappingHeader } from './mapping-model.js';
import type { MappingIndex } from './mapping-index.js';

/**
 * The on-disk form of an index: the class table (names, body offsets), not the parsed members.
 * Members are parsed lazily from the mapping text, so loading a cached index still needs the text:
 * it saves the scan (about half of a cold build; reading and hashing the file is the other half).
 */
const MAGIC = 'droidbus-retrace-index/1\n';

interface CachedTable {
  sha256: string;
  bytes: number;
  header: MappingHeader;
  obfuscated: string[];
  original: string[];
}

/** Serializes the class table of an index. */
export function serializeIndex(index: MappingIndex): Buffer {
  const table: CachedTable = {
    sha256: index.sha256,
    bytes: index.bytes,
    header: index.header,
    obfuscated: [...index.obfuscated],
    original: [...index.original],
  };
  const json = Buffer.from(JSON.stringify(table), 'utf8');
  const count = index.obfuscated.length;
  const head = Buffer.alloc(8);
  head.writeUInt32LE(json.length, 0);
  head.writeUInt32LE(count, 4);
  return Buffer.concat([
    Buffer.from(MAGIC, 'utf8'),
    head,
    json,
    Buffer.from(index.bodyStart.buffer, index.bodyStart.byteOffset, count * 4),
    Buffer.from(index.bodyEnd.buffer, index.bodyEnd.byteOffset, count * 4),
    Buffer.from(index.headerLine.buffer, index.headerLine.byteOffset, count * 4),
    Buffer.from(index.versionRank.buffer, index.versionRank.byteOffset, count * 2),
  ]);
}

/**
 * Rebuilds an index from its serialized table and the mapping text. Returns null when the cache
 * does not belong to this mapping (another sha256) or is damaged, so the caller re-scans.
 */
export function deserializeIndex(data: Buffer, text: string, sha256: string): MappingIndex | null {
  try {
    const magic = Buffer.from(MAGIC, 'utf8');
    if (data.length < magic.length + 8 || !data.subarray(0, magic.length).equals(magic)) {
      return null;
    }
    let pos = magic.length;
    const jsonLength = data.readUInt32LE(pos);
    const count = data.readUInt32LE(pos + 4);
    pos += 8;
    const table = JSON.parse(data.subarray(pos, pos + jsonLength).toString('utf8')) as CachedTable;
    pos += jsonLength;
    if (table.sha256 !== sha256 || table.obfuscated.length !== count || table.original.length !== count) {
      return null;
    }
    if (data.length !== pos + count * 14) {
      return null;
    }
    const u32 = (offset: number): Uint32Array<ArrayBuffer> => {
      const out = new Uint32Array(count);
      Buffer.from(out.buffer).set(data.subarray(offset, offset + count * 4));
      return out;
    };
    const bodyStart = u32(pos);
    const bodyEnd = u32(pos + count * 4);
    const headerLine = u32(pos + count * 8);
    const versionRank = new Uint16Array(count);
    Buffer.from(versionRank.buffer).set(data.subarray(pos + count * 12, pos + count * 14));
    for (let i = 0; i < count; i++) {
      if ((bodyEnd[i] as number) > text.length || (bodyStart[i] as number) > (bodyEnd[i] as number)) {
        return null;
      }
    }
    const byObfuscated = new Map<string, number>();
    table.obfuscated.forEach((name, i) => {
      if (!byObfuscated.has(name)) {
        byObfuscated.set(name, i);
      }
    });
    return {
      text,
      sha256,
      bytes: table.bytes,
      header: table.header,
      obfuscated: table.obfuscated,
      original: table.original,
      bodyStart,
      bodyEnd,
      headerLine,
      versionRank,
      byObfuscated,
      byOriginal: null,
      parsed: new Array<ClassMapping | undefined>(count),
    };
  } catch {
    return null;
  }
}
