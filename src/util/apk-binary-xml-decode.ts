/**
 * Android's binary XML decoder (the compiled AndroidManifest.xml of an APK; the chunk format of
 * AOSP's ResourceTypes.h, constants and types in apk-binary-xml.ts). It checks every size and
 * offset, so malformed input throws instead of looping or reading out of bounds.
 */
import { ApkFormatError } from './apk-zip.js';
import {
  RES_STRING_POOL_TYPE,
  RES_XML_TYPE,
  RES_XML_START_ELEMENT_TYPE,
  RES_XML_END_ELEMENT_TYPE,
  RES_XML_CDATA_TYPE,
  RES_XML_RESOURCE_MAP_TYPE,
  UTF8_FLAG,
  NO_ENTRY,
  ResType,
} from './apk-binary-xml.js';
import type { XmlAttribute, XmlElement } from './apk-binary-xml.js';

export class StringPool {
  constructor(
    private readonly bytes: Uint8Array,
    private readonly dv: DataView,
    private readonly offsets: Uint32Array,
    private readonly stringsStart: number,
    private readonly end: number,
    private readonly utf8: boolean,
  ) {}

  get count(): number {
    return this.offsets.length;
  }

  get(i: number): string {
    if (i >= this.offsets.length) {
      throw new ApkFormatError(`string index ${i} is outside the pool of ${this.offsets.length}`);
    }
    let at = this.stringsStart + this.offsets[i]!;
    const need = (n: number): void => {
      if (at + n > this.end) {
        throw new ApkFormatError(`string ${i} runs past the end of its pool`);
      }
    };
    if (this.utf8) {
      const readLen = (): number => {
        need(1);
        let n = this.dv.getUint8(at++);
        if (n & 0x80) {
          need(1);
          n = ((n & 0x7f) << 8) | this.dv.getUint8(at++);
        }
        return n;
      };
      readLen();
      const byteLength = readLen();
      need(byteLength);
      return new TextDecoder('utf-8').decode(this.bytes.subarray(at, at + byteLength));
    }
    need(2);
    let n = this.dv.getUint16(at, true);
    at += 2;
    if (n & 0x8000) {
      need(2);
      n = ((n & 0x7fff) << 16) | this.dv.getUint16(at, true);
      at += 2;
    }
    need(2 * n);
    let s = '';
    for (let k = 0; k < n; k++) {
      s += String.fromCharCode(this.dv.getUint16(at + 2 * k, true));
    }
    return s;
  }
}

export function parseStringPool(bytes: Uint8Array, dv: DataView, start: number, size: number): StringPool {
  const headerSize = dv.getUint16(start + 2, true);
  if (headerSize < 28) {
    throw new ApkFormatError(`string pool header of ${headerSize} bytes is too small`);
  }
  const count = dv.getUint32(start + 8, true);
  const flags = dv.getUint32(start + 16, true);
  const stringsStart = dv.getUint32(start + 20, true);
  if (headerSize + 4 * count > size || (count > 0 && stringsStart > size)) {
    throw new ApkFormatError(`string pool of ${count} strings does not fit its ${size}-byte chunk`);
  }
  const offsets = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    offsets[i] = dv.getUint32(start + headerSize + 4 * i, true);
  }
  return new StringPool(bytes, dv, offsets, start + stringsStart, start + size, (flags & UTF8_FLAG) !== 0);
}

