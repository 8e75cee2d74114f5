import { describe, expect, it } from 'vitest';
import { A_CNXN, A_WRTE, HEADER_SIZE, PacketDecoder, encodeHeader } from './packet.js';

function packet(command: number, arg0: number, arg1: number, payload: Buffer): Buffer {
  return Buffer.concat([encodeHeader(command, arg0, arg1, payload.length), payload]);
}

describe('PacketDecoder', () => {
  it('reassembles packets however the byte stream is cut', () => {
    const big = Buffer.alloc(70_000, 7);
    const wire = Buffer.concat([
      packet(A_CNXN, 0x01000001, 1 << 20, Buffer.from('host::features=shell_v2\0')),
      packet(A_WRTE, 5, 9, big),
      packet(A_WRTE, 5, 9, Buffer.alloc(0)),
    ]);
    for (const cut of [1, 7, 24, 1000, 65536]) {
      const decoder = new PacketDecoder();
      const got = [];
      for (let at = 0; at < wire.length; at += cut) {
        got.push(...decoder.push(wire.subarray(at, at + cut)));
      }
      expect(got.map((p) => [p.command, p.arg0, p.arg1, p.payload.length])).toEqual([
        [A_CNXN, 0x01000001, 1 << 20, 24],
        [A_WRTE, 5, 9, 70_000],
        [A_WRTE, 5, 9, 0],
      ]);
      expect(got[1]!.payload.equals(big)).toBe(true);
    }
  });

  it('rejects a header whose magic is not the command inverted', () => {
    const header = encodeHeader(A_WRTE, 1, 2, 0);
    header.writeUInt32LE(0, 20);
    expect(() => new PacketDecoder().push(header)).toThrow(/magic/);
  });

  it('rejects a payload larger than the negotiated maximum', () => {
    expect(() => new PacketDecoder(4096).push(encodeHeader(A_WRTE, 1, 2, 4097))).toThrow(/exceeds/);
  });

  it('writes the header little-endian with the magic', () => {
    const header = encodeHeader(A_CNXN, 1, 2, 3);
    expect(header.length).toBe(HEADER_SIZE);
    expect(header.subarray(0, 4).toString('latin1')).toBe('CNXN');
    expect(header.readUInt32LE(20)).toBe((A_CNXN ^ 0xffffffff) >>> 0);
  });
});
