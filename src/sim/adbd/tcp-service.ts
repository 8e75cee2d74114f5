/**
 * Evidence: packages/modules/adb/SERVICES.TXT `tcp:<port>` and daemon/services.cpp (a stream joined to
 * a TCP port on the device).
 */
import { Duplex } from 'node:stream';
import type { AdbdStream } from './stream.js';

/**
 * A `tcp:PORT` stream as a socket for a service on the device: what the client writes arrives as
 * the socket's data, what the service writes goes back as WRTEs; either side closing closes both.
 */
export async function runTcpService(stream: AdbdStream, accept: (socket: Duplex) => void): Promise<void> {
  let pumping = false;
  const socket = new Duplex({
    read() {
      if (pumping) {
        return;
      }
      pumping = true;
      void (async () => {
        for (;;) {
          const chunk = await stream.inbox.next();
          if (chunk === undefined) {
            socket.push(null);
            return;
          }
          if (!socket.push(chunk)) {
            pumping = false;
            return;
          }
        }
      })();
    },
    write(chunk: Buffer, _encoding, callback) {
      stream.write(chunk).then(() => callback(), callback);
    },
    final(callback) {
      stream.end();
      callback();
    },
    destroy(err, callback) {
      stream.end();
      callback(err);
    },
  });
  // What node:http expects of a socket beyond a Duplex.
  Object.assign(socket, { setTimeout: () => socket, setNoDelay: () => socket, setKeepAlive: () => socket });
  const closed = new Promise<void>((resolve) => {
    socket.once('close', resolve);
    stream.abort.signal.addEventListener('abort', () => {
      socket.destroy();
      resolve();
    });
  });
  accept(socket);
  await closed;
}
