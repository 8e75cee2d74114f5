import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BusClient } from '../../bus/client.js';
import { serialSchema } from '../../bus/messages/devices.js';
import { logger } from '../../util/log.js';
import { VERSION } from '../../version.js';
import { headerValue, readBody, sendHtml, sendJson } from '../http/request-io.js';
import { PageAuth, clearedCookie, readCookie, sessionCookie } from './page-auth.js';
import { pageRequest, pageRequestTypes, pageTopics } from './page-bus.js';
import { serveEventStream } from './page-events.js';
import { loadPageFiles } from './page-static.js';
import type { StaticFile } from './page-static.js';
import { loginPage, notBuiltPage, refusedPage } from './page-html.js';

const log = logger('page');

/** The page's URL prefix, on its own port and under the HTTP frontend alike. */
export const PAGE_PREFIX = '/ui';
/** True for a path under the page's prefix. */
export function isPagePath(pathname: string): boolean {
  return pathname === PAGE_PREFIX || pathname.startsWith(`${PAGE_PREFIX}/`);
}

/** A bus request's body is small JSON. */
const MAX_BODY_BYTES = 256 * 1024;
/** Screenshots for the page are scaled to fit this (the device actor scales in its pool). */
const SCREENSHOT_MAX_DIMENSION = 1024;

/**
 * The page may run only its own script and style, talk only to its own origin, and be framed by
 * nobody. Screenshots arrive as blob: URLs made from the API's PNG.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
};

/** The header the page's script sends with every bus call (a cross-site form cannot). */
export const PAGE_HEADER = 'x-droidbus-page';

/** How the request reached the page. */
export interface PageRequestContext {
  /** The request arrived over TLS: the cookie is Secure. */
  secure: boolean;
  /** Another origin the page is served at (the public URL behind a proxy), or null. */
  publicOrigin: string | null;
}

/**
 * The host's page: the built front end, its login, and its API — one bus endpoint for requests
 * (`POST /ui/api/bus`, limited to `pageRequestTypes()`), one server-sent-events stream of bus
 * events, and screenshots. Every request but the login needs the session cookie; every API call
 * also needs the page's own Origin (and `Sec-Fetch-Site: same-origin` where the browser sends it).
 * The Host header was checked by the server that handed the request over.
 */
export class PageHandler {
  readonly auth = new PageAuth();
  private readonly files: Map<string, StaticFile>;
  private readonly allowed: ReadonlySet<string>;
  private base: string | null = null;
  private cookie = 'droidbus_page';

  constructor(
    private readonly bus: BusClient,
    files: Map<string, StaticFile> = loadPageFiles(),
  ) {
    this.files = files;
    this.allowed = new Set(pageRequestTypes());
    if (!files.has('index.html')) {
      log.warn('the page is not built (dist/web is missing): run npm run build');
    }
  }

  /** Where the page is served (`http://127.0.0.1:8766`), known once its server listens. */
  setBase(base: string, cookieName: string): void {
    this.base = base.replace(/\/+$/, '');
    this.cookie = cookieName;
  }

  /** The page's URL. */
  get url(): string {
    return `${this.base ?? ''}${PAGE_PREFIX}/`;
  }

  /** A fresh one-time login link. */
  newLoginLink(): { url: string; expires_at: string } {
    const { token, expiresAt } = this.auth.newLink();
    return {
      url: `${this.base ?? ''}${PAGE_PREFIX}/login?t=${token}`,
      expires_at: new Date(expiresAt).toISOString(),
    };
  }

  /** True for a path this handler serves. */
  owns(pathname: string): boolean {
    return isPagePath(pathname);
  }

