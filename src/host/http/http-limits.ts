/**
 * What every HTTP listener of the host (MCP, OAuth, the page) allows a peer (issue 56): the request
 * line and headers within HEADERS_TIMEOUT_MS, the whole request — body included — within
 * REQUEST_TIMEOUT_MS (a response may stream for as long as it likes: an SSE stream's request is
 * received at once), checked every second rather than Node's default 30 s, and at most
 * MAX_CONNECTIONS_PER_ADDRESS sockets open from one address. A peer that trickles bytes is cut.
 * DROIDBUS_HTTP_HEADERS_TIMEOUT_MS and DROIDBUS_HTTP_REQUEST_TIMEOUT_MS shorten them (tests).
 */
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import { logger } from '../../util/log.js';
import type { TlsMaterial } from './tls.js';

const log = logger('http');

const fromEnv = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

export const HEADERS_TIMEOUT_MS = fromEnv('DROIDBUS_HTTP_HEADERS_TIMEOUT_MS', 10_000);
export const REQUEST_TIMEOUT_MS = fromEnv('DROIDBUS_HTTP_REQUEST_TIMEOUT_MS', 30_000);
export const MAX_CONNECTIONS_PER_ADDRESS = fromEnv('DROIDBUS_HTTP_MAX_CONNECTIONS_PER_ADDRESS', 64);
/** How often Node checks the two timeouts (its default, 30 s, let slow headers live 35–40 s). */
export const CHECK_INTERVAL_MS = 1_000;

/**
 * A host listener: HTTPS with `tls` (TLS 1.2 at least), else HTTP, with the timeouts and the
 * per-address cap. Slow peers are cut (headers, whole requests); a response, an event stream, may last.
 */
export function createHostServer(tls: TlsMaterial | null, handler: http.RequestListener): http.Server {
  const timing = { connectionsCheckingInterval: CHECK_INTERVAL_MS };
  const server = tls
    ? https.createServer({ cert: tls.cert, key: tls.key, minVersion: 'TLSv1.2', ...timing }, handler)
    : http.createServer(timing, handler);
  limitHttpServer(server);
  return server;
}

/** Applies the timeouts and the per-address cap to a server. */
function limitHttpServer(server: http.Server): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  const open = new Map<string, number>();
  server.on('connection', (socket: net.Socket) => {
    const who = socket.remoteAddress ?? '?';
    const count = (open.get(who) ?? 0) + 1;
    if (count > MAX_CONNECTIONS_PER_ADDRESS) {
      log.warn('refused a connection: too many open from one address', { address: who });
      socket.destroy();
      return;
    }
    open.set(who, count);
    socket.once('close', () => {
      const left = (open.get(who) ?? 1) - 1;
      if (left <= 0) {
        open.delete(who);
      } else {
        open.set(who, left);
      }
    });
  });
}
