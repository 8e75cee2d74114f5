import type http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { BusError } from '../../bus/errors.js';
import type { Origin } from '../../bus/origin.js';
import { startEventLoopProbe } from '../../util/event-loop.js';
import { logger } from '../../util/log.js';
import { createHostServer } from './http-limits.js';
import type { HostHandlers } from '../host-endpoint.js';
import { AuthGate, authModeOf } from './auth-gate.js';
import type { AuthMode } from './auth-gate.js';
import { FailureLimiter } from './failure-limiter.js';
import { HostPolicy, splitHostHeader } from './host-policy.js';
import { HttpSessions } from './http-sessions.js';
import type { HttpSessionDeps } from './http-sessions.js';
import { HttpSettingsReader, ensureBearerToken } from './http-settings.js';
import type { HttpSettings } from './http-settings.js';
import { formatHostPort, isLoopbackAddress, isWildcardAddress } from './listen-address.js';
import type { ListenAddress } from './listen-address.js';
import { OAuthClientStore } from './oauth/oauth-clients.js';
import { OAuthServer } from './oauth/oauth-server.js';
import { loadOrCreateOAuthSecret } from './oauth/oauth-secret.js';
import { OAuthTokens } from './oauth/oauth-tokens.js';
import { clientAddress, headerValue, sendJson, sendJsonRpcError } from './request-io.js';
import { loadTls } from './tls.js';
import type { TlsChoice, TlsMaterial } from './tls.js';

const log = logger('http');

/** How long requests in flight get to finish when the host quits. */
const CLOSE_GRACE_MS = 1_000;

/** `droidbus host --http …`. */
export interface HttpFrontendOptions {
  address: ListenAddress;
  /** HTTPS with these, or plain HTTP (null). */
  tls: TlsChoice | null;
}

/** What the frontend needs from the host. */
export interface HttpFrontendDeps extends Omit<HttpSessionDeps, 'settings' | 'probe'> {
  /** A line for the host's person (the CLI prints it): a consent page waits for approval. */
  notify(line: string): void;
  /** The host's page, served under its paths (/ui) on this port when it has none of its own. */
  page?: MountedPage;
}

/** Another service on the HTTP frontend's port (the host's page), after the Host check. */
export interface MountedPage {
  owns(pathname: string): boolean;
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    ctx: { secure: boolean; publicOrigin: string | null },
  ): Promise<void>;
}

/** A running HTTP frontend. */
export interface HttpFrontend {
  /** The base URL (`http://127.0.0.1:8765`); MCP is at `${url}/mcp`. */
  readonly url: string;
  readonly address: ListenAddress;
  readonly tls: TlsMaterial | null;
  /** What the host's person must know at start (exposure, auth off, empty token). */
  readonly warnings: string[];
  /** The host's own bus requests this frontend answers (`droidbus approve`). */
  readonly hostHandlers: HostHandlers<'host.oauth_pending' | 'host.oauth_decide'>;
  /** Stops accepting, lets requests in flight finish (briefly), closes every session. */
  close(): Promise<void>;
}

/** Thrown when the frontend cannot start (address in use, bad TLS files); the host does not start. */
export class HttpStartError extends Error {}

/** The warnings the auth settings call for, at start and whenever they change. */
export function authWarnings(settings: HttpSettings, where: string): string[] {
  const out: string[] = [];
  if (authModeOf(settings) === 'open') {
    out.push(
      `authentication is OFF (bearer and OAuth are both turned off in settings): anyone who can reach ${where} can use every droidbus tool. Turn one on with droidbus token --enable or droidbus oauth --enable.`,
    );
  } else if (settings.bearer_enabled && settings.bearer_token === '') {
    out.push(
      'the bearer token in settings is empty, so bearer authentication refuses every request; make a new one with droidbus token --rotate.',
    );
  }
  return out;
}

/** What a listener exposes, for its warning (the HTTP frontend's by default; the host's page names its own). */
export interface Exposure {
  service: string;
  exposed: string;
}