  /** Serves one request under /ui. */
  async handle(req: IncomingMessage, res: ServerResponse, ctx: PageRequestContext): Promise<void> {
    const url = new URL(`http://page${req.url ?? '/'}`);
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (path === PAGE_PREFIX) {
      res.writeHead(308, { ...SECURITY_HEADERS, Location: `${PAGE_PREFIX}/`, 'Content-Length': 0 });
      res.end();
      return;
    }
    if (path === `${PAGE_PREFIX}/login`) {
      this.login(req, res, url, ctx);
      return;
    }
    const sid = readCookie(headerValue(req, 'cookie'), this.cookie);
    const api = path.startsWith(`${PAGE_PREFIX}/api/`);
    if (!this.auth.check(sid)) {
      if (api) {
        sendJson(
          res,
          401,
          { error: 'unauthorized', message: 'log in with the link droidbus ui prints' },
          SECURITY_HEADERS,
        );
      } else {
        sendHtml(res, 401, refusedPage(), {
          ...SECURITY_HEADERS,
          'Content-Type': 'text/html; charset=utf-8',
          'Cache-Control': 'no-store',
        });
      }
      return;
    }
    const problem = this.crossSite(req, ctx, api, method);
    if (problem) {
      log.info('refused a page request', { path, problem });
      sendJson(res, 403, { error: 'forbidden', message: problem }, SECURITY_HEADERS);
      return;
    }
    if (path === `${PAGE_PREFIX}/logout` && method === 'POST') {
      this.auth.end(sid);
      res.writeHead(204, { ...SECURITY_HEADERS, 'Set-Cookie': clearedCookie(this.cookie, ctx.secure) });
      res.end();
      return;
    }
    if (api) {
      await this.api(req, res, url, method);
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      sendJson(res, 405, { error: 'method_not_allowed' }, SECURITY_HEADERS);
      return;
    }
    this.static(req, res, path.slice(PAGE_PREFIX.length + 1) || 'index.html');
  }

  /**
   * Why a logged-in request is refused as cross-site, or null. The cookie is SameSite=Strict, so a
   * cross-site request carries none; these checks stop what SameSite does not (a sibling port on
   * the same host name is "same-site").
   */
  private crossSite(
    req: IncomingMessage,
    ctx: PageRequestContext,
    api: boolean,
    method: string,
  ): string | null {
    const site = headerValue(req, 'sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && !(site === 'none' && !api && method === 'GET')) {
      return `a ${site} request may not use the droidbus page`;
    }
    const origin = headerValue(req, 'origin');
    const own = `${ctx.secure ? 'https' : 'http'}://${(headerValue(req, 'host') ?? '').toLowerCase()}`;
    if (origin !== undefined && origin !== own && origin !== ctx.publicOrigin) {
      return 'another origin may not use the droidbus page';
    }
    if (method === 'POST' && (origin === undefined || headerValue(req, PAGE_HEADER) !== '1')) {
      return 'a change needs the page itself (its Origin and header)';
    }
    return null;
  }

  private login(req: IncomingMessage, res: ServerResponse, url: URL, ctx: PageRequestContext): void {
    const headers = {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
    };
    const token = url.searchParams.get('t') ?? '';
    const sid =
      req.method === 'GET' && token.length > 0 && token.length < 200 ? this.auth.redeem(token) : null;
    if (!sid) {
      sendHtml(
        res,
        401,
        refusedPage('This login link was already used, has expired, or is not one the host gave.'),
        headers,
      );
      return;
    }
    log.info('a browser logged in to the page');
    const cookie = sessionCookie(this.cookie, sid, ctx.secure);
    // A link opened cold (typed, pasted, `chromium URL`, a terminal's open: Sec-Fetch-Site none) or
    // from the page itself goes straight on with a 303: the redirect's request carries the new
    // SameSite=Strict cookie. One followed from another site would arrive without it (a chain that
    // starts cross-site is cross-site), so it gets a page whose plain link (and meta refresh) is a
    // same-origin navigation — no script either way.
    const site = headerValue(req, 'sec-fetch-site');
    if (site === 'cross-site' || site === 'same-site') {
      sendHtml(res, 200, loginPage(), { ...headers, 'Set-Cookie': cookie });
      return;
    }
    res.writeHead(303, {
      ...headers,
      'Set-Cookie': cookie,
      Location: `${PAGE_PREFIX}/`,
      'Content-Length': 0,
    });
    res.end();
  }