/** Decodes Android binary XML into its root element. Throws ApkFormatError. */
export function decodeBinaryXml(bytes: Uint8Array): XmlElement {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 8 || dv.getUint16(0, true) !== RES_XML_TYPE) {
    throw new ApkFormatError('not Android binary XML: the file does not start with an XML chunk');
  }
  const total = Math.min(dv.getUint32(4, true), bytes.length);
  let pool: StringPool | undefined;
  let resourceIds = new Uint32Array(0);
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let at = dv.getUint16(2, true);
  const str = (i: number): string | undefined => (i === NO_ENTRY ? undefined : requirePool().get(i));
  const requirePool = (): StringPool => {
    if (!pool) {
      throw new ApkFormatError('binary XML element appears before its string pool');
    }
    return pool;
  };
  while (at + 8 <= total) {
    const type = dv.getUint16(at, true);
    const headerSize = dv.getUint16(at + 2, true);
    const size = dv.getUint32(at + 4, true);
    if (headerSize < 8 || size < headerSize || at + size > total) {
      throw new ApkFormatError(
        `binary XML chunk 0x${type.toString(16)} at offset ${at} has a bad size (${size})`,
      );
    }
    switch (type) {
      case RES_STRING_POOL_TYPE:
        pool = parseStringPool(bytes, dv, at, size);
        break;
      case RES_XML_RESOURCE_MAP_TYPE:
        resourceIds = new Uint32Array(Math.floor((size - headerSize) / 4));
        for (let i = 0; i < resourceIds.length; i++) {
          resourceIds[i] = dv.getUint32(at + headerSize + 4 * i, true);
        }
        break;
      case RES_XML_START_ELEMENT_TYPE: {
        const ext = at + headerSize;
        if (ext + 20 > at + size) {
          throw new ApkFormatError(`start element at offset ${at} is truncated`);
        }
        const ns = str(dv.getUint32(ext, true));
        const name = str(dv.getUint32(ext + 4, true)) ?? '';
        const attrStart = dv.getUint16(ext + 8, true);
        const attrSize = dv.getUint16(ext + 10, true);
        const attrCount = dv.getUint16(ext + 12, true);
        if (attrSize < 20 || ext + attrStart + attrSize * attrCount > at + size) {
          throw new ApkFormatError(`attributes of <${name}> at offset ${at} do not fit their chunk`);
        }
        const el: XmlElement = { name, attributes: [], children: [] };
        if (ns !== undefined) {
          el.ns = ns;
        }
        for (let k = 0; k < attrCount; k++) {
          const a = ext + attrStart + k * attrSize;
          const nameIndex = dv.getUint32(a + 4, true);
          const rawIndex = dv.getUint32(a + 8, true);
          const valueType = dv.getUint8(a + 15);
          const data = dv.getUint32(a + 16, true);
          const attr: XmlAttribute = {
            name: requirePool().get(nameIndex),
            value: typedValue(valueType, data, rawIndex, requirePool()),
            type: valueType,
            data,
          };
          const attrNs = str(dv.getUint32(a, true));
          if (attrNs !== undefined) {
            attr.ns = attrNs;
          }
          if (nameIndex < resourceIds.length) {
            attr.resourceId = resourceIds[nameIndex]!;
          }
          el.attributes.push(attr);
        }
        const parent = stack.at(-1);
        if (parent) {
          parent.children.push(el);
        } else if (root) {
          throw new ApkFormatError('binary XML has more than one root element');
        } else {
          root = el;
        }
        stack.push(el);
        break;
      }
      case RES_XML_END_ELEMENT_TYPE:
        if (!stack.pop()) {
          throw new ApkFormatError(`end element at offset ${at} closes nothing`);
        }
        break;
      case RES_XML_CDATA_TYPE: {
        const open = stack.at(-1);
        if (open && at + headerSize + 4 <= at + size) {
          const text = str(dv.getUint32(at + headerSize, true));
          if (text !== undefined) {
            open.text = (open.text ?? '') + text;
          }
        }
        break;
      }
      default:
        // Namespaces and unknown chunks carry nothing a reader here needs.
        break;
    }
    at += size;
  }
  if (!root) {
    throw new ApkFormatError('binary XML has no root element');
  }
  if (stack.length > 0) {
    throw new ApkFormatError(`binary XML ends inside <${stack.at(-1)!.name}>`);
  }
  return root;
}

function typedValue(
  type: number,
  data: number,
  rawIndex: number,
  pool: StringPool,
): string | number | boolean {
  switch (type) {
    case ResType.STRING:
      return pool.get(data);
    case ResType.INT_BOOLEAN:
      return data !== 0;
    case ResType.INT_DEC:
      return data | 0;
    case ResType.INT_HEX:
      return data >>> 0;
    case ResType.REFERENCE:
      return `@0x${data.toString(16).padStart(8, '0')}`;
    default:
      return rawIndex !== NO_ENTRY ? pool.get(rawIndex) : data;
  }
}