const MCP_EXPOSURE: Exposure = {
  service: 'HTTP MCP',
  exposed:
    'Whoever gets past authentication can use every droidbus tool: run Gradle builds in the open project, read logcat and crashes, install, launch and stop apps, read the screen and drive the UI of every connected device, and change device settings.',
};

/** The warnings for a listener bound beyond loopback (none on loopback). */
export function exposureWarnings(
  address: ListenAddress,
  tls: boolean,
  what: Exposure = MCP_EXPOSURE,
): string[] {
  if (isLoopbackAddress(address.host)) {
    return [];
  }
  const where = formatHostPort(address.host, address.port);
  const out = [
    `${what.service} listens on ${where}${isWildcardAddress(address.host) ? ' (every network interface)' : ''}, reachable from other machines. ${what.exposed}`,
  ];
  if (!tls) {
    out.push(
      'This traffic is not encrypted: tokens and results cross the network in the clear. Use --tls-self-signed, or --tls-cert and --tls-key.',
    );
  }
  return out;
}

/** The names a self-signed certificate must carry for this address and configuration. */
export function certificateNames(
  address: ListenAddress,
  settings: HttpSettings,
): { dns: string[]; ips: string[] } {
  const ips = new Set(['127.0.0.1', '::1']);
  const dns = new Set(['localhost']);
  if (isWildcardAddress(address.host)) {
    for (const list of Object.values(os.networkInterfaces())) {
      for (const info of list ?? []) {
        if (!info.address.toLowerCase().startsWith('fe80:')) {
          ips.add(info.address);
        }
      }
    }
    dns.add(os.hostname().toLowerCase());
  } else {
    ips.add(address.host);
  }
  const extra = [...settings.allowed_hosts];
  if (settings.public_url) {
    try {
      extra.push(new URL(settings.public_url).hostname);
    } catch {
      // An unusable public URL adds no name.
    }
  }
  for (const entry of extra) {
    const host = splitHostHeader(entry)?.hostname.replace(/^\[|\]$/g, '');
    if (host) {
      (net.isIP(host) !== 0 ? ips : dns).add(host);
    }
  }
  return { dns: [...dns].filter((d) => /^[a-z0-9.-]+$/.test(d)), ips: [...ips] };
}

function refuseAgents(origin: Origin, what: string): void {
  if (origin.kind === 'agent') {
    throw new BusError('INVALID', `only the user decides ${what}, with droidbus approve; an agent cannot`);
  }
}

/** What the frontend's request handling shares while it runs. */
interface HttpCore {
  readonly reader: HttpSettingsReader;
  readonly policy: HostPolicy;
  readonly gate: AuthGate;
  readonly oauth: OAuthServer;
  readonly sessions: HttpSessions;
  readonly deps: HttpFrontendDeps;
  readonly tls: TlsMaterial | null;
  quitting: boolean;
  /** POST requests being answered (close waits for them). */
  inflight: number;
  /** The authentication mode and warnings last logged (a change is logged once). */
  lastMode: AuthMode;
  lastWarnings: string;
}

function noteSettings(core: HttpCore, settings: HttpSettings, where: string): void {
  const mode = authModeOf(settings);
  const warnings = authWarnings(settings, where);
  if (mode !== core.lastMode || warnings.join('\n') !== core.lastWarnings) {
    log.info('the HTTP authentication settings changed', { mode });
    for (const w of warnings) {
      log.warn(w);
    }
    core.lastMode = mode;
    core.lastWarnings = warnings.join('\n');
  }
}

/** `/mcp`: the Origin check and CORS, then authentication, then the session's transport. */
async function serveMcp(
  core: HttpCore,
  req: IncomingMessage,
  res: ServerResponse,
  target: { url: URL; base: string; address: string },
): Promise<void> {
  const { url, base, address } = target;
  const origin = headerValue(req, 'origin');
  if (!core.policy.originAllowed(origin)) {
    log.info('refused a request from another origin', { address, origin: origin?.slice(0, 200) });
    sendJsonRpcError(res, 403, -32000, 'Forbidden: this Origin may not use this droidbus host');
    return;
  }
  if (origin !== undefined) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate');
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
      'Access-Control-Allow-Headers':
        'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
      'Access-Control-Max-Age': '600',
    });
    res.end();
    return;
  }
  const auth = core.gate.check(req, base, address);
  if (!auth.ok) {
    sendJsonRpcError(res, auth.status, -32001, auth.message, auth.headers);
    return;
  }
  await core.sessions.handle(req, res, { principal: auth.principal, address, url });
}

