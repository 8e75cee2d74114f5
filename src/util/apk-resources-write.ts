/**
 * A resources.arsc for file resources (`res/xml/…`, `res/raw/…`), as `aapt2 link` lays it out for
 * an app's own package 0x7f: the table header, the value string pool of file paths, one package
 * with its type and key string pools, and per type a ResTable_typeSpec and one default-configuration
 * ResTable_type whose entries are TYPE_STRING paths (AOSP ResourceTypes.h; checked against
 * `aapt dump resources` in apk-resources-write.test.ts). The reader is apk-resources.ts.
 */
import { ByteWriter, encodeStringPool, ResType } from './apk-binary-xml.js';

const RES_TABLE_TYPE = 0x0002;
const RES_TABLE_PACKAGE_TYPE = 0x0200;
const RES_TABLE_TYPE_TYPE = 0x0201;
const RES_TABLE_TYPE_SPEC_TYPE = 0x0202;
const PACKAGE_HEADER_SIZE = 288;
/** ResTable_config as aapt2 writes it for the default configuration: 64 bytes, all zero after its size. */
const CONFIG_SIZE = 64;
const APP_PACKAGE_ID = 0x7f;

export interface FileResource {
  /** `xml`, `raw`. */
  type: string;
  /** The resource name (`network_security_config`). */
  name: string;
  /** Its file in the APK (`res/xml/network_security_config.xml`). */
  path: string;
}

export interface ResourceTableWrite {
  table: Uint8Array;
  /** `type/name` → resource id (0x7fTTEEEE). */
  ids: Map<string, number>;
}

/** Writes the table of an app's file resources; types are numbered in order of first appearance. */
export function encodeResourceTable(packageName: string, files: readonly FileResource[]): ResourceTableWrite {
  const types: { name: string; entries: FileResource[] }[] = [];
  for (const f of files) {
    const t = types.find((x) => x.name === f.type) ?? types[types.push({ name: f.type, entries: [] }) - 1]!;
    t.entries.push(f);
  }
  const paths = files.map((f) => f.path);
  const keys = files.map((f) => f.name);
  const ids = new Map<string, number>();
  const body = new ByteWriter();
  types.forEach((t, ti) => {
    const typeId = ti + 1;
    // ResTable_typeSpec: id, res0, types count, entry count, then each entry's config-change flags.
    body.u16(RES_TABLE_TYPE_SPEC_TYPE);
    body.u16(16);
    body.u32(16 + 4 * t.entries.length);
    body.u8(typeId);
    body.u8(0);
    body.u16(1);
    body.u32(t.entries.length);
    t.entries.forEach(() => body.u32(0));
    // ResTable_type: id, flags, reserved, entry count, entries start, config; offsets; entries.
    const headerSize = 20 + CONFIG_SIZE;
    const entriesStart = headerSize + 4 * t.entries.length;
    body.u16(RES_TABLE_TYPE_TYPE);
    body.u16(headerSize);
    body.u32(entriesStart + 16 * t.entries.length);
    body.u8(typeId);
    body.u8(0);
    body.u16(0);
    body.u32(t.entries.length);
    body.u32(entriesStart);
    body.u32(CONFIG_SIZE);
    for (let i = 4; i < CONFIG_SIZE; i += 4) {
      body.u32(0);
    }
    t.entries.forEach((_, i) => body.u32(16 * i));
    t.entries.forEach((f, i) => {
      body.u16(8); // ResTable_entry: size, flags, key
      body.u16(0);
      body.u32(keys.indexOf(f.name));
      body.u16(8); // Res_value: size, res0, type, data
      body.u8(0);
      body.u8(ResType.STRING);
      body.u32(paths.indexOf(f.path));
      ids.set(`${f.type}/${f.name}`, ((APP_PACKAGE_ID << 24) | (typeId << 16) | i) >>> 0);
    });
  });
  const typePool = encodeStringPool(
    types.map((t) => t.name),
    true,
  );
  const keyPool = encodeStringPool(keys, true);
  const pkg = new ByteWriter();
  pkg.u16(RES_TABLE_PACKAGE_TYPE);
  pkg.u16(PACKAGE_HEADER_SIZE);
  pkg.u32(PACKAGE_HEADER_SIZE + typePool.length + keyPool.length + body.length);
  pkg.u32(APP_PACKAGE_ID);
  for (let i = 0; i < 128; i++) {
    pkg.u16(i < packageName.length ? packageName.charCodeAt(i) : 0);
  }
  pkg.u32(PACKAGE_HEADER_SIZE); // typeStrings
  pkg.u32(types.length); // lastPublicType
  pkg.u32(PACKAGE_HEADER_SIZE + typePool.length); // keyStrings
  pkg.u32(keys.length); // lastPublicKey
  pkg.u32(0); // typeIdOffset
  pkg.bytes(typePool);
  pkg.bytes(keyPool);
  pkg.bytes(body.result());
  const valuePool = encodeStringPool(paths, true);
  const out = new ByteWriter();
  out.u16(RES_TABLE_TYPE);
  out.u16(12);
  out.u32(12 + valuePool.length + pkg.length);
  out.u32(1);
  out.bytes(valuePool);
  out.bytes(pkg.result());
  return { table: out.result(), ids };
}
