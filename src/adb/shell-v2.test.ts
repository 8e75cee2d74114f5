import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SHELL_V2, ShellV2Decoder, decodeShellV2, encodeShellV2 } from './shell-v2.js';

describe('shell protocol v2', () => {
  it('separates stdout, stderr and the exit code', () => {
    const stream = Buffer.concat([
      encodeShellV2(SHELL_V2.stdout, Buffer.from('out 1\n')),
      encodeShellV2(SHELL_V2.stderr, Buffer.from('err\n')),
      encodeShellV2(SHELL_V2.stdout, Buffer.from('out 2\n')),
      encodeShellV2(SHELL_V2.exit, Buffer.from([3])),
    ]);
    const result = decodeShellV2(stream);
    expect(result.stdout.toString()).toBe('out 1\nout 2\n');
    expect(result.stderr.toString()).toBe('err\n');
    expect(result.exitCode).toBe(3);
  });

  it('reports no exit code when the stream broke before the exit packet', () => {
    const stream = Buffer.concat([
      encodeShellV2(SHELL_V2.stdout, Buffer.from('partial')),
      Buffer.from([1, 9, 0]),
    ]);
    expect(decodeShellV2(stream)).toMatchObject({ exitCode: null });
    expect(decodeShellV2(stream).stdout.toString()).toBe('partial');
  });

  it('decodes the same packets however the stream is split into chunks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(1, 2), fc.uint8Array({ maxLength: 64 })), { maxLength: 10 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 20 }),
        (packets, cuts) => {
          const whole = Buffer.concat(packets.map(([id, data]) => encodeShellV2(id, data)));
          const decoder = new ShellV2Decoder();
          const got: { id: number; data: Buffer }[] = [];
          let at = 0;
          for (const cut of [...cuts, whole.length]) {
            got.push(...decoder.push(whole.subarray(at, Math.min(whole.length, at + cut))));
            at = Math.min(whole.length, at + cut);
          }
          expect(got.map((p) => [p.id, [...p.data]])).toEqual(packets.map(([id, data]) => [id, [...data]]));
        },
      ),
    );
  });
});
