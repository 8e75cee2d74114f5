/**
 * Evidence: packages/modules/adb/protocol.txt (CNXN, AUTH, OPEN/OKAY/WRTE/CLSE), adb.cpp handle_packet
 * and daemon/auth.cpp (token, signature, public key); measured against Debian's adb 1.0.41 in
 * notes/adb-facts.md. A connection to a reverse listener (adb.cpp: the listener's socket accepted on
 * the device, then connect_to_remote) is an OPEN the device sends with the listener's REMOTE as its
 * destination; the server answers OKAY with its stream id, or CLSE when it cannot connect.
 */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Logger } from '../../util/log.js';
import type { SimDevice } from '../device-api.js';
import { nowMs, type CommandLog } from './command-log.js';
import {
  A_AUTH,
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_VERSION,
  A_WRTE,
  AUTH_RSAPUBLICKEY,
  AUTH_SIGNATURE,
  AUTH_TOKEN,
  MAX_PAYLOAD,
  PacketDecoder,
  commandName,
  encodeHeader,
  type AdbPacket,
} from './packet.js';
import { AdbdStream } from './stream.js';
import { openService } from './services.js';
import { streamSocket } from './tcp-service.js';
import type { ServiceContext } from './service-context.js';

/**
 * How the device answers the server's keys: `none` skips AUTH entirely, `any` challenges once and
 * accepts whatever signature or public key comes back, `unauthorized` re-challenges every signature
 * and never accepts the public key, so adb lists the device as `unauthorized`.
 */
export type AuthMode = 'none' | 'any' | 'unauthorized';

/** Where the handshake ended up. */
export type ConnectionState = 'connecting' | 'authorizing' | 'online' | 'unauthorized' | 'closed';

/** The features this adbd implements, and so the only ones the banner advertises. */
export const FEATURES = ['shell_v2', 'cmd', 'stat_v2', 'ls_v2'] as const;

export interface ConnectionOptions {
  device: SimDevice;
  auth: AuthMode;
  /** The largest payload this side accepts and sends (default 1 MiB). */
  maxPayload?: number;
  commandLog: CommandLog | undefined;
  log: Logger;
  /** Called once when the handshake reached `online` or `unauthorized`. */
  onReady?: (state: 'online' | 'unauthorized') => void;
  /**
   * Called after adbd restarted (`adb root`, `adb unroot`) and dropped this transport: what brings
   * the device back to the server (an emulator announces itself again, as the emulator does).
   */
  onRestart?: () => void;
}

/** The CNXN banner: state, the three properties adb reads, and the features. */
export function banner(device: SimDevice): string {
  const id = device.identity;
  return (
    `device::ro.product.name=${id.product};ro.product.model=${id.model};` +
    `ro.product.device=${id.device};features=${FEATURES.filter((f) => device.features?.includes(f) ?? true).join(',')}`
  );
}

