/**
 * The host's unix socket: created under the start lock (a stale socket replaced, a live one
 * meaning another host is running), 0600 from its first moment; and how a session's connection
 * is ended when the host quits.
 */
import { chmodSync, rmSync } from 'node:fs';
import type net from 'node:net';
import path from 'node:path';
import { withFileLock } from '../store/lock.js';
import { logger } from '../util/log.js';
import { whoListens } from './control-client.js';
import { probeSocket } from './socket-probe.js';

const log = logger('host');

/** How long sessions get to read their last lines before their connections are cut. */
const CLOSE_GRACE_MS = 1_000;

/** Why the host could not start. The CLI exits 2 with the message. */
export class HostStartError extends Error {
  constructor(
    message: string,
    readonly code:
      'ALREADY_RUNNING' | 'PATH_TOO_LONG' | 'LISTEN_FAILED' | 'BAD_PROJECT' | 'HTTP_FAILED' | 'PAGE_FAILED',
  ) {
    super(message);
    this.name = 'HostStartError';
  }
}

/** Creates the listening socket: stale sockets are replaced, a live one means another host. */
export async function listenOnSocket(server: net.Server, socketPath: string, dataDir: string): Promise<void> {
  await withFileLock(path.join(dataDir, 'host-start'), async () => {
    if (process.platform !== 'win32') {
      const state = await probeSocket(socketPath);
      if (state === 'live') {
        const who = await whoListens(socketPath);
        throw new HostStartError(
          `another droidbus host is already running${who ? ` (${who})` : ''} on ${socketPath}; it was left alone`,
          'ALREADY_RUNNING',
        );
      }
      if (state === 'stale') {
        log.info('replacing a stale host socket (its host is gone)', { socket: socketPath });
        rmSync(socketPath, { force: true });
      }
    }
    // The socket is created with the process umask; 0177 makes it 0600 from its first moment.
    const previousUmask = process.platform === 'win32' ? undefined : process.umask(0o177);
    try {
      await new Promise<void>((resolve, reject) => {
        const onError = (err: NodeJS.ErrnoException): void => {
          reject(
            err.code === 'EADDRINUSE'
              ? new HostStartError(
                  `another droidbus host is already running on ${socketPath}`,
                  'ALREADY_RUNNING',
                )
              : new HostStartError(`cannot listen on ${socketPath}: ${err.message}`, 'LISTEN_FAILED'),
          );
        };
        server.once('error', onError);
        server.listen(socketPath, () => {
          server.off('error', onError);
          resolve();
        });
      });
    } finally {
      if (previousUmask !== undefined) {
        process.umask(previousUmask);
      }
    }
    if (process.platform !== 'win32') {
      chmodSync(socketPath, 0o600);
    }
  });
}

/** Ends a connection after its pending writes, cutting it if the peer does not close in time. */
export function endConnection(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) {
      resolve();
      return;
    }
    const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.end();
  });
}
