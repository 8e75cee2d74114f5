/**
 * The zip container of an APK: a writer (stored and deflated entries, 4-byte aligned stored data as
 * zipalign leaves it) and a reader that trusts only the central directory and checks every offset.
 * Zip64 and multi-disk archives are refused: an APK never needs them at the sizes droidbus handles.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** An archive the reader cannot use; the message says what is wrong and where. */
export class ApkFormatError extends Error {
  override readonly name = 'ApkFormatError';
}

export interface ZipEntryInput {
  /** Path inside the archive, `/`-separated. */
  name: string;
  data: Uint8Array | string;
  /** Default: deflate, unless the data does not shrink (then stored, as zip tools do). */
  method?: 'store' | 'deflate';
}

/** One central-directory record. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
/** DOS time of 1981-01-01 00:00, the fixed stamp reproducible APK builds use. */
const DOS_TIME = 0;
const DOS_DATE = ((1981 - 1980) << 9) | (1 << 5) | 1;
const FLAG_UTF8 = 1 << 11;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) {
      c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE, as zip uses it). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) {
    c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

function toBytes(data: Uint8Array | string): Uint8Array {
  return typeof data === 'string' ? new TextEncoder().encode(data) : data;
}

/** Writes a zip archive. Names must be unique; order is kept. */
export function writeZip(entries: readonly ZipEntryInput[]): Uint8Array {
  const seen = new Set<string>();
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    if (entry.name === '' || entry.name.startsWith('/') || seen.has(entry.name)) {
      throw new ApkFormatError(`zip entry name '${entry.name}' is empty, absolute or repeated`);
    }
    seen.add(entry.name);
    const name = new TextEncoder().encode(entry.name);
    const data = toBytes(entry.data);
    const crc = crc32(data);
    let method = 0;
    let stored = data;
    if (entry.method !== 'store') {
      const deflated = deflateRawSync(data, { level: 9 });
      if (entry.method === 'deflate' || deflated.length < data.length) {
        method = 8;
        stored = deflated;
      }
    }
    // zipalign: stored data starts on a 4-byte boundary, padded through the extra field.
    const headerEnd = offset + 30 + name.length;
    const extraLength = method === 0 ? (4 - (headerEnd % 4)) % 4 : 0;
    const local = new Uint8Array(30 + name.length + extraLength);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, SIG_LOCAL, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(6, FLAG_UTF8, true);
    lv.setUint16(8, method, true);
    lv.setUint16(10, DOS_TIME, true);
    lv.setUint16(12, DOS_DATE, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, stored.length, true);
    lv.setUint32(22, data.length, true);
    lv.setUint16(26, name.length, true);
    lv.setUint16(28, extraLength, true);
    local.set(name, 30);

    const record = new Uint8Array(46 + name.length);
    const cv = new DataView(record.buffer);
    cv.setUint32(0, SIG_CENTRAL, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(8, FLAG_UTF8, true);
    cv.setUint16(10, method, true);
    cv.setUint16(12, DOS_TIME, true);
    cv.setUint16(14, DOS_DATE, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, stored.length, true);
    cv.setUint32(24, data.length, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    record.set(name, 46);

    parts.push(local, stored);
    central.push(record);
    offset += local.length + stored.length;
  }
  const centralSize = central.reduce((n, r) => n + r.length, 0);
  const end = new Uint8Array(EOCD_SIZE);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, SIG_END, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, centralSize, true);
  ev.setUint32(16, offset, true);
  return concat([...parts, ...central, end]);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Where an archive's end record puts its central directory. */
export interface EndRecord {
  /** Offset of the end record in the bytes searched. */
  at: number;
  cdOffset: number;
  cdSize: number;
  count: number;
}

/**
 * Finds the end of central directory record in `bytes`, which end where the archive ends (the whole
 * archive, or its last bytes). Throws ApkFormatError.
 */
export function findEndRecord(bytes: Uint8Array): EndRecord {
  if (bytes.length < EOCD_SIZE) {
    throw new ApkFormatError(`not a zip archive: ${bytes.length} bytes is shorter than an end record`);
  }
  const dv = view(bytes);
  let eocd = -1;
  const lowest = Math.max(0, bytes.length - EOCD_SIZE - MAX_COMMENT);
  for (let i = bytes.length - EOCD_SIZE; i >= lowest; i--) {
    if (dv.getUint32(i, true) === SIG_END && i + EOCD_SIZE + dv.getUint16(i + 20, true) === bytes.length) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) {
    throw new ApkFormatError('not a zip archive: no end of central directory record');
  }
  const diskEntries = dv.getUint16(eocd + 8, true);
  const count = dv.getUint16(eocd + 10, true);
  const cdSize = dv.getUint32(eocd + 12, true);
  const cdOffset = dv.getUint32(eocd + 16, true);
  if (dv.getUint16(eocd + 4, true) !== 0 || diskEntries !== count) {
    throw new ApkFormatError('multi-disk zip archives are not supported');
  }
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    throw new ApkFormatError('zip64 archives are not supported');
  }
  return { at: eocd, cdOffset, cdSize, count };
}

/** The longest an end record and its comment can be: how much of an archive's end to read to find it. */
export const END_RECORD_SEARCH_BYTES = EOCD_SIZE + MAX_COMMENT;

/** Lists the archive's entries from its central directory. Throws ApkFormatError. */
export function readZipEntries(bytes: Uint8Array): ZipEntry[] {
  const end = findEndRecord(bytes);
  if (end.cdOffset + end.cdSize > end.at) {
    throw new ApkFormatError(
      `central directory (offset ${end.cdOffset}, ${end.cdSize} bytes) runs past its end record`,
    );
  }
  return parseCentralDirectory(bytes.subarray(end.cdOffset, end.cdOffset + end.cdSize), end.count);
}

/** The records of a central directory (`cd`: exactly its bytes). Throws ApkFormatError. */
export function parseCentralDirectory(cd: Uint8Array, count: number): ZipEntry[] {
  const dv = view(cd);
  const entries: ZipEntry[] = [];
  let at = 0;
  const decoder = new TextDecoder('utf-8', { fatal: false });
  for (let i = 0; i < count; i++) {
    if (at + 46 > cd.length || dv.getUint32(at, true) !== SIG_CENTRAL) {
      throw new ApkFormatError(`central directory record ${i} at offset ${at} is missing or truncated`);
    }
    const nameLength = dv.getUint16(at + 28, true);
    const extraLength = dv.getUint16(at + 30, true);
    const commentLength = dv.getUint16(at + 32, true);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > cd.length) {
      throw new ApkFormatError(`central directory record ${i} runs past the directory`);
    }
    const entry: ZipEntry = {
      name: decoder.decode(cd.subarray(at + 46, at + 46 + nameLength)),
      method: dv.getUint16(at + 10, true),
      crc32: dv.getUint32(at + 16, true),
      compressedSize: dv.getUint32(at + 20, true),
      size: dv.getUint32(at + 24, true),
      localHeaderOffset: dv.getUint32(at + 42, true),
    };
    if (
      entry.compressedSize === 0xffffffff ||
      entry.size === 0xffffffff ||
      entry.localHeaderOffset === 0xffffffff
    ) {
      throw new ApkFormatError(`zip64 entry '${entry.name}' is not supported`);
    }
    entries.push(entry);
    at = next;
  }
  return entries;
}