/** The request's Host is this host's, it is not quitting, and its target is a path; else it is answered. */
function admitted(core: HttpCore, req: IncomingMessage, res: ServerResponse, address: string): boolean {
  const host = headerValue(req, 'host');
  if (!core.policy.hostAllowed(host)) {
    log.info('refused a request for another Host (DNS rebinding?)', { address, host: host?.slice(0, 200) });
    sendJson(res, 403, {
      error: 'forbidden',
      error_description:
        'this droidbus host does not answer to that Host name; add it to http.allowed_hosts in settings if it is yours',
    });
    return false;
  }
  if (core.quitting) {
    sendJson(
      res,
      503,
      { error: 'unavailable', error_description: 'the droidbus host is quitting' },
      { Connection: 'close' },
    );
    return false;
  }
  const target = req.url ?? '/';
  if (!target.startsWith('/') || target.startsWith('//')) {
    sendJson(res, 400, { error: 'invalid_request', error_description: 'bad request target' });
    return false;
  }
  return true;
}

/** Routes one request: `/mcp`, OAuth, the page, the root's one line, else 404. */
async function onRequest(core: HttpCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === 'POST') {
    core.inflight++;
    res.once('close', () => core.inflight--);
  }
  const address = clientAddress(req);
  if (!admitted(core, req, res, address)) {
    return;
  }
  const settings = core.reader.read();
  const scheme = core.tls ? 'https' : 'http';
  const base =
    settings.public_url?.replace(/\/+$/, '') ?? `${scheme}://${headerValue(req, 'host')!.toLowerCase()}`;
  noteSettings(core, settings, base);
  const url = new URL(`http://droidbus${req.url ?? '/'}`);
  if (url.pathname === '/mcp') {
    await serveMcp(core, req, res, { url, base, address });
  } else if (OAuthServer.owns(url.pathname)) {
    if (!settings.oauth_enabled) {
      sendJson(res, 404, {
        error: 'not_found',
        error_description: 'OAuth is turned off on this droidbus host',
      });
      return;
    }
    await core.oauth.handle(req, res, { base, address, url });
  } else if (core.deps.page?.owns(url.pathname)) {
    let publicOrigin: string | null = null;
    try {
      publicOrigin = settings.public_url ? new URL(settings.public_url).origin : null;
    } catch {
      // An unusable public URL names no origin.
    }
    await core.deps.page.handle(req, res, { secure: core.tls !== null, publicOrigin });
  } else if (url.pathname === '/' && req.method === 'GET') {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(`droidbus host: MCP (Streamable HTTP) is at ${base}/mcp\n`);
  } else {
    sendJson(res, 404, { error: 'not_found' });
  }
}

/** The HTTP(S) server whose requests `core` answers (a throw is a 500, or a cut connection). */
function createServer(core: HttpCore): http.Server {
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    onRequest(core, req, res).catch((err: unknown) => {
      log.error('an HTTP request failed', { error: err instanceof Error ? err.stack : String(err) });
      if (!res.headersSent) {
        sendJson(res, 500, { error: 'server_error', error_description: 'droidbus internal error' });
      } else {
        res.destroy();
      }
    });
  };
  const tls = core.tls;
  const server = createHostServer(tls, handler);
  return server;
}

/** Listens on the address, or the HttpStartError saying why it cannot. */
async function listen(server: http.Server, address: ListenAddress): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: address.host, port: address.port }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const where = formatHostPort(address.host, address.port);
    throw new HttpStartError(
      e.code === 'EADDRINUSE'
        ? `cannot serve HTTP on ${where}: the address is in use (another droidbus host, or another program)`
        : `cannot serve HTTP on ${where}: ${e.message}`,
    );
  }
}

