/**
 * An installed app's label, read from its APK a few ranges at a time: the archive's end (end
 * record and, usually, the central directory), then AndroidManifest.xml and — when the label is a
 * resource — resources.arsc. An app with a 90 MB APK costs one manifest and one resource table, not
 * the APK. The reader is given; the device actor reads ranges with `tail -c` and `dd`.
 */
import { decodeBinaryXml } from './apk-binary-xml-decode.js';
import { ResType, type XmlElement } from './apk-binary-xml.js';
import { ResourceTable } from './apk-resources.js';
import {
  ApkFormatError,
  END_RECORD_SEARCH_BYTES,
  findEndRecord,
  parseCentralDirectory,
  readZipEntryData,
  type ZipEntry,
} from './apk-zip.js';

/** Reads bytes of one APK. */
export interface ApkRangeReader {
  /** The last END_RECORD_SEARCH_BYTES bytes (all of them when the file is shorter): where an end record can be. */
  tail(): Promise<Uint8Array>;
  /** `length` bytes from `offset` (fewer at the end of the file). */
  range(offset: number, length: number): Promise<Uint8Array>;
}

export interface ApkLabelLimits {
  /** The largest AndroidManifest.xml read. */
  maxManifestBytes: number;
  /** The largest resources.arsc read (compressed and inflated). */
  maxTableBytes: number;
}

export const DEFAULT_LABEL_LIMITS: ApkLabelLimits = {
  maxManifestBytes: 4 * 1024 * 1024,
  maxTableBytes: 48 * 1024 * 1024,
};

/** What a label read costs: the bytes it transferred. */
export interface ApkLabelRead {
  label: string | null;
  bytesRead: number;
}

/** Slack after an entry's data for a local header whose extra field is longer than the directory's. */
const LOCAL_EXTRA_SLACK = 1024;

/** The entries of one APK, each read when asked for; `bytesRead` counts what was transferred. */
export interface ApkEntries {
  /** The named entry's data, inflated; null when the archive has none. Throws past `max` bytes. */
  entry(name: string, max: number): Promise<Uint8Array | null>;
  readonly bytesRead: number;
}

/** Opens an APK through `read`: its end record and central directory now, entries when asked. */
export async function openApkEntries(read: ApkRangeReader): Promise<ApkEntries> {
  let bytesRead = 0;
  const counted = (b: Uint8Array): Uint8Array => {
    bytesRead += b.length;
    return b;
  };
  const tail = counted(await read.tail());
  const end = findEndRecord(tail);
  // In an APK the central directory ends where its end record starts (the v2 signing block, if
  // any, sits before the directory), so the tail's place in the file follows from the record.
  const tailStart = end.cdOffset + end.cdSize - end.at;
  const cd =
    end.cdOffset >= tailStart
      ? tail.subarray(end.cdOffset - tailStart, end.at)
      : counted(await read.range(end.cdOffset, end.cdSize));
  if (cd.length !== end.cdSize) {
    throw new ApkFormatError(`central directory is ${cd.length} bytes, its end record says ${end.cdSize}`);
  }
  const entries = parseCentralDirectory(cd, end.count);
  const entry = async (name: string, max: number): Promise<Uint8Array | null> => {
    const e = entries.find((x) => x.name === name);
    if (!e) {
      return null;
    }
    if (e.compressedSize > max || e.size > max) {
      throw new ApkFormatError(`'${name}' is ${e.size} bytes, more than the ${max} read of it`);
    }
    const nameBytes = new TextEncoder().encode(e.name).length;
    const want = 30 + nameBytes + e.compressedSize + LOCAL_EXTRA_SLACK;
    let bytes = counted(await read.range(e.localHeaderOffset, want));
    const local: ZipEntry = { ...e, localHeaderOffset: 0 };
    if (bytes.length >= 30) {
      const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const need = 30 + dv.getUint16(26, true) + dv.getUint16(28, true) + e.compressedSize;
      if (need > bytes.length && need > want) {
        bytes = counted(await read.range(e.localHeaderOffset, need));
      }
    }
    return readZipEntryData(bytes, local, max);
  };
  return {
    entry,
    get bytesRead() {
      return bytesRead;
    },
  };
}

/** The label an app shows, for `locale` (BCP 47); null when the app has none. Throws ApkFormatError. */
export async function readApkLabel(
  read: ApkRangeReader,
  locale: string,
  limits: ApkLabelLimits = DEFAULT_LABEL_LIMITS,
): Promise<ApkLabelRead> {
  const apk = await openApkEntries(read);
  const entry = apk.entry;
  const manifest = await entry('AndroidManifest.xml', limits.maxManifestBytes);
  if (!manifest) {
    throw new ApkFormatError('the archive has no AndroidManifest.xml');
  }
  const label = manifestLabel(decodeBinaryXml(manifest));
  if (label === null || typeof label === 'string') {
    return { label, bytesRead: apk.bytesRead };
  }
  const table = await entry('resources.arsc', limits.maxTableBytes);
  return { label: table ? new ResourceTable(table).string(label, locale) : null, bytesRead: apk.bytesRead };
}

/**
 * The manifest's label: the application's, else its launcher activity's (what the launcher
 * shows); a literal string, or the resource id it refers to; null when neither has one.
 */
export function manifestLabel(root: XmlElement): string | number | null {
  const application = root.children.find((c) => c.name === 'application');
  const labelOf = (el: XmlElement): string | number | null => {
    const a = el.attributes.find((x) => x.name === 'label' && x.resourceId === 0x01010001);
    if (!a) {
      return null;
    }
    if (a.type === ResType.REFERENCE && a.data !== undefined && a.data !== 0) {
      return a.data >>> 0;
    }
    return typeof a.value === 'string' && a.value !== '' ? a.value : null;
  };
  const own = application ? labelOf(application) : null;
  if (own !== null || !application) {
    return own;
  }
  const launcher = application.children.find(
    (c) =>
      (c.name === 'activity' || c.name === 'activity-alias') &&
      c.children.some(
        (f) =>
          f.name === 'intent-filter' &&
          f.children.some(
            (x) =>
              x.name === 'category' &&
              x.attributes.some((a) => a.value === 'android.intent.category.LAUNCHER'),
          ),
      ),
  );
  return launcher ? labelOf(launcher) : null;
}

/** A reader over an APK's bytes in memory (an APK on the host, a test). */
export function bytesReader(bytes: Uint8Array): ApkRangeReader {
  return {
    tail: async () => bytes.subarray(Math.max(0, bytes.length - END_RECORD_SEARCH_BYTES)),
    range: async (offset, length) => bytes.subarray(offset, offset + length),
  };
}
