/**
 * The device side of the adb transport, driven by a hand-written server side over a real TCP
 * socket: negotiation, flow control, the shell protocol and refused services.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimDevice } from '../control/index.js';
import { logger } from '../../util/log.js';
import { AdbdListener } from './listener.js';
import {
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_VERSION,
  A_WRTE,
  PacketDecoder,
  commandName,
  encodeHeader,
  type AdbPacket,
} from './packet.js';

const listeners: AdbdListener[] = [];
const sockets: Socket[] = [];
const devices: { close(): void }[] = [];

afterEach(async () => {
  sockets.splice(0).forEach((s) => s.destroy());
  devices.splice(0).forEach((d) => d.close());
  await Promise.all(listeners.splice(0).map((l) => l.close()));
});

/** A minimal adb server side: sends packets, queues what comes back. */
class FakeServer {
  private readonly decoder = new PacketDecoder();
  private readonly queue: AdbPacket[] = [];
  private wake: (() => void) | undefined;
  /** Called for every packet as it arrives (before it is queued). */
  onPacket: ((p: AdbPacket) => void) | undefined;

  constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      for (const p of this.decoder.push(chunk)) {
        this.onPacket?.(p);
        this.queue.push(p);
      }
      this.wake?.();
    });
  }

  send(command: number, arg0: number, arg1: number, payload = Buffer.alloc(0)): void {
    this.socket.write(Buffer.concat([encodeHeader(command, arg0, arg1, payload.length), payload]));
  }

  async next(): Promise<AdbPacket> {
    while (this.queue.length === 0) {
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    return this.queue.shift()!;
  }
}

async function startDevice(): Promise<AdbdListener> {
  const listener = await AdbdListener.listen('127.0.0.1', 0);
  listeners.push(listener);
  const device = createSimDevice({
    identity: {
      serial: `127.0.0.1:${listener.port}`,
      product: 'shiba',
      model: 'Pixel 8',
      device: 'shiba',
      sdk: 34,
      release: '14',
      width: 1080,
      height: 2400,
      density: 420,
    },
    logcatRate: 0,
  });
  devices.push(device);
  listener.attach({ device, auth: 'none', commandLog: undefined, log: logger('test') });
  return listener;
}

/** Connects like an adb server offering `maxPayload`; returns the connection and the device's CNXN. */
async function connectServer(
  listener: AdbdListener,
  maxPayload: number,
): Promise<{ server: FakeServer; cnxn: AdbPacket }> {
  const socket = connect({ host: '127.0.0.1', port: listener.port });
  sockets.push(socket);
  await new Promise((resolve) => socket.once('connect', resolve));
  const server = new FakeServer(socket);
  server.send(A_CNXN, A_VERSION, maxPayload, Buffer.from('host::features=shell_v2,cmd\0'));
  return { server, cnxn: await server.next() };
}

async function deviceAndServer(maxPayload: number): Promise<FakeServer> {
  return (await connectServer(await startDevice(), maxPayload)).server;
}