/** The device side of one adb transport connection (one TCP socket from the adb server). */
export class AdbdConnection {
  state: ConnectionState = 'connecting';
  private readonly decoder: PacketDecoder;
  private readonly streams = new Map<number, AdbdStream>();
  private nextLocalId = 1;
  /** What the server may receive per packet: min(ours, the server's). */
  private sendMax: number;
  private readonly ownMax: number;
  private readonly ctx: ServiceContext;
  /** Streams this side opened (a reverse connection), waiting for the server's OKAY. */
  private readonly opening = new Map<
    number,
    { resolve: (s: AdbdStream) => void; reject: (e: Error) => void }
  >();
  private detachReverse: (() => void) | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly opts: ConnectionOptions,
  ) {
    this.ownMax = opts.maxPayload ?? MAX_PAYLOAD;
    this.sendMax = this.ownMax;
    this.decoder = new PacketDecoder(this.ownMax);
    this.ctx = {
      device: opts.device,
      commandLog: opts.commandLog,
      log: opts.log,
      reverses: new Map(),
      restart: () => {
        // Written packets (the answer, its CLSE) go out first; then the transport ends, as adbd exits.
        this.socket.end();
        this.teardown();
        opts.onRestart?.();
      },
    };
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => this.teardown());
    socket.on('close', () => this.teardown());
  }

  /** Streams open right now (for tests and stats). */
  get openStreams(): number {
    return this.streams.size;
  }

  /** Closes the socket; the server sees the device go. */
  close(): void {
    this.socket.destroy();
    this.teardown();
  }

  send(command: number, arg0: number, arg1: number, payload?: Buffer): void {
    if (this.state === 'closed') {
      return;
    }
    const length = payload?.length ?? 0;
    this.socket.write(encodeHeader(command, arg0, arg1, length));
    if (payload && length > 0) {
      this.socket.write(payload);
    }
  }

  private onData(chunk: Buffer): void {
    let packets: AdbPacket[];
    try {
      packets = this.decoder.push(chunk);
    } catch (err) {
      this.opts.log.warn('dropping a connection that sent a bad packet', {
        serial: this.opts.device.identity.serial,
        err: String(err),
      });
      this.close();
      return;
    }
    for (const packet of packets) {
      this.handle(packet);
    }
  }

  private handle(p: AdbPacket): void {
    switch (p.command) {
      case A_CNXN:
        this.onConnect(p);
        return;
      case A_AUTH:
        this.onAuth(p);
        return;
      case A_OPEN:
        this.onOpen(p);
        return;
      case A_OKAY: {
        const opening = this.opening.get(p.arg1);
        if (opening !== undefined) {
          this.opening.delete(p.arg1);
          opening.resolve(this.addStream(p.arg1, p.arg0));
          return;
        }
        this.streams.get(p.arg1)?.onOkay();
        return;
      }
      case A_WRTE: {
        const stream = this.streams.get(p.arg1);
        if (stream) {
          stream.onWrite(p.payload);
        } else {
          // A write to a stream we do not know: tell the server it is gone.
          this.send(A_CLSE, 0, p.arg0);
        }
        return;
      }
      case A_CLSE: {
        const opening = this.opening.get(p.arg1);
        if (opening !== undefined) {
          this.opening.delete(p.arg1);
          opening.reject(new Error('connection refused'));
          return;
        }
        this.streams.get(p.arg1)?.onRemoteClose();
        return;
      }
      default:
        this.opts.log.debug('ignoring packet', { command: commandName(p.command) });
    }
  }

  private onConnect(p: AdbPacket): void {
    // A server that reconnects starts over: every stream of the old session is gone.
    this.closeAllStreams();
    this.sendMax = Math.min(this.ownMax, p.arg1 || this.ownMax);
    if (this.opts.auth === 'none') {
      this.goOnline();
    } else {
      this.state = 'authorizing';
      this.challenge();
    }
  }

  private onAuth(p: AdbPacket): void {
    if (this.state !== 'authorizing') {
      return;
    }
    if (p.arg0 === AUTH_SIGNATURE) {
      if (this.opts.auth === 'any') {
        this.goOnline();
      } else {
        // Every key is "wrong": ask again until the server gives up and offers its public key.
        this.challenge();
      }
    } else if (p.arg0 === AUTH_RSAPUBLICKEY) {
      if (this.opts.auth === 'any') {
        this.goOnline();
      } else {
        // A real phone would now show the "Allow USB debugging?" dialog; nobody ever taps it.
        this.state = 'unauthorized';
        this.opts.onReady?.('unauthorized');
      }
    }
  }

  private challenge(): void {
    this.send(A_AUTH, AUTH_TOKEN, 0, randomBytes(20));
  }

  private goOnline(): void {
    this.state = 'online';
    this.send(A_CNXN, A_VERSION, this.ownMax, Buffer.from(banner(this.opts.device), 'utf8'));
    this.detachReverse ??= this.opts.device.attachReverse?.({
      connect: (local) => {
        const remote = this.ctx.reverses.get(local);
        return remote === undefined ? undefined : this.openToServer(remote).then(streamSocket);
      },
    });
    this.opts.onReady?.('online');
  }

  /** A stream this side opens to `destination` on the server's host (a reverse connection). */
  private openToServer(destination: string): Promise<AdbdStream> {
    if (this.state !== 'online') {
      return Promise.reject(new Error('the transport is gone'));
    }
    const localId = this.takeLocalId();
    return new Promise((resolve, reject) => {
      this.opening.set(localId, { resolve, reject });
      this.send(A_OPEN, localId, 0, Buffer.from(`${destination}\0`, 'utf8'));
    });
  }

  private takeLocalId(): number {
    const localId = this.nextLocalId++;
    if (this.nextLocalId > 0x7fffffff) {
      this.nextLocalId = 1;
    }
    return localId;
  }

  private addStream(localId: number, remoteId: number): AdbdStream {
    const stream = new AdbdStream(this, localId, remoteId, this.sendMax, (s) => {
      if (this.streams.get(s.localId) === s) {
        this.streams.delete(s.localId);
      }
    });
    this.streams.set(localId, stream);
    return stream;
  }

  private onOpen(p: AdbPacket): void {
    const remoteId = p.arg0;
    if (this.state !== 'online' || remoteId === 0) {
      this.send(A_CLSE, 0, remoteId);
      return;
    }
    // The service name is NUL-terminated.
    let end = p.payload.indexOf(0);
    if (end < 0) {
      end = p.payload.length;
    }
    const service = p.payload.subarray(0, end).toString('utf8');
    const localId = this.takeLocalId();
    const run = openService(this.ctx, service);
    if (!run) {
      // adbd closes a stream it cannot open; the client reports "error: closed".
      this.send(A_CLSE, 0, remoteId);
      const t = nowMs();
      this.ctx.commandLog?.record({
        t0: t,
        t1: t,
        dev: this.opts.device.identity.serial,
        kind: 'open',
        cmd: service,
        code: -1,
        out: 0,
      });
      return;
    }
    const stream = this.addStream(localId, remoteId);
    this.send(A_OKAY, localId, remoteId);
    run(stream).then(
      () => stream.end(),
      (err: unknown) => {
        this.opts.log.warn('service failed', { service, err: String(err) });
        stream.end();
      },
    );
  }

  private closeAllStreams(): void {
    const streams = [...this.streams.values()];
    this.streams.clear();
    for (const stream of streams) {
      stream.onRemoteClose();
    }
  }

  private teardown(): void {
    if (this.state === 'closed') {
      return;
    }
    this.detachReverse?.();
    for (const opening of this.opening.values()) {
      opening.reject(new Error('the transport is gone'));
    }
    this.opening.clear();
    this.closeAllStreams();
    this.state = 'closed';
  }
}