/** The TLS material when asked for, or the HttpStartError saying why it cannot be loaded. */
async function tlsFor(options: HttpFrontendOptions, settings: HttpSettings): Promise<TlsMaterial | null> {
  if (!options.tls) {
    return null;
  }
  try {
    return await loadTls(options.tls, certificateNames(options.address, settings));
  } catch (err) {
    throw new HttpStartError((err as Error).message);
  }
}

/** The host's requests `droidbus approve` sends, answered by the OAuth server (refused for agents). */
function approvalHandlers(oauth: OAuthServer): HttpFrontend['hostHandlers'] {
  return {
    'host.oauth_pending': (_payload, origin) => {
      refuseAgents(origin, 'OAuth approvals');
      return { pending: oauth.pending() };
    },
    'host.oauth_decide': (payload, origin) => {
      refuseAgents(origin, 'OAuth approvals');
      const { code, approve } = payload;
      return oauth.decide(code, approve);
    },
  };
}

/**
 * Starts the Streamable HTTP frontend of the host: `/mcp` (each session a client of the host's
 * bus), droidbus's OAuth 2.1 authorization server, Host/Origin checks against DNS rebinding,
 * combined bearer/OAuth authentication, and optional TLS.
 */
export async function startHttpFrontend(
  options: HttpFrontendOptions,
  deps: HttpFrontendDeps,
): Promise<HttpFrontend> {
  const reader = new HttpSettingsReader();
  const initial = reader.read();
  if (initial.bearer_enabled && initial.bearer_token === null) {
    await ensureBearerToken();
  }
  const tls = await tlsFor(options, initial);
  const clients = new OAuthClientStore();
  const tokens = new OAuthTokens(await loadOrCreateOAuthSecret(), clients);
  const limiter = new FailureLimiter();
  const record = (name: string, summary: string): void =>
    deps.activity.record({ kind: 'lifecycle', name, status: 'ok', summary });
  const oauth = new OAuthServer({ clients, tokens, limiter, record, notify: deps.notify });
  const probe = startEventLoopProbe();
  const sessions = new HttpSessions({ ...deps, settings: () => reader.read(), probe });
  const offProject = deps.system.bus.subscribe('host.project', (payload) =>
    sessions.setHostProject(payload.project),
  );
  // The port is known once the server listens (port 0 picks one); the policy reads it then.
  const address: ListenAddress = { ...options.address };
  const policy = new HostPolicy(address, tls !== null, () => {
    const s = reader.read();
    return { allowedHosts: s.allowed_hosts, allowedOrigins: s.allowed_origins, publicUrl: s.public_url };
  });
  const core: HttpCore = {
    reader,
    policy,
    gate: new AuthGate(() => reader.read(), tokens, clients, limiter),
    oauth,
    sessions,
    deps,
    tls,
    quitting: false,
    inflight: 0,
    lastMode: authModeOf(initial),
    lastWarnings: authWarnings(initial, '').join('\n'),
  };
  const server = createServer(core);
  try {
    await listen(server, options.address);
  } catch (err) {
    offProject();
    probe.stop();
    await sessions.closeAll();
    throw err;
  }
  address.port = (server.address() as net.AddressInfo).port;
  const shownHost = isWildcardAddress(address.host) ? '127.0.0.1' : address.host;
  const url = `${tls ? 'https' : 'http'}://${formatHostPort(shownHost, address.port)}`;
  const warnings = [...exposureWarnings(address, tls !== null), ...authWarnings(initial, url)];
  log.info('serving MCP over HTTP', { url: `${url}/mcp`, tls: tls !== null, auth: authModeOf(initial) });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      core.quitting = true;
      server.close();
      server.closeIdleConnections();
      const deadline = Date.now() + CLOSE_GRACE_MS;
      while (core.inflight > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await sessions.closeAll();
      server.closeAllConnections();
      offProject();
      probe.stop();
    })();
    return closing;
  };
  return { url, address, tls, warnings, hostHandlers: approvalHandlers(oauth), close };
}
