/**
 * Evidence: packages/modules/adb/SERVICES.TXT `tcp:<port>` and daemon/services.cpp (a stream joined to
 * a TCP port on the device).
 */
import { Duplex } from 'node:stream';
import type { AdbdStream } from './stream.js';

/**
 * An adb stream as a socket: what the other end writes arrives as the socket's data, what is written
 * to the socket goes out as WRTEs; either side closing closes both.
 */
export function streamSocket(stream: AdbdStream): Duplex {
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
  // The other end closing ends the inbox: the socket reads what arrived before the CLSE, then ends
  // (destroying it at once would lose a response whose last WRTE came just before the CLSE).
  return socket;
}

/** A `tcp:PORT` stream handed to the service listening there, as a socket. */
export async function runTcpService(stream: AdbdStream, accept: (socket: Duplex) => void): Promise<void> {
  const socket = streamSocket(stream);
  const closed = new Promise<void>((resolve) => {
    socket.once('close', resolve);
    stream.abort.signal.addEventListener('abort', () => resolve());
  });
  accept(socket);
  await closed;
}
