import { describe, expect, it } from 'vitest';
import { decodeBinaryXml } from './apk-binary-xml-decode.js';
import { ANDROID_NS, encodeBinaryXml, type XmlElement } from './apk-binary-xml.js';
import { ApkFormatError } from './apk-zip.js';

const TREE: XmlElement = {
  name: 'manifest',
  attributes: [
    { name: 'package', value: 'com.example.ünï' },
    { ns: ANDROID_NS, name: 'versionCode', value: 2_000_000_001 },
    { ns: ANDROID_NS, name: 'versionName', value: 'x'.repeat(300) },
  ],
  children: [
    {
      name: 'application',
      attributes: [{ ns: ANDROID_NS, name: 'debuggable', value: false }],
      children: [],
    },
  ],
};

describe('binary xml', () => {
  for (const encoding of ['utf8', 'utf16'] as const) {
    it(`round-trips elements and typed attributes with a ${encoding} string pool`, () => {
      const root = decodeBinaryXml(encodeBinaryXml(TREE, { encoding }));
      expect(root.name).toBe('manifest');
      const byName = Object.fromEntries(root.attributes.map((a) => [a.name, a]));
      expect(byName['package']?.value).toBe('com.example.ünï');
      expect(byName['package']?.ns).toBeUndefined();
      expect(byName['versionCode']).toMatchObject({
        value: 2_000_000_001,
        resourceId: 0x0101021b,
        type: 0x10,
      });
      expect(byName['versionName']?.value).toBe('x'.repeat(300));
      expect(root.children[0]?.attributes[0]).toMatchObject({
        value: false,
        resourceId: 0x0101000f,
        ns: ANDROID_NS,
      });
    });
  }

  it('orders android attributes by resource id, as the framework expects', () => {
    const root = decodeBinaryXml(encodeBinaryXml(TREE));
    expect(root.attributes.map((a) => a.name)).toEqual(['versionCode', 'versionName', 'package']);
  });

  it('throws on a chunk whose size would not advance instead of looping', () => {
    const bytes = encodeBinaryXml(TREE);
    const dv = new DataView(bytes.buffer);
    const poolSize = dv.getUint32(8 + 4, true);
    dv.setUint32(8 + poolSize + 4, 0, true); // the resource map chunk now claims size 0
    expect(() => decodeBinaryXml(bytes)).toThrow(ApkFormatError);
  });

  it('throws on text XML', () => {
    expect(() => decodeBinaryXml(new TextEncoder().encode('<manifest/>'))).toThrow(/not Android binary XML/);
  });
});
