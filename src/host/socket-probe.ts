import net from 'node:net';

/** What is at the host socket's path. */
export type SocketState = 'live' | 'stale' | 'absent';

/**
 * Connects to `socketPath` to learn whether a host listens there: `live` when something accepts,
 * `stale` when a file is there that nobody listens on (a host that crashed), `absent` when there
 * is nothing. A connection that neither opens nor fails in time counts as live: never steal a
 * socket from a host that might still be there.
 */
export function probeSocket(socketPath: string, timeoutMs = 1_000): Promise<SocketState> {
  return new Promise((resolve) => {
    const socket = net.createConnection(socketPath);
    const done = (state: SocketState): void => {
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.destroy();
      resolve(state);
    };
    const timer = setTimeout(() => done('live'), timeoutMs);
    socket.once('connect', () => done('live'));
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') {
        done('absent');
      } else if (err.code === 'ECONNREFUSED' || err.code === 'ENOTSOCK') {
        done('stale');
      } else {
        // EACCES and friends: something is there that we may not touch.
        done('live');
      }
    });
  });
}
