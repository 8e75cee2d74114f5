/**
 * Evidence: how an app's HTTP traffic leaves an Android device.
 * - The global proxy (packages/modules/Connectivity ProxyTracker.java): ConnectivityService watches
 *   Settings.Global.HTTP_PROXY and loadDeprecatedGlobalHttpProxy applies it — an empty or deleted
 *   value changes nothing (its body is guarded by !TextUtils.isEmpty), `HOST` alone means port 8080,
 *   a port that is not a number is ignored, and an empty host (`:0`) clears the proxy in use
 *   (setGlobalProxy's else-branch). Apps using the platform's ProxySelector (HttpURLConnection,
 *   OkHttp's default) send plain HTTP to it in absolute form and HTTPS through `CONNECT host:port`
 *   (RFC 9110 §9.3.6).
 * - `127.0.0.1` / `localhost` is the device itself: a port there is a device socket — one an app
 *   listens on, or an `adb reverse` listener that carries the connection to the host (adb.cpp); nothing
 *   listening is "Connection refused" (ECONNREFUSED), as the kernel answers.
 * - `10.0.2.2` is the host's loopback seen from the Android emulator (developer.android.com, "Set up
 *   Android Emulator networking"); other addresses are reached through the host's network, as the
 *   emulator's NAT does.
 */
import { connect as netConnect } from 'node:net';
import { Duplex } from 'node:stream';
import type { ReverseRoute } from '../device-api.js';

/** The emulator's alias for the host's loopback. */
const HOST_LOOPBACK_ALIAS = '10.0.2.2';

/** A connection the device could not make, with the errno the kernel would give. */
export class NetError extends Error {
  constructor(
    readonly code: 'ECONNREFUSED' | 'EHOSTUNREACH',
    message: string,
  ) {
    super(message);
  }
}

/** The device's network: its own listening sockets, the transports' reverse listeners, the host. */
export class DeviceNetwork {
  private readonly routes = new Set<ReverseRoute>();
  /** The global proxy in use (ProxyTracker's mGlobalProxy), which apps send their traffic to. */
  proxy: { host: string; port: number } | null = null;

  /** ProxyTracker.loadDeprecatedGlobalHttpProxy, after Settings.Global.HTTP_PROXY changed. */
  loadHttpProxy(value: string | undefined): void {
    if (value === undefined || value === '') {
      return;
    }
    const [host = '', port] = value.split(':');
    const n = port === undefined ? 8080 : Number(port);
    if (!Number.isInteger(n)) {
      return;
    }
    if (host === '') {
      this.proxy = null;
    } else if (n > 0 && n <= 65535) {
      this.proxy = { host, port: n };
    }
  }

  constructor(private readonly acceptLocal: (port: number) => ((socket: Duplex) => void) | undefined) {}

  /** A transport's reverse listeners; returns what withdraws them. */
  attach(route: ReverseRoute): () => void {
    this.routes.add(route);
    return () => this.routes.delete(route);
  }

  /** A TCP connection from an app on the device to `host:port`. */
  async connect(host: string, port: number): Promise<Duplex> {
    if (host === '127.0.0.1' || host === 'localhost' || host === '::1') {
      return this.connectLocal(port);
    }
    const target = host === HOST_LOOPBACK_ALIAS ? '127.0.0.1' : host;
    return new Promise((resolve, reject) => {
      const socket = netConnect({ host: target, port });
      socket.once('connect', () => resolve(socket));
      socket.once('error', (err: NodeJS.ErrnoException) =>
        reject(
          new NetError(
            err.code === 'ECONNREFUSED' ? 'ECONNREFUSED' : 'EHOSTUNREACH',
            `failed to connect to ${host}:${port}: ${err.code ?? err.message}`,
          ),
        ),
      );
    });
  }

  private async connectLocal(port: number): Promise<Duplex> {
    const accept = this.acceptLocal(port);
    if (accept !== undefined) {
      const [app, service] = socketPair();
      accept(service);
      return app;
    }
    for (const route of this.routes) {
      const opened = route.connect(`tcp:${port}`);
      if (opened !== undefined) {
        return opened.catch(() => {
          throw new NetError('ECONNREFUSED', `failed to connect to localhost:${port}: ECONNREFUSED`);
        });
      }
    }
    throw new NetError('ECONNREFUSED', `failed to connect to localhost:${port}: ECONNREFUSED`);
  }
}

/** Two connected ends of a device-local socket: what one writes, the other reads. */
function socketPair(): [Duplex, Duplex] {
  const ends: Duplex[] = [];
  const end = (other: () => Duplex): Duplex =>
    new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, callback) {
        other().push(chunk);
        callback();
      },
      final(callback) {
        other().push(null);
        callback();
      },
    });
  ends.push(
    end(() => ends[1]!),
    end(() => ends[0]!),
  );
  return [ends[0]!, ends[1]!];
}
