/**
 * Android's binary XML (the compiled AndroidManifest.xml inside an APK): the chunk format of AOSP's
 * ResourceTypes.h (ResChunk_header, ResStringPool, the resource map, ResXMLTree_node and its
 * namespace/element extensions, Res_value): the shared constants and types, and the encoder (the
 * simulator's and the tests' APKs). The decoder is apk-binary-xml-decode.ts.
 */
import { ApkFormatError } from './apk-zip.js';

export const ANDROID_NS = 'http://schemas.android.com/apk/res/android';

export const RES_STRING_POOL_TYPE = 0x0001;
export const RES_XML_TYPE = 0x0003;
const RES_XML_START_NAMESPACE_TYPE = 0x0100;
const RES_XML_END_NAMESPACE_TYPE = 0x0101;
export const RES_XML_START_ELEMENT_TYPE = 0x0102;
export const RES_XML_END_ELEMENT_TYPE = 0x0103;
export const RES_XML_CDATA_TYPE = 0x0104;
export const RES_XML_RESOURCE_MAP_TYPE = 0x0180;
export const UTF8_FLAG = 1 << 8;
export const NO_ENTRY = 0xffffffff;

/** Res_value data types used in manifests. */
export const ResType = {
  NULL: 0x00,
  REFERENCE: 0x01,
  STRING: 0x03,
  INT_DEC: 0x10,
  INT_HEX: 0x11,
  INT_BOOLEAN: 0x12,
} as const;

/** The android:* attribute resource ids (android.R.attr) a manifest uses (framework-res's public ids, `aapt dump resources`). */
export const ANDROID_ATTR: Readonly<Record<string, number>> = {
  theme: 0x01010000,
  label: 0x01010001,
  icon: 0x01010002,
  name: 0x01010003,
  debuggable: 0x0101000f,
  exported: 0x01010010,
  targetPackage: 0x01010021,
  handleProfiling: 0x01010022,
  functionalTest: 0x01010023,
  minSdkVersion: 0x0101020c,
  versionCode: 0x0101021b,
  versionName: 0x0101021c,
  targetSdkVersion: 0x01010270,
  allowBackup: 0x01010280,
  compileSdkVersion: 0x01010572,
  compileSdkVersionCodename: 0x01010573,
  networkSecurityConfig: 0x01010527,
};

export interface XmlAttribute {
  /** Namespace URI; absent for plain attributes such as `package`. */
  ns?: string;
  name: string;
  /**
   * Strings become TYPE_STRING, booleans TYPE_INT_BOOLEAN, numbers TYPE_INT_DEC (or INT_HEX by
   * `type`); with `type` REFERENCE and `data` set, a reference to resource `data` (`@raw/ca`).
   */
  value: string | number | boolean;
  /** android.R.attr id; looked up in ANDROID_ATTR for android: attributes when absent. */
  resourceId?: number;
  /** Res_value type and data as decoded (set by the decoder). */
  type?: number;
  data?: number;
}

export interface XmlElement {
  ns?: string;
  name: string;
  attributes: XmlAttribute[];
  children: XmlElement[];
  /** The element's text (a CDATA node before its children), as `<domain>api.example.com</domain>`. */
  text?: string;
}

export interface XmlNamespace {
  prefix: string;
  uri: string;
}

export interface BinaryXmlOptions {
  /** String pool encoding: aapt writes UTF-16, aapt2 UTF-8. Default utf16. */
  encoding?: 'utf8' | 'utf16';
  namespaces?: XmlNamespace[];
}

function resourceIdOf(attr: XmlAttribute): number | undefined {
  if (attr.resourceId !== undefined) {
    return attr.resourceId;
  }
  return attr.ns === ANDROID_NS ? ANDROID_ATTR[attr.name] : undefined;
}

/** A growing little-endian buffer (the chunks of binary XML and of resources.arsc). */
export class ByteWriter {
  private buf = new Uint8Array(1024);
  private dv = new DataView(this.buf.buffer);
  length = 0;

