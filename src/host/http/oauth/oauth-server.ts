import type { IncomingMessage, ServerResponse } from 'node:http';
import { BusError } from '../../../bus/errors.js';
import { logger } from '../../../util/log.js';
import { FailureLimiter } from '../failure-limiter.js';
import { headerValue, readBody, sendHtml, sendJson, sendRedirect } from '../request-io.js';
import { ApprovalQueue, TooManyPendingError, redirectHostOf } from './approvals.js';
import type { PendingApproval, PendingView } from './approvals.js';
import { AuthCodeStore } from './auth-codes.js';
import { registerClient } from './client-registration.js';
import { ClientCapError } from './oauth-clients.js';
import type { OAuthClientStore } from './oauth-clients.js';
import { PAGE_HEADERS, consentPage, messagePage } from './consent-page.js';
import { OAuthRequestError } from './oauth-errors.js';
import {
  AUTHORIZATION_SERVER_PATH,
  OAUTH_PATHS,
  PROTECTED_RESOURCE_PATH,
  PROTECTED_RESOURCE_ROOT_PATH,
  authorizationServerMetadata,
  protectedResourceMetadata,
} from './oauth-metadata.js';
import { CODE_CHALLENGE_PATTERN, redirectUriMatches, redirectUriProblem } from './oauth-policy.js';
import { resourceOf } from './oauth-tokens.js';
import type { OAuthTokens } from './oauth-tokens.js';
import { handleTokenRequest, parseBasicAuth, parseTokenParams } from './token-endpoint.js';

const log = logger('oauth');

/** Request bodies of /register and /token are small. */
const BODY_LIMIT = 64 * 1024;
/** Registrations per client address per minute. */
const REGISTRATIONS_PER_MINUTE = 10;

/** CORS for the endpoints browser-based MCP clients call directly (no cookies, no ambient authority). */
const OPEN_CORS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, MCP-Protocol-Version',
  'Access-Control-Max-Age': '600',
};

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export interface OAuthServerDeps {
  clients: OAuthClientStore;
  tokens: OAuthTokens;
  /** The per-address limiter of failed authentications (shared with /mcp). */
  limiter: FailureLimiter;
  /** A line for the activity log. */
  record(name: string, summary: string): void;
  /** Tells the host's person something (a consent page waits for `droidbus approve`). */
  notify(line: string): void;
}

/** What a request to the authorization server comes with. */
export interface OAuthRequestContext {
  /** The base URL this request reached the host at (issuer and the resource's origin). */
  base: string;
  address: string;
  url: URL;
}

/**
 * droidbus's OAuth 2.1 authorization server: RFC 9728 and RFC 8414 metadata, dynamic client
 * registration (RFC 7591), the authorization endpoint with its number-match consent page, and the
 * token endpoint. It is self-contained: the host is both authorization and resource server.
 */
export class OAuthServer {
  readonly codes = new AuthCodeStore();
  readonly approvals = new ApprovalQueue();
  private readonly registrations = new FailureLimiter(REGISTRATIONS_PER_MINUTE, 60_000);

  constructor(private readonly deps: OAuthServerDeps) {}

  /** True when `path` is one of the authorization server's. */
  static owns(path: string): boolean {
    return (
      path === PROTECTED_RESOURCE_PATH ||
      path === PROTECTED_RESOURCE_ROOT_PATH ||
      path === AUTHORIZATION_SERVER_PATH ||
      Object.values(OAUTH_PATHS).includes(path as (typeof OAUTH_PATHS)[keyof typeof OAUTH_PATHS])
    );
  }

