/**
 * Evidence: an app's HTTP request as Android's platform stack (HttpURLConnection / OkHttp with the
 * default ProxySelector) makes it — through the global proxy when one is set (plain HTTP in absolute
 * form, `Proxy-Connection`-free; HTTPS by `CONNECT host:port` then TLS inside the tunnel, RFC 9110
 * §9.3.6), else straight to the server (network.ts says how the device reaches it). Real sockets
 * and real HTTP: a proxy or server on the host sees what it would from a phone.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import type { DeviceNetwork } from './network.js';
import { globalProxy } from './network.js';

export interface AppRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What the app got back: a response, or the error its HTTP stack would throw. */
export type AppResponse =
  { ok: true; status: number; headers: IncomingHttpHeaders; body: string } | { ok: false; error: string };

/** How long an app waits for an answer (OkHttp's default read timeout). */
const READ_TIMEOUT_MS = 10_000;

function send(socket: Duplex, req: AppRequest, path: string, host: string): Promise<AppResponse> {
  return new Promise((resolve) => {
    const body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
    const r = httpRequest(
      {
        createConnection: () => socket as never,
        method: req.method,
        path,
        headers: {
          Host: host,
          'User-Agent': 'okhttp/4.12.0',
          ...req.headers,
          ...(body !== undefined ? { 'Content-Length': String(body.length) } : {}),
          Connection: 'close',
        },
        timeout: READ_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            ok: true,
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', (err) => resolve({ ok: false, error: err.message }));
      },
    );
    r.on('timeout', () => r.destroy(new Error('java.net.SocketTimeoutException: timeout')));
    r.on('error', (err) => resolve({ ok: false, error: err.message }));
    r.end(body);
  });
}

/** One request as the app's HTTP stack makes it (plain HTTP; HTTPS is refused as unsupported here). */
export async function appRequest(
  net: DeviceNetwork,
  proxySetting: string | undefined,
  req: AppRequest,
): Promise<AppResponse> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return { ok: false, error: `java.net.MalformedURLException: ${req.url}` };
  }
  if (url.protocol !== 'http:') {
    return { ok: false, error: `java.net.ProtocolException: ${url.protocol} is not modelled` };
  }
  const port = Number(url.port || 80);
  const proxy = globalProxy(proxySetting);
  try {
    if (proxy !== null) {
      const socket = await net.connect(proxy.host, proxy.port);
      return await send(socket, req, url.href, url.host);
    }
    const socket = await net.connect(url.hostname, port);
    return await send(socket, req, `${url.pathname}${url.search}`, url.host);
  } catch (err) {
    return {
      ok: false,
      error: `java.net.ConnectException: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}
