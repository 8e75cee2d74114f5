import net from 'node:net';
import path from 'node:path';
import { until } from '../helpers/until.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Runtime from '../../src/actors/runtime.js';
import type * as SocketClient from '../../src/bus/socket-client.js';
import type * as SocketServer from '../../src/bus/socket-server.js';
import type * as Ndjson from '../../src/bus/ndjson.js';
import type { BusError } from '../../src/bus/errors.js';
import { fromDist, tempDir } from '../helpers/paths.js';
import { lastRead } from '../helpers/until.js';

let runtime: typeof Runtime;
let clientMod: typeof SocketClient;
let serverMod: typeof SocketServer;
let system: Runtime.ActorSystem;
let server: net.Server;
const dir = tempDir('droidbus-sock-');
const socketPath = path.join(dir.dir, 'host.sock');
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  runtime = await fromDist<typeof Runtime>('actors/runtime.ts');
  clientMod = await fromDist<typeof SocketClient>('bus/socket-client.ts');
  serverMod = await fromDist<typeof SocketServer>('bus/socket-server.ts');
  system = runtime.startActorSystem();
  server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serverMod.serveBusConnection(socket, {
      bus: system.bus,
      handshakeTimeoutMs: 300,
      handshake: (hello) => {
        const ok =
          typeof hello === 'object' && hello !== null && (hello as { attach?: unknown }).attach === 1;
        return ok
          ? { accept: true, reply: { accepted: true } }
          : { accept: false, reply: { accepted: false, reason: 'unknown attach version' } };
      },
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
});

afterAll(async () => {
  for (const s of sockets) {
    s.destroy();
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await system.shutdown();
  dir.remove();
});

function connect(hello: Record<string, unknown> = { attach: 1 }) {
  return clientMod.connectSocketBus({ path: socketPath, hello, timeoutMs: 2_000, origin: { kind: 'cli' } });
}

async function rejection(promise: Promise<unknown>): Promise<BusError> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as BusError,
  );
}

/** Sends raw lines and collects the lines that come back until the socket closes or `count` arrive. */
function rawExchange(lines: string[], count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let buffer = '';
    const got: string[] = [];
    socket.on('data', (c) => {
      buffer += c.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        got.push(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
      }
      if (got.length >= count) {
        socket.destroy();
        resolve(got);
      }
    });
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
    socket.on('connect', () => socket.write(lines.join('')));
  });
}

