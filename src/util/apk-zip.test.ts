import { describe, expect, it } from 'vitest';
import { ApkFormatError, crc32, readZipEntries, readZipEntryData, writeZip } from './apk-zip.js';

describe('apk zip', () => {
  it('computes the standard CRC-32 check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('round-trips stored and deflated entries through the central directory', () => {
    const big = 'droidbus '.repeat(1000);
    const zip = writeZip([
      { name: 'a.txt', data: big },
      { name: 'dir/b.bin', data: new Uint8Array([1, 2, 3]), method: 'store' },
      { name: 'ünïcode.txt', data: 'x', method: 'deflate' },
    ]);
    const entries = readZipEntries(zip);
    expect(entries.map((e) => [e.name, e.method])).toEqual([
      ['a.txt', 8],
      ['dir/b.bin', 0],
      ['ünïcode.txt', 8],
    ]);
    expect(new TextDecoder().decode(readZipEntryData(zip, entries[0]!))).toBe(big);
    expect([...readZipEntryData(zip, entries[1]!)]).toEqual([1, 2, 3]);
  });

  it('aligns stored data on 4 bytes as zipalign does', () => {
    for (const name of ['a', 'ab', 'abc', 'abcd']) {
      const zip = writeZip([
        { name, data: 'x', method: 'deflate' },
        { name: `${name}/stored`, data: new Uint8Array(5), method: 'store' },
      ]);
      const entry = readZipEntries(zip)[1]!;
      const dv = new DataView(zip.buffer);
      const dataStart =
        entry.localHeaderOffset +
        30 +
        dv.getUint16(entry.localHeaderOffset + 26, true) +
        dv.getUint16(entry.localHeaderOffset + 28, true);
      expect(dataStart % 4).toBe(0);
    }
  });

  it('refuses a corrupted entry by its CRC', () => {
    const zip = writeZip([{ name: 'a', data: 'hello', method: 'store' }]);
    const at = zip.indexOf('h'.charCodeAt(0), 30);
    zip[at] = 'j'.charCodeAt(0);
    expect(() => readZipEntryData(zip, readZipEntries(zip)[0]!)).toThrow(/CRC-32/);
  });

  it('refuses bytes that are not a zip archive with a clear error', () => {
    expect(() => readZipEntries(new Uint8Array(10))).toThrow(ApkFormatError);
    expect(() => readZipEntries(new Uint8Array(1000))).toThrow(/no end of central directory/);
  });

  it('refuses an entry that claims more bytes than the limit before inflating it', () => {
    const zip = writeZip([{ name: 'a', data: new Uint8Array(4096), method: 'deflate' }]);
    expect(() => readZipEntryData(zip, readZipEntries(zip)[0]!, 1024)).toThrow(/more than the 1024 allowed/);
  });
});
