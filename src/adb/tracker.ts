import type net from 'node:net';
import type { AdbClient } from './client.js';
import { openService } from './connection.js';
import { parseDeviceList } from './device-list.js';
import type { AdbDeviceEntry } from './device-list.js';
import { ensureAdbServer } from './server-start.js';
import { logger } from '../util/log.js';

const log = logger('adb-tracker');

export interface TrackerEvents {
  /** The whole list, each time it changes. */
  onList(devices: AdbDeviceEntry[]): void;
  /** The server went away or came back (message for people; its protocol version when up). */
  onServer?(state: 'up' | 'down', message: string, version?: number): void;
}

/**
 * Follows the adb server's device list live (`host:track-devices-l`), in every state
 * (unauthorized and offline included). When the server goes away it reports an empty list,
 * then reconnects — starting a local server if none runs — with a growing pause.
 */
export class DeviceTracker {
  private socket: net.Socket | undefined;
  private stopped = false;
  private readonly abort = new AbortController();
  private devices: AdbDeviceEntry[] = [];
  private backoffMs = 250;

  constructor(
    private readonly client: AdbClient,
    private readonly events: TrackerEvents,
    /** Start a local server when none answers (the implicit local server; never a named one). */
    private readonly startServer = true,
  ) {}

  /** The list as last reported. */
  current(): AdbDeviceEntry[] {
    return this.devices;
  }

  /** Starts tracking; resolves once the first list arrived (or the first attempt failed). */
  start(): Promise<void> {
    return new Promise((resolve) => {
      let first = true;
      const ready = (): void => {
        if (first) {
          first = false;
          resolve();
        }
      };
      void this.loop(ready);
    });
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
    this.socket?.destroy();
  }

  private publish(devices: AdbDeviceEntry[]): void {
    this.devices = devices;
    try {
      this.events.onList(devices);
    } catch (err) {
      log.warn('a device-list listener threw', { error: String(err) });
    }
  }

  private async loop(ready: () => void): Promise<void> {
    while (!this.stopped) {
      try {
        const check = await ensureAdbServer(this.client, this.abort.signal, this.startServer);
        if (check.started) {
          log.warn(check.message);
        }
        this.events.onServer?.('up', check.message, check.version);
        await this.follow(ready);
        if (!this.stopped) {
          this.events.onServer?.('down', 'the adb server closed the device tracking connection');
        }
      } catch (err) {
        if (this.stopped) {
          return;
        }
        this.events.onServer?.('down', (err as Error).message);
        log.warn('device tracking failed; retrying', { error: (err as Error).message });
      }
      ready();
      if (this.devices.length > 0) {
        this.publish([]);
      }
      if (this.stopped) {
        return;
      }
      await new Promise((r) => setTimeout(r, this.backoffMs));
      this.backoffMs = Math.min(this.backoffMs * 2, 5_000);
    }
  }

  private async follow(ready: () => void): Promise<void> {
    const { socket, head } = await openService(this.client.address, null, 'host:track-devices-l', {
      signal: this.abort.signal,
      timeoutMs: 10_000,
    });
    this.socket = socket;
    let pending: Buffer = head;
    const drain = (): void => {
      while (pending.length >= 4) {
        const len = parseInt(pending.toString('latin1', 0, 4), 16);
        if (Number.isNaN(len) || pending.length < 4 + len) {
          return;
        }
        const text = pending.toString('utf8', 4, 4 + len);
        pending = pending.subarray(4 + len);
        this.backoffMs = 250;
        this.publish(parseDeviceList(text));
        ready();
      }
    };
    drain();
    await new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        drain();
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    this.socket = undefined;
  }
}
