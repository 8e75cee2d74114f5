/**
 * Evidence: an app's HTTP request as Android's platform stack (HttpURLConnection / OkHttp with the
 * default ProxySelector) makes it — through the global proxy when one is set (plain HTTP in absolute
 * form, `Proxy-Connection`-free; HTTPS by `CONNECT host:port` then TLS inside the tunnel, RFC 9110
 * §9.3.6), else straight to the server (network.ts says how the device reaches it). Real sockets
 * and real HTTP: a proxy or server on the host sees what it would from a phone.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { createHash, X509Certificate } from 'node:crypto';
import { connect as tlsConnect, type DetailedPeerCertificate, type TLSSocket } from 'node:tls';
import type { DeviceNetwork } from './network.js';
import type { AppTrust } from './trust-store.js';

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

/** A tunnel through the proxy (`CONNECT host:port`); rejects when the proxy refuses it. */
function tunnel(socket: Duplex, authority: string): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const done = (): void => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.pause();
    };
    const onEnd = (): void => {
      done();
      reject(new Error('java.io.IOException: the proxy closed the connection'));
    };
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        return;
      }
      done();
      if (end + 4 < head.length) {
        socket.unshift(head.subarray(end + 4));
      }
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.toString('latin1'))?.[1];
      if (status === '200') {
        resolve(socket);
      } else {
        reject(new Error(`java.io.IOException: Unexpected response code for CONNECT: ${status ?? '?'}`));
      }
    };
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  });
}

/** The peer's chain, leaf first. */
function chainOf(tls: TLSSocket): X509Certificate[] {
  const out: X509Certificate[] = [];
  let cert: DetailedPeerCertificate | undefined = tls.getPeerCertificate(true);
  const seen = new Set<string>();
  while (cert?.raw !== undefined && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    out.push(new X509Certificate(cert.raw));
    cert = cert.issuerCertificate;
  }
  return out;
}

/** A pin-set's verdict on a verified chain (NetworkSecurityTrustManager.checkPins). */
function pinsPass(chain: X509Certificate[], trust: AppTrust): boolean {
  if (trust.pins.length === 0) {
    return true;
  }
  const spki = (c: X509Certificate): string =>
    createHash('sha256')
      .update(c.publicKey.export({ type: 'spki', format: 'der' }))
      .digest('base64');
  if (chain.some((c) => trust.pins.includes(spki(c)))) {
    return true;
  }
  const top = chain.at(-1);
  return (
    top !== undefined &&
    trust.pinOverrides.some((pem) => {
      const ca = new X509Certificate(pem);
      return ca.fingerprint256 === top.fingerprint256 || top.checkIssued(ca);
    })
  );
}

/**
 * TLS over `socket` as the app's stack does it: the certificate must chain to one of the CAs the
 * app trusts for this host (trust-store.ts), pass its pin-set, and name the host; otherwise the
 * handshake fails with the exception Android apps report.
 */
function secure(socket: Duplex, host: string, trust: AppTrust): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    const tls = tlsConnect({
      socket: socket as never,
      ...(isIP(host) === 0 ? { servername: host } : {}),
      host,
      ca: [...trust.cas],
      rejectUnauthorized: true,
    });
    tls.once('secureConnect', () => {
      if (pinsPass(chainOf(tls), trust)) {
        resolve(tls);
        return;
      }
      tls.destroy();
      reject(
        new Error(
          'javax.net.ssl.SSLHandshakeException: java.security.cert.CertificateException: Pin verification failed',
        ),
      );
    });
    tls.once('error', (err: NodeJS.ErrnoException) => {
      socket.destroy();
      reject(
        new Error(
          err.code === 'ERR_TLS_CERT_ALTNAME_INVALID'
            ? `javax.net.ssl.SSLPeerUnverifiedException: Hostname ${host} not verified`
            : /CERT|certificate|self.signed|issuer/i.test(`${err.code ?? ''} ${err.message}`)
              ? 'javax.net.ssl.SSLHandshakeException: java.security.cert.CertPathValidatorException: Trust anchor for certification path not found.'
              : `javax.net.ssl.SSLHandshakeException: ${err.message}`,
        ),
      );
    });
  });
}

/**
 * One request as the app's HTTP stack makes it: plain HTTP, or HTTPS trusting what `trust` says
 * for the host, through the global proxy when one is set.
 */
export async function appRequest(
  net: DeviceNetwork,
  req: AppRequest,
  trust: (host: string) => Promise<AppTrust>,
): Promise<AppResponse> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return { ok: false, error: `java.net.MalformedURLException: ${req.url}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      ok: false,
      error: `java.net.MalformedURLException: unknown protocol: ${url.protocol.slice(0, -1)}`,
    };
  }
  const https = url.protocol === 'https:';
  const port = Number(url.port || (https ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const proxy = net.proxy;
  let socket: Duplex;
  try {
    socket = await (proxy !== null ? net.connect(proxy.host, proxy.port) : net.connect(host, port));
  } catch (err) {
    return {
      ok: false,
      error: `java.net.ConnectException: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  try {
    if (!https) {
      return await send(socket, req, proxy !== null ? url.href : `${url.pathname}${url.search}`, url.host);
    }
    const tunnelled = proxy !== null ? await tunnel(socket, `${host}:${port}`) : socket;
    return await send(
      await secure(tunnelled, host, await trust(host)),
      req,
      `${url.pathname}${url.search}`,
      url.host,
    );
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}