  private ensure(extra: number): void {
    if (this.length + extra <= this.buf.length) {
      return;
    }
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + extra));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.dv = new DataView(next.buffer);
  }
  u8(v: number): void {
    this.ensure(1);
    this.dv.setUint8(this.length, v);
    this.length += 1;
  }
  u16(v: number): void {
    this.ensure(2);
    this.dv.setUint16(this.length, v, true);
    this.length += 2;
  }
  u32(v: number): void {
    this.ensure(4);
    this.dv.setUint32(this.length, v >>> 0, true);
    this.length += 4;
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  setU32(at: number, v: number): void {
    this.dv.setUint32(at, v >>> 0, true);
  }
  pad4(): void {
    while (this.length % 4 !== 0) {
      this.u8(0);
    }
  }
  result(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/** A ResStringPool chunk of `strings`, UTF-8 (aapt2) or UTF-16 (aapt). */
export function encodeStringPool(strings: readonly string[], utf8: boolean): Uint8Array {
  const data = new ByteWriter();
  const offsets: number[] = [];
  for (const s of strings) {
    offsets.push(data.length);
    if (utf8) {
      const encoded = new TextEncoder().encode(s);
      writeLength8(data, s.length);
      writeLength8(data, encoded.length);
      data.bytes(encoded);
      data.u8(0);
    } else {
      if (s.length > 0x7fff) {
        data.u16(0x8000 | (s.length >>> 16));
        data.u16(s.length & 0xffff);
      } else {
        data.u16(s.length);
      }
      for (let i = 0; i < s.length; i++) {
        data.u16(s.charCodeAt(i));
      }
      data.u16(0);
    }
  }
  data.pad4();
  const headerSize = 28;
  const stringsStart = headerSize + 4 * strings.length;
  const out = new ByteWriter();
  out.u16(RES_STRING_POOL_TYPE);
  out.u16(headerSize);
  out.u32(stringsStart + data.length);
  out.u32(strings.length);
  out.u32(0);
  out.u32(utf8 ? UTF8_FLAG : 0);
  out.u32(strings.length > 0 ? stringsStart : 0);
  out.u32(0);
  for (const o of offsets) {
    out.u32(o);
  }
  out.bytes(data.result());
  return out.result();
}

function writeLength8(w: ByteWriter, n: number): void {
  if (n > 0x7fff) {
    throw new ApkFormatError(`string of length ${n} is too long for a UTF-8 string pool`);
  }
  if (n > 0x7f) {
    w.u8(0x80 | (n >>> 8));
  }
  w.u8(n & 0xff);
}

/** The attribute names that carry a resource id, in id order: the resource map covers them, first in the pool. */
function mappedAttributes(root: XmlElement): [string, number][] {
  const withIds = new Map<string, number>();
  const walk = (el: XmlElement): void => {
    for (const a of el.attributes) {
      const id = resourceIdOf(a);
      if (id !== undefined) {
        const known = withIds.get(a.name);
        if (known !== undefined && known !== id) {
          throw new ApkFormatError(`attribute '${a.name}' is given two resource ids`);
        }
        withIds.set(a.name, id);
      }
    }
    el.children.forEach(walk);
  };
  walk(root);
  return [...withIds.entries()].sort((x, y) => x[1] - y[1]);
}

/** The string pool as it is built: each string once, its index on first use. */
function stringRefs(first: string[]): { strings: string[]; ref: (s: string) => number } {
  const strings = [...first];
  const index = new Map<string, number>(strings.map((s, i) => [s, i]));
  const ref = (s: string): number => {
    let i = index.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      index.set(s, i);
    }
    return i;
  };
  return { strings, ref };
}

/** Attributes with resource ids first, in id order, then the rest by name (as aapt writes them). */
function attributeOrder(a: XmlAttribute, b: XmlAttribute): number {
  const ia = resourceIdOf(a);
  const ib = resourceIdOf(b);
  if (ia !== undefined && ib !== undefined) {
    return ia - ib;
  }
  if (ia !== undefined || ib !== undefined) {
    return ia !== undefined ? -1 : 1;
  }
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** One attribute: namespace, name, raw value, then its typed value. */
function writeAttribute(body: ByteWriter, a: XmlAttribute, ref: (s: string) => number): void {
  body.u32(a.ns === undefined ? NO_ENTRY : ref(a.ns));
  body.u32(ref(a.name));
  let type: number;
  let data: number;
  let raw = NO_ENTRY;
  if (a.type === ResType.REFERENCE && a.data !== undefined) {
    type = ResType.REFERENCE;
    data = a.data;
  } else if (typeof a.value === 'string') {
    type = ResType.STRING;
    data = ref(a.value);
    raw = data;
  } else if (typeof a.value === 'boolean') {
    type = ResType.INT_BOOLEAN;
    data = a.value ? 0xffffffff : 0;
  } else {
    if (!Number.isInteger(a.value) || a.value < -0x80000000 || a.value > 0xffffffff) {
      throw new ApkFormatError(`attribute '${a.name}' value ${a.value} is not a 32-bit integer`);
    }
    type = a.type === ResType.INT_HEX ? ResType.INT_HEX : ResType.INT_DEC;
    data = a.value;
  }
  body.u32(raw);
  body.u16(8);
  body.u8(0);
  body.u8(type);
  body.u32(data);
}

/** The tree's nodes: namespaces around the elements, each element with its sorted attributes. */
function writeTree(
  root: XmlElement,
  namespaces: readonly { prefix: string; uri: string }[],
  ref: (s: string) => number,
): ByteWriter {
  const body = new ByteWriter();
  let line = 1;
  const node = (type: number, size: number, lineNumber: number): void => {
    body.u16(type);
    body.u16(16);
    body.u32(size);
    body.u32(lineNumber);
    body.u32(NO_ENTRY);
  };
  for (const ns of namespaces) {
    node(RES_XML_START_NAMESPACE_TYPE, 24, line);
    body.u32(ref(ns.prefix));
    body.u32(ref(ns.uri));
  }
  const emit = (el: XmlElement): void => {
    line += 1;
    const attrs = [...el.attributes].sort(attributeOrder);
    node(RES_XML_START_ELEMENT_TYPE, 16 + 20 + 20 * attrs.length, line);
    body.u32(el.ns === undefined ? NO_ENTRY : ref(el.ns));
    body.u32(ref(el.name));
    for (const v of [20, 20, attrs.length, 0, 0, 0]) {
      body.u16(v);
    }
    for (const a of attrs) {
      writeAttribute(body, a, ref);
    }
    if (el.text !== undefined) {
      // ResXMLTree_cdataExt: the text's string, then its Res_value (aapt2 writes TYPE_NULL).
      node(RES_XML_CDATA_TYPE, 16 + 12, line);
      body.u32(ref(el.text));
      body.u16(8);
      body.u8(0);
      body.u8(ResType.NULL);
      body.u32(0);
    }
    el.children.forEach(emit);
    node(RES_XML_END_ELEMENT_TYPE, 24, line);
    body.u32(el.ns === undefined ? NO_ENTRY : ref(el.ns));
    body.u32(ref(el.name));
  };
  emit(root);
  for (const ns of [...namespaces].reverse()) {
    node(RES_XML_END_NAMESPACE_TYPE, 24, line);
    body.u32(ref(ns.prefix));
    body.u32(ref(ns.uri));
  }
  return body;
}

/** Encodes an element tree as Android binary XML. */
export function encodeBinaryXml(root: XmlElement, options: BinaryXmlOptions = {}): Uint8Array {
  const namespaces = options.namespaces ?? [{ prefix: 'android', uri: ANDROID_NS }];
  const mapped = mappedAttributes(root);
  const { strings, ref } = stringRefs(mapped.map(([name]) => name));
  for (const ns of namespaces) {
    ref(ns.prefix);
    ref(ns.uri);
  }
  const body = writeTree(root, namespaces, ref);
  const pool = encodeStringPool(strings, options.encoding === 'utf8');
  const out = new ByteWriter();
  out.u16(RES_XML_TYPE);
  out.u16(8);
  out.u32(0);
  out.bytes(pool);
  out.u16(RES_XML_RESOURCE_MAP_TYPE);
  out.u16(8);
  out.u32(8 + 4 * mapped.length);
  for (const [, id] of mapped) {
    out.u32(id);
  }
  out.bytes(body.result());
  out.setU32(4, out.length);
  return out.result();
}
