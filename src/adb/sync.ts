import { Adb, AdbBanner, AdbServerClient } from '@yume-chan/adb';
import type { AdbFeature, AdbIncomingSocketHandler, AdbSocket, AdbSync, AdbTransport } from '@yume-chan/adb';
import { AdbServerNodeTcpConnector } from '@yume-chan/adb-server-node-tcp';
import type { AdbServerAddress } from './server-address.js';

/**
 * Tango's AdbServerTransport keeps every socket it ever opened (≈13 KB each, forever). This
 * transport opens a fresh device connection per service and keeps none, so the heap stays flat.
 * It also never holds a "wait for disconnect" connection: the device tracker says when a device goes.
 */
class PerCallTransport implements AdbTransport {
  readonly maxPayloadSize = 1024 * 1024;
  readonly disconnected: Promise<void>;
  private markDisconnected!: () => void;

  constructor(
    private readonly server: AdbServerClient,
    readonly serial: string,
    readonly banner: AdbBanner,
    readonly clientFeatures: readonly AdbFeature[],
  ) {
    this.disconnected = new Promise((resolve) => {
      this.markDisconnected = resolve;
    });
  }

  async connect(service: string): Promise<AdbSocket> {
    return this.server.createDeviceConnection({ serial: this.serial }, service);
  }

  addReverseTunnel(_handler: AdbIncomingSocketHandler): Promise<string> {
    return Promise.reject(new Error('reverse tunnels are not used by droidbus'));
  }

  removeReverseTunnel(): void {}

  clearReverseTunnels(): void {}

  close(): void {
    this.markDisconnected();
  }
}

/** The features a client may use when it speaks to the adb server (the server implements them). */
const CLIENT_FEATURES = [
  'shell_v2',
  'cmd',
  'stat_v2',
  'ls_v2',
  'fixed_push_mkdir',
  'apex',
  'abb',
  'fixed_push_symlink_timestamp',
  'abb_exec',
  'remount_shell',
  'track_app',
  'sendrecv_v2',
] as AdbFeature[];

/** One Tango `Adb` per device (creating one costs round trips; never one per command). */
export class TangoDevices {
  private readonly server: AdbServerClient;
  private readonly adbs = new Map<string, Adb>();

  constructor(address: AdbServerAddress) {
    this.server = new AdbServerClient(
      new AdbServerNodeTcpConnector(
        address.kind === 'tcp' ? { host: address.host, port: address.port } : { path: address.path },
      ),
    );
  }

  /** The device's Adb, made once from its features. */
  adb(serial: string, features: readonly string[]): Adb {
    let adb = this.adbs.get(serial);
    if (!adb) {
      const banner = new AdbBanner('device', undefined, undefined, undefined, features as AdbFeature[]);
      adb = new Adb(new PerCallTransport(this.server, serial, banner, CLIENT_FEATURES));
      this.adbs.set(serial, adb);
    }
    return adb;
  }

  /** A sync session (stat, list, pull, push); dispose it when done. */
  async sync(serial: string, features: readonly string[]): Promise<AdbSync> {
    return this.adb(serial, features).sync();
  }

  /** Forgets a device that went away or changed. */
  forget(serial: string): void {
    const adb = this.adbs.get(serial);
    if (adb) {
      this.adbs.delete(serial);
      void adb.close().catch(() => undefined);
    }
  }
}
