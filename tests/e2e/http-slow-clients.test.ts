/**
 * Slow clients are cut (issue 56): a peer that sends half its headers, or its headers and half a body,
 * and then nothing is closed within the host's timeouts (shortened here through the environment),
 * one address cannot hold more than its share of sockets, and a valid request still answers
 * meanwhile. The built host as a real process, raw sockets.
 */
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { shortTempDir } from '../helpers/host.js';
import { INITIALIZE, mcpHeaders, rawRequest, startHttpHost, type HttpHost } from '../helpers/http-host.js';

const HEADERS_MS = 1_500;
const REQUEST_MS = 2_500;
const CAP = 6;
const home = shortTempDir('db-slow-');
let host: HttpHost;

beforeAll(async () => {
  host = await startHttpHost({
    env: {
      DROIDBUS_HOME: home.dir,
      DROIDBUS_HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      DROIDBUS_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
      DROIDBUS_HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(CAP),
    },
  });
});
afterAll(async () => {
  await host?.stop();
  home.remove();
});

/** A socket that sends `bytes` and then nothing; resolves how long it stayed open (ms), or null past `limitMs`. */
function openFor(bytes: string, limitMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(host.port, '127.0.0.1', () => socket.write(bytes));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, limitMs);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(performance.now() - started);
    });
    socket.resume();
  });
}

it('closes a peer that never finishes its headers, or its body, within the timeouts; a valid call answers meanwhile', async () => {
  const slowHeaders = openFor('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 15_000);
  const slowBody = openFor(
    'POST /token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ngrant_type=',
    15_000,
  );
  const valid = await rawRequest(host.mcpUrl, { method: 'POST', headers: mcpHeaders(), body: INITIALIZE });
  expect(valid.status).toBeGreaterThanOrEqual(200);
  expect(valid.status).toBeLessThan(500);
  // Node checks the timeouts once a second.
  const headersOpen = await slowHeaders;
  expect(headersOpen).not.toBeNull();
  expect(headersOpen!).toBeLessThan(HEADERS_MS + 2_500);
  const bodyOpen = await slowBody;
  expect(bodyOpen).not.toBeNull();
  expect(bodyOpen!).toBeLessThan(REQUEST_MS + 2_500);
});

it('holds at most its cap of sockets from one address', async () => {
  const sockets: net.Socket[] = [];
  const closed: boolean[] = [];
  try {
    for (let i = 0; i < CAP + 2; i++) {
      const s = net.connect(host.port, '127.0.0.1');
      const k = i;
      closed[k] = false;
      s.on('error', () => undefined);
      s.on('close', () => (closed[k] = true));
      sockets.push(s);
      await new Promise<void>((resolve) => s.once('connect', () => resolve()));
    }
    const deadline = Date.now() + 5_000;
    while (closed.filter(Boolean).length < 2 && Date.now() < deadline) {
      await new Promise<void>((resolve) => setTimeout(resolve, 50));
    }
    expect(closed.slice(0, CAP).some(Boolean)).toBe(false);
    expect(closed.slice(CAP)).toEqual([true, true]);
  } finally {
    sockets.forEach((s) => s.destroy());
  }
});
