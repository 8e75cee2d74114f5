/**
 * An APK's compiled resource table (resources.arsc), read far enough to answer what a string
 * resource says in a locale — what an app's label needs. The chunk layout is AOSP's
 * ResourceTypes.h (ResTable_header, ResTable_package, ResTable_type and its entries, dense, sparse
 * (FLAG_SPARSE), 16-bit offsets (FLAG_OFFSET16) and compact entries (FLAG_COMPACT, Android 14's
 * aapt2)); every size and offset is checked, so malformed input throws ApkFormatError.
 */
import { ApkFormatError } from './apk-zip.js';
import { parseStringPool, type StringPool } from './apk-binary-xml-decode.js';
import { RES_STRING_POOL_TYPE, ResType } from './apk-binary-xml.js';

const RES_TABLE_TYPE = 0x0002;
const RES_TABLE_PACKAGE_TYPE = 0x0200;
const RES_TABLE_TYPE_TYPE = 0x0201;
const FLAG_SPARSE = 0x01;
const FLAG_OFFSET16 = 0x02;
const ENTRY_FLAG_COMPLEX = 0x0001;
const ENTRY_FLAG_COMPACT = 0x0008;
const NO_ENTRY32 = 0xffffffff;
const NO_ENTRY16 = 0xffff;
const TYPE_DYNAMIC_REFERENCE = 0x07;
/** How many references a lookup follows (a label may point at a string that points at another). */
const MAX_HOPS = 8;

/** One value of a resource in one configuration. */
interface ConfigValue {
  /** Lower-case ISO 639 language, '' for the default configuration. */
  language: string;
  /** Upper-case region, ''. */
  region: string;
  /** Whether the configuration has qualifiers other than the locale (density, night…). */
  otherQualifiers: boolean;
  type: number;
  data: number;
}

function chunkAt(dv: DataView, at: number, end: number): { type: number; headerSize: number; size: number } {
  if (at + 8 > end) {
    throw new ApkFormatError(`resource chunk at offset ${at} is truncated`);
  }
  const type = dv.getUint16(at, true);
  const headerSize = dv.getUint16(at + 2, true);
  const size = dv.getUint32(at + 4, true);
  if (headerSize < 8 || size < headerSize || at + size > end) {
    throw new ApkFormatError(
      `resource chunk 0x${type.toString(16)} at offset ${at} has a bad size (${size})`,
    );
  }
  return { type, headerSize, size };
}

/** The two-letter code of a ResTable_config language or region field; '' when unset or packed. */
function code(dv: DataView, at: number): string {
  const a = dv.getUint8(at);
  const b = dv.getUint8(at + 1);
  // A set high bit is the packed three-letter form; no label lookup needs to match one.
  return a === 0 || a & 0x80 ? '' : String.fromCharCode(a, b);
}

/** A resources.arsc, its type chunks found once; a lookup reads only the chunks of its type. */
export class ResourceTable {
  private readonly dv: DataView;
  private readonly pool: StringPool;
  /** `(package << 8) | type` → the offsets of that type's chunks (one per configuration). */
  private readonly chunks = new Map<number, number[]>();

  constructor(bytes: Uint8Array) {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.dv = dv;
    const table = chunkAt(dv, 0, bytes.length);
    if (table.type !== RES_TABLE_TYPE) {
      throw new ApkFormatError('not a resource table: the file does not start with a table chunk');
    }
    let pool: StringPool | undefined;
    for (let at = table.headerSize; at + 8 <= table.size;) {
      const c = chunkAt(dv, at, table.size);
      if (c.type === RES_STRING_POOL_TYPE && pool === undefined) {
        pool = parseStringPool(bytes, dv, at, c.size);
      } else if (c.type === RES_TABLE_PACKAGE_TYPE) {
        this.findTypes(at, c.headerSize, c.size);
      }
      at += c.size;
    }
    if (!pool) {
      throw new ApkFormatError('resource table has no value string pool');
    }
    this.pool = pool;
  }

  private findTypes(start: number, headerSize: number, size: number): void {
    const dv = this.dv;
    if (headerSize < 12) {
      throw new ApkFormatError(`package chunk at offset ${start} has a ${headerSize}-byte header`);
    }
    const packageId = dv.getUint32(start + 8, true) & 0xff;
    const end = start + size;
    for (let at = start + headerSize; at + 8 <= end;) {
      const c = chunkAt(dv, at, end);
      if (c.type === RES_TABLE_TYPE_TYPE) {
        if (c.headerSize < 24) {
          throw new ApkFormatError(`type chunk at offset ${at} has a ${c.headerSize}-byte header`);
        }
        const key = (packageId << 8) | dv.getUint8(at + 8);
        const list = this.chunks.get(key) ?? [];
        list.push(at);
        this.chunks.set(key, list);
      }
      at += c.size;
    }
  }