  /** Answers a request to one of its paths. */
  async handle(req: IncomingMessage, res: ServerResponse, ctx: OAuthRequestContext): Promise<void> {
    const path = ctx.url.pathname;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, OPEN_CORS);
      res.end();
      return;
    }
    const method = req.method ?? 'GET';
    const only = (allowed: string): boolean => {
      if (method === allowed) {
        return true;
      }
      sendJson(
        res,
        405,
        { error: 'invalid_request', error_description: `use ${allowed}` },
        { Allow: allowed },
      );
      return false;
    };
    switch (path) {
      case PROTECTED_RESOURCE_PATH:
      case PROTECTED_RESOURCE_ROOT_PATH:
        if (only('GET')) {
          sendJson(res, 200, protectedResourceMetadata(ctx.base), OPEN_CORS);
        }
        return;
      case AUTHORIZATION_SERVER_PATH:
        if (only('GET')) {
          sendJson(res, 200, authorizationServerMetadata(ctx.base), OPEN_CORS);
        }
        return;
      case OAUTH_PATHS.register:
        if (only('POST')) {
          await this.register(req, res, ctx);
        }
        return;
      case OAUTH_PATHS.authorize:
        if (only('GET')) {
          this.authorize(res, ctx);
        }
        return;
      case OAUTH_PATHS.continue:
        if (only('GET')) {
          this.continueAuthorization(res, ctx);
        }
        return;
      case OAUTH_PATHS.status:
        if (only('GET')) {
          const approval = this.approvals.get(ctx.url.searchParams.get('request') ?? '');
          sendJson(res, 200, { status: approval?.status ?? 'unknown' }, NO_STORE);
        }
        return;
      case OAUTH_PATHS.token:
        if (only('POST')) {
          await this.token(req, res, ctx);
        }
        return;
      default:
        sendJson(res, 404, { error: 'not_found' });
    }
  }

  /** The requests waiting for `droidbus approve`. */
  pending(): PendingView[] {
    return this.approvals.list();
  }

  /** The user's decision on the request showing `code`; throws a BusError when none shows it. */
  decide(code: string, approve: boolean): { client_id: string; client_name: string; redirect_host: string } {
    const decided = this.approvals.decide(code, approve);
    if (!decided) {
      const waiting = this.approvals.list().map((p) => p.code);
      throw new BusError(
        'NOT_FOUND',
        `no authorization request shows the code ${code}${waiting.length > 0 ? ` (waiting: ${waiting.join(', ')})` : ' (none is waiting; requests wait 5 minutes)'}`,
      );
    }
    this.deps.record(
      approve ? 'oauth_approved' : 'oauth_denied',
      `OAuth request of ${decided.clientName} ${approve ? 'approved' : 'denied'} by the user (code ${code})`,
    );
    return {
      client_id: decided.clientId,
      client_name: decided.clientName,
      redirect_host: redirectHostOf(decided),
    };
  }

  private async register(req: IncomingMessage, res: ServerResponse, ctx: OAuthRequestContext): Promise<void> {
    const headers = { ...OPEN_CORS, ...NO_STORE };
    try {
      const wait = this.registrations.retryAfter(ctx.address);
      if (wait > 0) {
        sendJson(
          res,
          429,
          { error: 'invalid_request', error_description: 'too many registrations; try again later' },
          { ...headers, 'Retry-After': String(wait) },
        );
        return;
      }
      this.registrations.fail(ctx.address);
      const body = await readBody(req, BODY_LIMIT);
      if (body === 'too_large') {
        throw new OAuthRequestError('invalid_client_metadata', 'the registration request is too large');
      }
      const { client, secret } = await registerClient(this.deps.clients, body);
      this.deps.record('oauth_client_registered', `OAuth client registered: ${client.client_name}`);
      sendJson(
        res,
        201,
        {
          client_id: client.client_id,
          client_id_issued_at: client.client_id_issued_at,
          ...(secret !== null ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
          client_name: client.client_name,
          redirect_uris: client.redirect_uris,
          token_endpoint_auth_method: client.token_endpoint_auth_method,
          grant_types: client.grant_types,
          response_types: client.response_types,
        },
        headers,
      );
    } catch (err) {
      if (err instanceof ClientCapError) {
        sendJson(res, 400, { error: 'invalid_client_metadata', error_description: err.message }, headers);
        return;
      }
      this.sendError(res, err, headers, ctx);
    }
  }

  /** GET /authorize: checks the request, then shows the consent page with its 2-digit code. */
  private authorize(res: ServerResponse, ctx: OAuthRequestContext): void {
    const q = ctx.url.searchParams;
    const clientId = q.get('client_id') ?? '';
    const client = this.deps.clients.get(clientId);
    if (!client) {
      sendHtml(
        res,
        400,
        messagePage(
          'Unknown client',
          'This application is not registered with this droidbus host (or it was revoked).',
        ),
        PAGE_HEADERS,
      );
      return;
    }
    const asked = q.get('redirect_uri');
    let redirectUri: string | undefined;
    if (asked !== null) {
      redirectUri = client.redirect_uris.some((r) => redirectUriMatches(asked, r)) ? asked : undefined;
    } else if (client.redirect_uris.length === 1) {
      redirectUri = client.redirect_uris[0];
    }
    if (redirectUri === undefined || redirectUriProblem(redirectUri) !== null) {
      sendHtml(
        res,
        400,
        messagePage('Bad redirect', 'The redirect_uri is missing or is not one this application registered.'),
        PAGE_HEADERS,
      );
      return;
    }
    // From here on, errors go back to the client's redirect URI (RFC 6749 section 4.1.2.1).
    const state = q.get('state') ?? undefined;
    const fail = (error: string, description: string): void =>
      sendRedirect(
        res,
        this.redirectWith(redirectUri, ctx.base, { error, error_description: description }, state),
      );
    if (q.get('response_type') !== 'code') {
      fail('unsupported_response_type', 'response_type must be code');
      return;
    }
    const challenge = q.get('code_challenge');
    if (
      q.get('code_challenge_method') !== 'S256' ||
      challenge === null ||
      !CODE_CHALLENGE_PATTERN.test(challenge)
    ) {
      fail('invalid_request', 'PKCE is required: code_challenge with code_challenge_method S256');
      return;
    }
    const resource = q.get('resource');
    if (resource !== null && resource !== resourceOf(ctx.base)) {
      fail('invalid_target', `this server only grants access to ${resourceOf(ctx.base)}`);
      return;
    }
    let approval: PendingApproval;
    try {
      approval = this.approvals.create({
        clientId: client.client_id,
        clientName: client.client_name,
        redirectUri,
        redirectUriGiven: asked !== null,
        state,
        codeChallenge: challenge,
        resource: resourceOf(ctx.base),
      });
    } catch (err) {
      if (err instanceof TooManyPendingError) {
        fail('temporarily_unavailable', err.message);
        return;
      }
      throw err;
    }
    this.deps.record(
      'oauth_approval_requested',
      `OAuth access requested by ${client.client_name} from ${ctx.address} (code ${approval.code})`,
    );
    this.deps.notify(
      `OAuth: "${client.client_name}" asks for access (from ${ctx.address}, returning to ${redirectHostOf(approval)}). If its page shows ${approval.code}, approve with: droidbus approve ${approval.code}`,
    );
    this.sendConsent(res, approval);
  }

  /** GET /authorize/continue: the consent page again, or the redirect once the user decided. */
  private continueAuthorization(res: ServerResponse, ctx: OAuthRequestContext): void {
    const approval = this.approvals.get(ctx.url.searchParams.get('request') ?? '');
    if (!approval) {
      sendHtml(
        res,
        400,
        messagePage(
          'Request expired',
          'This authorization request is unknown or has expired (a request waits 5 minutes for approval). Connect again from your application.',
        ),
        PAGE_HEADERS,
      );
      return;
    }
    if (approval.status === 'pending') {
      this.sendConsent(res, approval);
      return;
    }
    this.approvals.take(approval.id);
    if (approval.status === 'denied') {
      sendRedirect(
        res,
        this.redirectWith(
          approval.redirectUri,
          ctx.base,
          { error: 'access_denied', error_description: 'the user denied the request' },
          approval.state,
        ),
      );
      return;
    }
    const code = this.codes.issue({
      clientId: approval.clientId,
      redirectUri: approval.redirectUri,
      redirectUriGiven: approval.redirectUriGiven,
      codeChallenge: approval.codeChallenge,
      resource: approval.resource,
    });
    sendRedirect(res, this.redirectWith(approval.redirectUri, ctx.base, { code }, approval.state));
  }

  private async token(req: IncomingMessage, res: ServerResponse, ctx: OAuthRequestContext): Promise<void> {
    const headers = { ...OPEN_CORS, ...NO_STORE };
    let clientId: string | null = null;
    try {
      const body = await readBody(req, BODY_LIMIT);
      if (body === 'too_large') {
        throw new OAuthRequestError('invalid_request', 'the token request is too large');
      }
      const params = parseTokenParams(body, headerValue(req, 'content-type'));
      const basic = parseBasicAuth(headerValue(req, 'authorization'));
      clientId = basic?.clientId ?? (typeof params['client_id'] === 'string' ? params['client_id'] : null);
      const tokens = await handleTokenRequest(
        {
          clients: this.deps.clients,
          tokens: this.deps.tokens,
          codes: this.codes,
          record: this.deps.record,
        },
        { params, basic },
        ctx.base,
      );
      sendJson(res, 200, tokens, headers);
    } catch (err) {
      this.sendError(res, err, headers, ctx, clientId === null ? null : `client ${clientId.slice(0, 200)}`);
    }
  }

  private sendConsent(res: ServerResponse, approval: PendingApproval): void {
    sendHtml(
      res,
      200,
      consentPage({
        code: approval.code,
        clientName: approval.clientName,
        redirectHost: redirectHostOf(approval),
        continueUrl: `${OAUTH_PATHS.continue}?request=${encodeURIComponent(approval.id)}`,
      }),
      PAGE_HEADERS,
    );
  }

  private redirectWith(
    redirectUri: string,
    base: string,
    params: Record<string, string>,
    state: string | undefined,
  ): string {
    const url = new URL(redirectUri);
    for (const [k, v] of Object.entries(params)) {
      url.searchParams.set(k, v);
    }
    if (state !== undefined) {
      url.searchParams.set('state', state);
    }
    // RFC 9207: the issuer, so a client talking to several servers knows who answered.
    url.searchParams.set('iss', base);
    return url.href;
  }

  /**
   * An OAuth error answer. A failure that counts (a wrong secret, a bad code) is recorded per
   * address and per client id; past the limit it is answered 429 instead — a valid request is never
   * refused by the limiter.
   */
  private sendError(
    res: ServerResponse,
    err: unknown,
    headers: Record<string, string>,
    ctx: OAuthRequestContext,
    credentialKey: string | null = null,
  ): void {
    if (err instanceof OAuthRequestError) {
      if (err.countsAsFailure) {
        const wait = this.deps.limiter.failAll([`address ${ctx.address}`, credentialKey]);
        log.info('refused an OAuth request', { address: ctx.address, error: err.error, reason: err.message });
        if (wait > 0) {
          sendJson(
            res,
            429,
            { error: 'invalid_request', error_description: 'too many failed attempts; try again later' },
            { ...headers, 'Retry-After': String(wait) },
          );
          return;
        }
      }
      const extra: Record<string, string> =
        err.status === 401 ? { 'WWW-Authenticate': 'Basic realm="droidbus"' } : {};
      sendJson(res, err.status, err.body(), { ...headers, ...extra });
      return;
    }
    log.error('the authorization server failed', { error: err instanceof Error ? err.stack : String(err) });
    sendJson(res, 500, { error: 'server_error', error_description: 'droidbus internal error' }, headers);
  }
}
