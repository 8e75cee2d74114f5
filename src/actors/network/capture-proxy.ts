/**
 * One device's intercepting proxy: mockttp (HTTP Toolkit's engine) passing every request through to
 * its server and telling what went by. mockttp listens on every interface and has no option to say
 * otherwise (httptoolkit/mockttp#182: "it's listening on 0.0.0.0"); an open proxy on the network
 * would let anyone on it reach what this machine reaches, so its listen is made on the loopback only
 * (this worker thread runs nothing else that listens, and the starts are one at a time).
 */
import net from 'node:net';
import { getLocal, type CompletedRequest, type CompletedResponse, type Mockttp } from 'mockttp';
import type { Exchange } from './exchanges.js';

/** What a capture keeps of one device's traffic, newest last. */
export interface CaptureLog {
  exchanges: Exchange[];
  byId: Map<string, Exchange>;
  /** The launch requests follow (`launched com.example.app`) and when. */
  lastLaunch: { text: string; at: number } | null;
  /** Told of each exchange once it has ended (answered, failed, refused). */
  ended?: (e: Exchange) => void;
}

/** Requests kept per device; the oldest go first. */
export const MAX_KEPT = 500;
/** Bytes of each body kept. */
const MAX_BODY = 1024 * 1024;

let starting: Promise<unknown> = Promise.resolve();

/** Starts mockttp listening on 127.0.0.1 only. */
async function startOnLoopback(mock: Mockttp): Promise<void> {
  const run = starting.then(async () => {
    const listen = net.Server.prototype.listen;
    const call = listen as (this: net.Server, ...args: unknown[]) => net.Server;
    net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
      const [port, second] = args;
      return typeof port === 'number' && (second === undefined || typeof second === 'function')
        ? call.call(this, port, '127.0.0.1', ...(second === undefined ? [] : [second]))
        : call.apply(this, args);
    } as typeof listen;
    try {
      await mock.start({ startPort: 18_000, endPort: 18_999 });
    } finally {
      net.Server.prototype.listen = listen;
    }
  });
  starting = run.catch(() => undefined);
  await run;
}

function kept(buffer: Buffer): Buffer {
  return buffer.length > MAX_BODY ? buffer.subarray(0, MAX_BODY) : buffer;
}

/** The proxy for one device, recording into `log`. */
export async function startCaptureProxy(
  log: CaptureLog,
  ca: { key: string; cert: string },
): Promise<Mockttp> {
  // HTTPS is intercepted with droidbus's CA: read when the app trusts it, refused (and recorded as
  // such) when it does not.
  const mock = getLocal({
    recordTraffic: false,
    maxBodySize: MAX_BODY,
    https: { key: ca.key, cert: ca.cert },
  });
  await startOnLoopback(mock);
  // A developer's own server on this machine often has a self-signed certificate: its errors are
  // not the app's (the app talks to the proxy); any other host's certificate is checked.
  await mock.forAnyRequest().thenPassThrough({ ignoreHostHttpsErrors: ['localhost', '127.0.0.1'] });
  const add = (e: Exchange): void => {
    log.exchanges.push(e);
    log.byId.set(e.id, e);
    for (const old of log.exchanges.splice(0, Math.max(0, log.exchanges.length - MAX_KEPT))) {
      log.byId.delete(old.id);
    }
  };
  await mock.on('request', (req: CompletedRequest) => {
    const at = req.timingEvents.startTime;
    const launch = log.lastLaunch;
    add({
      id: req.id,
      startedAt: at,
      method: req.method,
      url: req.url,
      requestHeaders: req.rawHeaders,
      requestBody: kept(req.body.buffer),
      status: null,
      responseHeaders: null,
      responseBody: null,
      endedAt: null,
      error: null,
      after:
        launch !== null && launch.at <= at
          ? `${launch.text} ${((at - launch.at) / 1000).toFixed(1)} s before`
          : null,
    });
  });
  await mock.on('response', (res: CompletedResponse) => {
    const e = log.byId.get(res.id);
    if (e === undefined) {
      return;
    }
    e.status = res.statusCode;
    e.responseHeaders = res.rawHeaders;
    e.responseBody = kept(res.body.buffer);
    const t = res.timingEvents;
    e.endedAt = t.startTime + ((t.responseSentTimestamp ?? t.startTimestamp) - t.startTimestamp);
    log.ended?.(e);
  });
  await mock.on('abort', (req) => {
    const e = log.byId.get(req.id);
    if (e !== undefined && e.status === null) {
      e.error = req.error?.message ?? 'the connection closed before a response';
      e.endedAt = Date.now();
      log.ended?.(e);
    }
  });
  await mock.on('tls-client-error', (failure) => {
    const host = failure.tlsMetadata?.sniHostname ?? failure.destination?.hostname ?? 'an unnamed host';
    const refused: Exchange = {
      id: `tls-${failure.timingEvents.startTime}-${Math.random().toString(36).slice(2, 8)}`,
      startedAt: failure.timingEvents.startTime,
      method: 'CONNECT',
      url: `https://${host}/`,
      requestHeaders: [],
      requestBody: Buffer.alloc(0),
      status: null,
      responseHeaders: null,
      responseBody: null,
      endedAt: Date.now(),
      error: `TLS handshake refused by the app (${failure.failureCause}): it does not trust droidbus's CA — pinning, or no user CAs in its network security config`,
      after: null,
    };
    add(refused);
    log.ended?.(refused);
  });
  return mock;
}
