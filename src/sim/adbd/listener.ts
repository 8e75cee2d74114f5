/**
 * Evidence: an emulator's adbd listens on 5555+2N and is announced with `host:emulator:PORT`
 * (packages/modules/adb/SERVICES.TXT, client/transport_local.cpp); notes/adb-facts.md.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { AdbdConnection, type ConnectionOptions } from './connection.js';

/**
 * A TCP port on which a simulated device accepts adb server connections. It listens before the
 * device exists (the device's serial names the port), and refuses connections until `attach`.
 */
export class AdbdListener {
  private options: Omit<ConnectionOptions, 'onReady'> | undefined;
  private readonly connections = new Set<AdbdConnection>();
  private readyWaiters: ((state: 'online' | 'unauthorized') => void)[] = [];
  private closed = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {
    server.on('connection', (socket) => this.accept(socket));
  }

  /** Listens on host:port (port 0 picks a free one). Rejects with EADDRINUSE when taken. */
  static listen(host: string, port: number): Promise<AdbdListener> {
    return new Promise((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen({ host, port, exclusive: true }, () => {
        server.off('error', reject);
        const address = server.address();
        const actual = typeof address === 'object' && address ? address.port : port;
        resolve(new AdbdListener(server, actual));
      });
    });
  }

  /** Starts serving a device on the connections that come in. */
  attach(options: Omit<ConnectionOptions, 'onReady'>): void {
    this.options = options;
  }

  /** True while some connection from the server completed its handshake. */
  get online(): boolean {
    for (const c of this.connections) {
      if (c.state === 'online' || c.state === 'unauthorized') {
        return true;
      }
    }
    return false;
  }

  /** Resolves when a connection completes its handshake (at once if one already has). */
  waitReady(timeoutMs: number): Promise<'online' | 'unauthorized'> {
    for (const c of this.connections) {
      if (c.state === 'online' || c.state === 'unauthorized') {
        return Promise.resolve(c.state);
      }
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.readyWaiters = this.readyWaiters.filter((w) => w !== waiter);
        reject(
          new Error(
            `the adb server did not complete the handshake on port ${this.port} within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      const waiter = (state: 'online' | 'unauthorized'): void => {
        clearTimeout(timer);
        resolve(state);
      };
      this.readyWaiters.push(waiter);
    });
  }

  /** Drops every connection (the server sees the device vanish) but keeps listening. */
  dropConnections(): void {
    for (const c of this.connections) {
      c.close();
    }
    this.connections.clear();
  }

  /** Stops listening and drops every connection. */
  close(): Promise<void> {
    this.closed = true;
    this.dropConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    if (!this.options || this.closed) {
      socket.destroy();
      return;
    }
    const connection = new AdbdConnection(socket, {
      ...this.options,
      onReady: (state) => {
        const waiters = this.readyWaiters;
        this.readyWaiters = [];
        for (const w of waiters) {
          w(state);
        }
      },
    });
    this.connections.add(connection);
    socket.on('close', () => this.connections.delete(connection));
  }
}