/** Default bound on one entry's uncompressed size, so a zip bomb cannot exhaust memory. */
const DEFAULT_MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/** Reads and checks (size, CRC) one entry's bytes. Throws ApkFormatError. */
export function readZipEntryData(
  bytes: Uint8Array,
  entry: ZipEntry,
  maxBytes: number = DEFAULT_MAX_ENTRY_BYTES,
): Uint8Array {
  const dv = view(bytes);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || dv.getUint32(at, true) !== SIG_LOCAL) {
    throw new ApkFormatError(`local header of '${entry.name}' at offset ${at} is missing`);
  }
  const dataStart = at + 30 + dv.getUint16(at + 26, true) + dv.getUint16(at + 28, true);
  const dataEnd = dataStart + entry.compressedSize;
  if (dataEnd > bytes.length) {
    throw new ApkFormatError(`data of '${entry.name}' runs past the end of the archive`);
  }
  if (entry.size > maxBytes) {
    throw new ApkFormatError(`'${entry.name}' is ${entry.size} bytes, more than the ${maxBytes} allowed`);
  }
  const raw = bytes.subarray(dataStart, dataEnd);
  let data: Uint8Array;
  if (entry.method === 0) {
    data = raw;
  } else if (entry.method === 8) {
    try {
      data = inflateRawSync(raw, { maxOutputLength: Math.max(entry.size, 1) });
    } catch (err) {
      throw new ApkFormatError(`'${entry.name}' does not inflate: ${(err as Error).message}`);
    }
  } else {
    throw new ApkFormatError(
      `'${entry.name}' uses compression method ${entry.method}; only stored and deflate are supported`,
    );
  }
  if (data.length !== entry.size) {
    throw new ApkFormatError(
      `'${entry.name}' is ${data.length} bytes, its directory record says ${entry.size}`,
    );
  }
  if (crc32(data) !== entry.crc32) {
    throw new ApkFormatError(`'${entry.name}' fails its CRC-32 check`);
  }
  return data;
}
