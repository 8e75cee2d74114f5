import type { IncomingMessage, ServerResponse } from 'node:http';
import type net from 'node:net';
import { logger } from '../../util/log.js';
import { createHostServer } from '../http/http-limits.js';
import { certificateNames, exposureWarnings } from '../http/http-frontend.js';
import { HostPolicy } from '../http/host-policy.js';
import { HttpSettingsReader } from '../http/http-settings.js';
import { formatHostPort, isWildcardAddress } from '../http/listen-address.js';
import type { ListenAddress } from '../http/listen-address.js';
import { headerValue, sendJson } from '../http/request-io.js';
import { loadTls } from '../http/tls.js';
import type { TlsChoice, TlsMaterial } from '../http/tls.js';
import { cookieName } from './page-auth.js';
import { PAGE_PREFIX } from './page-handler.js';
import type { PageHandler } from './page-handler.js';

const log = logger('page');

/** Where `droidbus host` serves its page when no `--ui` is given and `--http` is off. */
export const DEFAULT_PAGE_HOST = '127.0.0.1';
export const DEFAULT_PAGE_PORT = 8766;

/** Where the page is served. */
export type PageOptions =
  /** Its own listener (`--ui [ADDR:]PORT`, or the default address). */
  | {
      mode: 'listen';
      address: ListenAddress;
      /** The default port may be taken (another host): take any free port instead. */
      fallbackToAnyPort: boolean;
      tls: TlsChoice | null;
    }
  /** Under /ui of the HTTP frontend's port (`--http` without `--ui`). */
  | { mode: 'http' };

/** Thrown when the page cannot be served (address in use, bad TLS files); the host does not start. */
export class PageStartError extends Error {}

/** What the page exposes when bound beyond loopback (the HTTP frontend's warning, named for the page). */
const PAGE_EXPOSURE = {
  service: "The droidbus host's page",
  exposed:
    'Whoever logs in (a login link, or a stolen cookie) can watch every device, build, log and crash, cancel builds, trust projects for Gradle builds, allow device folders and approve OAuth clients.',
};

/** A page served on its own listener. */
export interface PageListener {
  /** `http://127.0.0.1:8766` */
  readonly base: string;
  readonly tls: TlsMaterial | null;
  readonly warnings: string[];
  close(): Promise<void>;
}

function listenOn(server: net.Server, address: ListenAddress): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: address.host, port: address.port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Serves the page on its own port: the Host check against DNS rebinding (the HTTP frontend's
 * policy), `/` sent on to `/ui/`, and the page's handler for everything under /ui.
 */
export async function listenPage(
  handler: PageHandler,
  options: Extract<PageOptions, { mode: 'listen' }>,
): Promise<PageListener> {
  const reader = new HttpSettingsReader();
  let tls: TlsMaterial | null = null;
  if (options.tls) {
    try {
      tls = await loadTls(options.tls, certificateNames(options.address, reader.read()));
    } catch (err) {
      throw new PageStartError((err as Error).message);
    }
  }
  const address: ListenAddress = { ...options.address };
  const policy = new HostPolicy(address, tls !== null, () => {
    const s = reader.read();
    return { allowedHosts: s.allowed_hosts, allowedOrigins: [], publicUrl: null };
  });
  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!policy.hostAllowed(headerValue(req, 'host'))) {
      sendJson(res, 403, {
        error: 'forbidden',
        error_description: 'this droidbus page does not answer to that Host name',
      });
      return;
    }
    const pathname = new URL(`http://page${req.url ?? '/'}`).pathname;
    if (pathname === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(302, { Location: `${PAGE_PREFIX}/`, 'Content-Length': 0 });
      res.end();
      return;
    }
    if (!handler.owns(pathname)) {
      sendJson(res, 404, { error: 'not_found' });
      return;
    }
    await handler.handle(req, res, { secure: tls !== null, publicOrigin: null });
  };
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    onRequest(req, res).catch((err: unknown) => {
      log.error('a page request failed', { error: err instanceof Error ? err.stack : String(err) });
      if (!res.headersSent) {
        sendJson(res, 500, { error: 'server_error' });
      } else {
        res.destroy();
      }
    });
  };
  const server = createHostServer(tls, serve);

  const notes: string[] = [];
  try {
    await listenOn(server, address);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE' && options.fallbackToAnyPort) {
      const taken = address.port;
      address.port = 0;
      try {
        await listenOn(server, address);
      } catch (again) {
        throw new PageStartError(`cannot serve the page: ${(again as Error).message}`);
      }
      notes.push(`port ${taken} is taken (another droidbus host?), so the page is on another port`);
    } else {
      const where = formatHostPort(options.address.host, options.address.port);
      throw new PageStartError(
        e.code === 'EADDRINUSE'
          ? `cannot serve the page on ${where}: the address is in use (another droidbus host, or another program); choose another with --ui PORT`
          : `cannot serve the page on ${where}: ${e.message}`,
      );
    }
  }
  address.port = (server.address() as net.AddressInfo).port;
  const shownHost = isWildcardAddress(address.host) ? '127.0.0.1' : address.host;
  const base = `${tls ? 'https' : 'http'}://${formatHostPort(shownHost, address.port)}`;
  handler.setBase(base, cookieName(address.port));
  for (const note of notes) {
    log.info(note, { base });
  }
  let closing: Promise<void> | undefined;
  return {
    base,
    tls,
    warnings: exposureWarnings(address, tls !== null, PAGE_EXPOSURE),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Event streams never end by themselves.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
