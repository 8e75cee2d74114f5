import { describe, expect, it } from 'vitest';
import { A_CLSE, A_OKAY, A_WRTE, commandName } from './packet.js';
import { AdbdStream, type PacketSink } from './stream.js';

/** Records what the stream sends, as the connection would put it on the wire. */
class Recorder implements PacketSink {
  sent: { command: string; arg0: number; arg1: number; length: number }[] = [];
  send(command: number, arg0: number, arg1: number, payload?: Buffer): void {
    this.sent.push({ command: commandName(command), arg0, arg1, length: payload?.length ?? 0 });
  }
  writes(): number[] {
    return this.sent.filter((p) => p.command === 'WRTE').map((p) => p.length);
  }
}

function stream(maxPayload: number): { s: AdbdStream; wire: Recorder; closed: () => boolean } {
  const wire = new Recorder();
  let closed = false;
  const s = new AdbdStream(wire, 3, 77, maxPayload, () => {
    closed = true;
  });
  return { s, wire, closed: () => closed };
}

describe('AdbdStream', () => {
  it('sends one WRTE at a time, each within the payload limit, the next only after OKAY', () => {
    const { s, wire } = stream(1000);
    void s.write(Buffer.alloc(2500));
    expect(wire.writes()).toEqual([1000]);
    void s.write(Buffer.alloc(10));
    expect(wire.writes()).toEqual([1000]);
    s.onOkay();
    expect(wire.writes()).toEqual([1000, 1000]);
    s.onOkay();
    s.onOkay();
    expect(wire.writes()).toEqual([1000, 1000, 510]);
    expect(wire.sent.every((p) => p.command !== 'WRTE' || (p.arg0 === 3 && p.arg1 === 77))).toBe(true);
  });

  it('holds a writer back while more than a payload is queued', async () => {
    const { s } = stream(100);
    let released = false;
    const done = s.write(Buffer.alloc(350)).then(() => {
      released = true;
    });
    await Promise.resolve();
    expect(released).toBe(false);
    s.onOkay();
    s.onOkay();
    await done;
    expect(released).toBe(true);
  });

  it('closes with CLSE right after the last queued bytes leave', () => {
    const { s, wire, closed } = stream(100);
    void s.write(Buffer.alloc(150));
    s.end();
    expect(wire.sent.map((p) => p.command)).toEqual(['WRTE']);
    s.onOkay();
    expect(wire.sent.map((p) => p.command)).toEqual(['WRTE', 'WRTE', 'CLSE']);
    expect(closed()).toBe(true);
  });

  it('aborts the service and drops its output when the client closes the stream', async () => {
    const { s, wire, closed } = stream(100);
    s.onRemoteClose();
    expect(s.abort.signal.aborted).toBe(true);
    expect(closed()).toBe(true);
    await s.write(Buffer.alloc(10));
    s.end();
    expect(wire.sent).toEqual([]);
  });

  it('acknowledges client writes until its inbox is full, then when the service reads', async () => {
    const { s, wire } = stream(1 << 20);
    s.onWrite(Buffer.alloc(200 * 1024));
    expect(wire.sent.filter((p) => p.command === commandName(A_OKAY))).toHaveLength(1);
    s.onWrite(Buffer.alloc(200 * 1024));
    expect(wire.sent.filter((p) => p.command === commandName(A_OKAY))).toHaveLength(1);
    await s.inbox.readExact(300 * 1024);
    expect(wire.sent.filter((p) => p.command === commandName(A_OKAY))).toHaveLength(2);
    expect(
      wire.sent.some((p) => p.command === commandName(A_CLSE) || p.command === commandName(A_WRTE)),
    ).toBe(false);
  });
});