describe('AdbdConnection', () => {
  it('answers CNXN with version 0x01000001 and a banner naming the device and its features', async () => {
    const { cnxn } = await connectServer(await startDevice(), 1 << 20);
    expect(commandName(cnxn.command)).toBe('CNXN');
    expect(cnxn.arg0).toBe(A_VERSION);
    expect(cnxn.payload.toString()).toBe(
      'device::ro.product.name=shiba;ro.product.model=Pixel 8;ro.product.device=shiba;features=shell_v2,cmd,stat_v2,ls_v2',
    );
  });

  it('never sends a WRTE over the negotiated payload, nor a second one before the OKAY', async () => {
    const server = await deviceAndServer(4096);
    const data = Buffer.alloc(100_000);
    for (let i = 0; i < data.length; i++) {
      data[i] = (i * 7) & 0xff;
    }
    // Through sync SEND, so the device's filesystem holds it; then read it back with exec:cat.
    const sizes: number[] = [];
    let unacknowledged = 0;
    server.onPacket = (p) => {
      if (p.command === A_WRTE) {
        expect(unacknowledged).toBe(0);
        unacknowledged++;
        sizes.push(p.payload.length);
        // Acknowledge a little later, so a WRTE sent too early would be seen here.
        setTimeout(() => {
          unacknowledged--;
          server.send(A_OKAY, 1, p.arg0);
        }, 2);
      }
    };
    server.send(A_OPEN, 1, 0, Buffer.from('sync:\0'));
    const opened = await server.next();
    expect(commandName(opened.command)).toBe('OKAY');
    const header = (id: string, n: number): Buffer => {
      const b = Buffer.alloc(8);
      b.write(id, 0, 'latin1');
      b.writeUInt32LE(n, 4);
      return b;
    };
    const spec = Buffer.from('/data/local/tmp/flow.bin,33188');
    const chunks = [header('SEND', spec.length), spec];
    for (let at = 0; at < data.length; at += 65536) {
      const part = data.subarray(at, at + 65536);
      chunks.push(header('DATA', part.length), part);
    }
    chunks.push(header('DONE', 1_600_000_000));
    const wire = Buffer.concat(chunks);
    for (let at = 0; at < wire.length; at += 4096) {
      server.send(A_WRTE, 1, opened.arg0, wire.subarray(at, at + 4096));
      let ack = await server.next();
      while (ack.command !== A_OKAY) {
        ack = await server.next();
      }
    }
    let reply = await server.next();
    while (reply.command !== A_WRTE) {
      reply = await server.next();
    }
    expect(reply.payload.subarray(0, 4).toString('latin1')).toBe('OKAY');

    sizes.length = 0;
    server.send(A_OPEN, 2, 0, Buffer.from('exec:cat /data/local/tmp/flow.bin\0'));
    const received: Buffer[] = [];
    for (;;) {
      const p = await server.next();
      if (p.arg1 !== 2) {
        continue;
      }
      if (p.command === A_WRTE) {
        received.push(p.payload);
      } else if (p.command === A_CLSE) {
        break;
      }
    }
    expect(Buffer.concat(received).equals(data)).toBe(true);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4096);
  });

  it('sends the exit code in a shell-protocol exit packet, then closes the stream', async () => {
    const server = await deviceAndServer(1 << 20);
    server.send(A_OPEN, 5, 0, Buffer.from('shell,v2,TERM=xterm-256color,raw:echo hi; exit 3\0'));
    const opened = await server.next();
    expect(commandName(opened.command)).toBe('OKAY');
    const bytes: Buffer[] = [];
    for (;;) {
      const p = await server.next();
      if (p.command === A_WRTE) {
        bytes.push(p.payload);
        server.send(A_OKAY, 5, opened.arg0);
      } else if (p.command === A_CLSE) {
        break;
      }
    }
    const all = Buffer.concat(bytes);
    // stdout packet "hi\n", then exit packet with 3.
    expect([...all]).toEqual([1, 3, 0, 0, 0, ...Buffer.from('hi\n'), 3, 1, 0, 0, 0, 3]);
  });

  it('under shell v1 sends stdout and stderr as one byte stream with no exit packet', async () => {
    const server = await deviceAndServer(1 << 20);
    server.send(A_OPEN, 6, 0, Buffer.from('shell:echo out; echo err >&2; exit 4\0'));
    const opened = await server.next();
    expect(commandName(opened.command)).toBe('OKAY');
    const bytes: Buffer[] = [];
    for (;;) {
      const p = await server.next();
      if (p.command === A_WRTE) {
        bytes.push(p.payload);
        server.send(A_OKAY, 6, opened.arg0);
      } else if (p.command === A_CLSE) {
        break;
      }
    }
    expect(Buffer.concat(bytes).toString()).toBe('out\nerr\n');
  });

  it('refuses a service it does not have with CLSE', async () => {
    const server = await deviceAndServer(1 << 20);
    server.send(A_OPEN, 9, 0, Buffer.from('reboot:bootloader\0'));
    const reply = await server.next();
    expect([commandName(reply.command), reply.arg0, reply.arg1]).toEqual(['CLSE', 0, 9]);
  });
});