describe('the bus over a unix socket', () => {
  it('carries a request to an actor on the host and its answer back after the handshake', async () => {
    const { reply, client } = await connect();
    expect(reply).toEqual({ accepted: true });
    const answer = await client.request('system.ping', { echo: 'over the socket' });
    expect(answer.echo).toBe('over the socket');
    await client.close();
  });

  it('returns the refusal reply of a refused handshake and closes', async () => {
    const { reply, client } = await connect({ attach: 99 });
    expect(reply).toEqual({ accepted: false, reason: 'unknown attach version' });
    expect(
      await lastRead(
        () => client.connected,
        (c) => !c,
        2_000,
        10,
      ),
    ).toBe(false);
  });

  it('refuses a client that sends no handshake in time', async () => {
    const lines = await rawExchange([], 1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      accepted: false,
      reason: expect.stringContaining('no handshake'),
    });
  });

  it('refuses a handshake line over 4 KiB', async () => {
    const lines = await rawExchange([JSON.stringify({ attach: 1, pad: 'x'.repeat(5000) }) + '\n'], 1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      accepted: false,
      reason: expect.stringContaining('4096 bytes'),
    });
  });

  it('answers an envelope that breaks the contract with INVALID and keeps the connection', async () => {
    const hello = JSON.stringify({ attach: 1 }) + '\n';
    const bad =
      JSON.stringify({
        kind: 'request',
        id: 'x1',
        type: 'system.ping',
        payload: {},
        deadline: 'soon',
        origin: { kind: 'cli' },
      }) + '\n';
    const badPayload =
      JSON.stringify({
        kind: 'request',
        id: 'x2',
        type: 'system.ping',
        payload: { echo: 42 },
        deadline: Date.now() + 5000,
        origin: { kind: 'cli' },
      }) + '\n';
    const unknown =
      JSON.stringify({
        kind: 'request',
        id: 'x3',
        type: 'system.format_disk',
        payload: {},
        deadline: Date.now() + 5000,
        origin: { kind: 'cli' },
      }) + '\n';
    const good =
      JSON.stringify({
        kind: 'request',
        id: 'x4',
        type: 'system.ping',
        payload: { echo: 'fine' },
        deadline: Date.now() + 5000,
        origin: { kind: 'cli' },
      }) + '\n';
    const lines = await rawExchange([hello, bad, badPayload, unknown, good], 5);
    const replies = lines.slice(1).map(
      (l) =>
        JSON.parse(l) as {
          id: string;
          ok: boolean;
          error?: { code: string; message: string };
          value?: { echo?: string };
        },
    );
    const byId = Object.fromEntries(replies.map((r) => [r.id, r]));
    expect(byId['x1']).toMatchObject({ ok: false, error: { code: 'INVALID' } });
    expect(byId['x2']).toMatchObject({
      ok: false,
      error: { code: 'INVALID', message: expect.stringContaining('echo') },
    });
    expect(byId['x3']).toMatchObject({
      ok: false,
      error: { code: 'INVALID', message: expect.stringContaining('unknown request type') },
    });
    expect(byId['x4']).toMatchObject({ ok: true, value: { echo: 'fine' } });
  });

  it('fails every request in flight with UNAVAILABLE when the connection breaks', async () => {
    const { client } = await connect();
    const disconnected = new Promise<string>((resolve) => client.onDisconnect(resolve));
    const pending = client.request('system.ping', { delay_ms: 10_000 });
    await until('the ping to reach the actor', () =>
      system.bus.inflightByAddress()['system'] ? true : undefined,
    );
    for (const s of sockets) {
      s.destroy();
    }
    const err = await rejection(pending);
    expect(err.code).toBe('UNAVAILABLE');
    expect(await disconnected).toContain('closed the connection');
  });

  it("cancels the actor's work when the client aborts a request", async () => {
    const { client } = await connect();
    const controller = new AbortController();
    const pending = client.request('system.ping', { delay_ms: 10_000 }, { signal: controller.signal });
    await until('the ping to reach the actor', () =>
      system.bus.inflightByAddress()['system'] ? true : undefined,
    );
    expect(system.bus.inflightByAddress()['system']).toBe(1);
    controller.abort();
    expect((await rejection(pending)).code).toBe('CANCELLED');
    const inflight = await lastRead(
      () => system.bus.inflightByAddress()['system'] ?? 0,
      (n) => n === 0,
      3_000,
      10,
    );
    expect(inflight).toBe(0);
    await client.close();
  });

  it('delivers the events a client subscribed to', async () => {
    const { client } = await connect();
    const got = new Promise<unknown>((resolve) => client.on('actor.state', resolve));
    // Subscriptions travel on the same ordered connection; a round trip makes sure it arrived.
    await client.request('system.ping', {});
    system.bus.publish('actor.state', { address: 'device/emulator-5554', state: 'started' });
    expect(await got).toEqual({ address: 'device/emulator-5554', state: 'started' });
    await client.close();
  });

  it('moves binary payloads as bytes', async () => {
    const { encodeLine, decodeLine } = await fromDist<typeof Ndjson>('bus/ndjson.ts');
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const back = decodeLine(encodeLine({ png: bytes, buf: Buffer.from('hi') }).trim()) as {
      png: Uint8Array;
      buf: Uint8Array;
    };
    expect(back.png).toBeInstanceOf(Uint8Array);
    expect([...back.png]).toEqual([0, 1, 2, 250, 255]);
    expect(Buffer.from(back.buf).toString()).toBe('hi');
  });
});