  /** The values entry `entryId` has in each configuration of its type. */
  private valuesOf(id: number): ConfigValue[] {
    const dv = this.dv;
    const entryId = id & 0xffff;
    const out: ConfigValue[] = [];
    for (const start of this.chunks.get(id >>> 16) ?? []) {
      const headerSize = dv.getUint16(start + 2, true);
      const end = start + dv.getUint32(start + 4, true);
      const flags = dv.getUint8(start + 9);
      const entryCount = dv.getUint32(start + 12, true);
      const entriesStart = start + dv.getUint32(start + 16, true);
      const config = start + 20;
      const configSize = dv.getUint32(config, true);
      if (configSize < 12 || config + configSize > start + headerSize) {
        throw new ApkFormatError(`type chunk at offset ${start} has a config of ${configSize} bytes`);
      }
      const offsets = start + headerSize;
      const sparse = (flags & FLAG_SPARSE) !== 0;
      const width = sparse ? 4 : flags & FLAG_OFFSET16 ? 2 : 4;
      if (offsets + entryCount * width > end || entriesStart > end) {
        throw new ApkFormatError(`entries of type chunk at offset ${start} do not fit it`);
      }
      let offset: number | null = null;
      if (sparse) {
        // ResTable_sparseTypeEntry {index, offset / 4}, sorted by index.
        for (let i = 0; i < entryCount; i++) {
          if (dv.getUint16(offsets + 4 * i, true) === entryId) {
            offset = dv.getUint16(offsets + 4 * i + 2, true) * 4;
            break;
          }
        }
      } else if (entryId < entryCount) {
        const o =
          width === 2 ? dv.getUint16(offsets + 2 * entryId, true) : dv.getUint32(offsets + 4 * entryId, true);
        offset = width === 2 ? (o === NO_ENTRY16 ? null : o * 4) : o === NO_ENTRY32 ? null : o;
      }
      const value = offset === null ? null : this.readEntry(entriesStart + offset, end);
      if (value === null) {
        continue;
      }
      let otherQualifiers = dv.getUint32(config + 4, true) !== 0; // mcc, mnc
      for (let b = config + 12; b < config + configSize && !otherQualifiers; b++) {
        otherQualifiers = dv.getUint8(b) !== 0;
      }
      out.push({
        language: code(dv, config + 8).toLowerCase(),
        region: code(dv, config + 10).toUpperCase(),
        otherQualifiers,
        ...value,
      });
    }
    return out;
  }

  /** A simple entry's Res_value (type, data); null for a bag (style, plurals, array). */
  private readEntry(at: number, end: number): { type: number; data: number } | null {
    const dv = this.dv;
    if (at + 8 > end) {
      throw new ApkFormatError(`resource entry at offset ${at} runs past its type chunk`);
    }
    const flags = dv.getUint16(at + 2, true);
    if (flags & ENTRY_FLAG_COMPACT) {
      // ResTable_entry compact form: key index (16 bits), flags with the data type in the high byte, data.
      return { type: flags >>> 8, data: dv.getUint32(at + 4, true) };
    }
    if (flags & ENTRY_FLAG_COMPLEX) {
      return null;
    }
    const value = at + dv.getUint16(at, true);
    if (value + 8 > end) {
      throw new ApkFormatError(`resource value at offset ${value} runs past its type chunk`);
    }
    return { type: dv.getUint8(value + 3), data: dv.getUint32(value + 4, true) };
  }

  /**
   * What string resource `id` says for a BCP 47 locale (`de-DE`, `pt-BR`, `zh-Hans-CN`), chosen as
   * the framework's resolver would among locale-only configurations: language and region, then
   * the language alone, then the default; references followed. Null when the id is not a string.
   */
  string(id: number, locale = ''): string | null {
    const [lang = '', ...rest] = locale.split(/[-_]/);
    const language = lang.toLowerCase();
    const region = (rest.find((p) => /^[A-Za-z]{2}$/.test(p)) ?? '').toUpperCase();
    let current = id >>> 0;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const candidates = this.valuesOf(current);
      if (candidates.length === 0) {
        return null;
      }
      const rank = (v: ConfigValue): number =>
        (v.language === ''
          ? 1
          : v.language === language
            ? v.region === region
              ? 4
              : v.region === ''
                ? 3
                : 2
            : 0) *
          2 +
        (v.otherQualifiers ? 0 : 1);
      let best: ConfigValue | undefined;
      for (const v of candidates) {
        if (rank(v) >= 2 && (best === undefined || rank(v) > rank(best))) {
          best = v;
        }
      }
      best ??= candidates[0]!;
      if (best.type === ResType.STRING) {
        return this.pool.get(best.data);
      }
      if (best.type !== ResType.REFERENCE && best.type !== TYPE_DYNAMIC_REFERENCE) {
        return null;
      }
      current = best.data >>> 0;
    }
    return null;
  }
}