  private async api(req: IncomingMessage, res: ServerResponse, url: URL, method: string): Promise<void> {
    const route = url.pathname.slice(`${PAGE_PREFIX}/api/`.length);
    const noStore = { ...SECURITY_HEADERS, 'Cache-Control': 'no-store' };
    if (route === 'bus' && method === 'POST') {
      if (!(headerValue(req, 'content-type') ?? '').startsWith('application/json')) {
        sendJson(res, 415, { error: 'unsupported_media_type' }, noStore);
        return;
      }
      const body = await readBody(req, MAX_BODY_BYTES);
      if (body === 'too_large') {
        sendJson(res, 413, { error: 'too_large' }, noStore);
        return;
      }
      let parsed: { type?: unknown; payload?: unknown };
      try {
        parsed = JSON.parse(body.toString('utf8')) as { type?: unknown; payload?: unknown };
      } catch {
        sendJson(res, 400, { error: 'bad_json' }, noStore);
        return;
      }
      const abort = new AbortController();
      res.once('close', () => abort.abort());
      const answer = await pageRequest(this.bus, this.allowed, parsed.type, parsed.payload, abort.signal);
      sendJson(res, 200, answer, noStore);
      return;
    }
    if (route === 'events' && method === 'GET') {
      await serveEventStream(res, this.bus, pageTopics(), SECURITY_HEADERS);
      return;
    }
    if (route === 'meta' && method === 'GET') {
      sendJson(res, 200, { version: VERSION, requests: [...this.allowed], topics: pageTopics() }, noStore);
      return;
    }
    if (route === 'screenshot' && method === 'GET') {
      await this.screenshot(res, url, noStore);
      return;
    }
    sendJson(res, 404, { error: 'not_found' }, noStore);
  }

  private async screenshot(res: ServerResponse, url: URL, headers: Record<string, string>): Promise<void> {
    const serial = serialSchema.safeParse(url.searchParams.get('serial'));
    if (!serial.success) {
      sendJson(
        res,
        400,
        { error: 'bad_serial', message: 'serial is a device serial as adb lists it' },
        headers,
      );
      return;
    }
    try {
      const shot = await this.bus.request('device.screenshot', {
        serial: serial.data,
        max_dimension: SCREENSHOT_MAX_DIMENSION,
        // A person looks at this one: lossless (the model's default, JPEG, counts tokens).
        format: 'png',
      });
      const image = Buffer.from(shot.png.buffer, shot.png.byteOffset, shot.png.byteLength);
      res.writeHead(200, { ...headers, 'Content-Type': shot.mime, 'Content-Length': image.length });
      res.end(image);
    } catch (err) {
      const e = err as { code?: string; message?: string };
      sendJson(res, 502, { error: e.code ?? 'FAILED', message: e.message ?? String(err) }, headers);
    }
  }

  private static(req: IncomingMessage, res: ServerResponse, rel: string): void {
    const file = this.files.get(rel);
    if (!file) {
      if (!this.files.has('index.html')) {
        sendHtml(res, 503, notBuiltPage(), {
          ...SECURITY_HEADERS,
          'Content-Type': 'text/html; charset=utf-8',
        });
        return;
      }
      sendJson(res, 404, { error: 'not_found' }, SECURITY_HEADERS);
      return;
    }
    const headers: Record<string, string | number> = {
      ...SECURITY_HEADERS,
      'Content-Type': file.type,
      ETag: file.etag,
      'Cache-Control': file.immutable ? 'private, max-age=31536000, immutable' : 'no-store',
    };
    if (headerValue(req, 'if-none-match') === file.etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Length': file.body.length });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }
}
