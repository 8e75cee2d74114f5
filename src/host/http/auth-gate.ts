import type { IncomingMessage } from 'node:http';
import { logger } from '../../util/log.js';
import { bearerFromHeader, bearerMatches } from './bearer-token.js';
import { digest, type FailureLimiter } from './failure-limiter.js';
import type { HttpSettings } from './http-settings.js';
import { JwtError } from './jwt.js';
import type { OAuthClientStore } from './oauth/oauth-clients.js';
import { PROTECTED_RESOURCE_PATH } from './oauth/oauth-metadata.js';
import type { OAuthTokens } from './oauth/oauth-tokens.js';
import { headerValue } from './request-io.js';

const log = logger('http-auth');

/** Who a request to /mcp speaks for. */
export type Principal =
  | { kind: 'open' }
  | { kind: 'bearer' }
  | { kind: 'oauth'; clientId: string; clientName: string; gid: string };

/** The outcome of checking a request's credentials. */
export type AuthOutcome =
  | { ok: true; principal: Principal }
  | { ok: false; status: 401 | 429; message: string; headers: Record<string, string> };

/** How the auth of /mcp is set up right now (from settings, read fresh). */
export type AuthMode = 'bearer+oauth' | 'bearer' | 'oauth' | 'open';

/** The mode the toggles give. */
export function authModeOf(settings: HttpSettings): AuthMode {
  if (settings.bearer_enabled && settings.oauth_enabled) {
    return 'bearer+oauth';
  }
  if (settings.bearer_enabled) {
    return 'bearer';
  }
  return settings.oauth_enabled ? 'oauth' : 'open';
}

/** A principal in words, for `droidbus status` and the activity log. */
export function describePrincipal(principal: Principal): string {
  switch (principal.kind) {
    case 'open':
      return 'none';
    case 'bearer':
      return 'bearer';
    case 'oauth':
      return `oauth: ${principal.clientName}`;
    default: {
      const never: never = principal;
      return never;
    }
  }
}

/** A principal as a phrase for the activity log (worded so redaction leaves it alone). */
export function principalPhrase(principal: Principal): string {
  switch (principal.kind) {
    case 'open':
      return 'without authentication (it is turned off)';
    case 'bearer':
      return 'with the bearer token';
    case 'oauth':
      return `as the OAuth client ${principal.clientName}`;
    default: {
      const never: never = principal;
      return never;
    }
  }
}

/** Whether two principals are the same caller (an HTTP session belongs to whoever opened it). */
export function samePrincipal(a: Principal, b: Principal): boolean {
  if (a.kind !== b.kind) {
    return false;
  }
  return a.kind !== 'oauth' || (b.kind === 'oauth' && a.clientId === b.clientId);
}

/**
 * Combined authentication of /mcp (dual-accept): a request passes with the static bearer token
 * (when bearer is on) or a valid access token of droidbus's authorization server (when OAuth is
 * on). Auth is required when either is on; both off is open. An enabled bearer with an empty
 * value matches nothing (fails closed). Wrong credentials count against the client's address;
 * past the limit it gets 429 with Retry-After, whatever it sends. The 401 carries
 * `WWW-Authenticate` with the resource metadata only when OAuth is on, which is what starts a
 * client's OAuth discovery.
 */
export class AuthGate {
  constructor(
    private readonly settings: () => HttpSettings,
    private readonly tokens: OAuthTokens,
    private readonly clients: OAuthClientStore,
    private readonly limiter: FailureLimiter,
  ) {}

  check(req: IncomingMessage, base: string, address: string): AuthOutcome {
    const settings = this.settings();
    if (!settings.bearer_enabled && !settings.oauth_enabled) {
      return { ok: true, principal: { kind: 'open' } };
    }
    const header = headerValue(req, 'authorization');
    if (header === undefined) {
      return this.unauthorized(settings, base, null, 'Unauthorized: this droidbus host requires a token');
    }
    const presented = bearerFromHeader(header);
    let reason = 'the Authorization header is not a Bearer token';
    if (presented !== null) {
      if (settings.bearer_enabled && bearerMatches(presented, settings.bearer_token)) {
        return { ok: true, principal: { kind: 'bearer' } };
      }
      reason = settings.bearer_enabled ? 'the bearer token does not match' : 'bearer tokens are off';
      if (settings.oauth_enabled) {
        try {
          const subject = this.tokens.verifyAccess(presented, base);
          const clientName = this.clients.get(subject.clientId)?.client_name ?? subject.clientId;
          return {
            ok: true,
            principal: { kind: 'oauth', clientId: subject.clientId, clientName, gid: subject.gid },
          };
        } catch (err) {
          if (!(err instanceof JwtError)) {
            throw err;
          }
          if (presented.split('.').length === 3) {
            reason = err.message;
          }
        }
      }
    }
    // Only failures are limited, per address and per credential presented: a valid credential is
    // never refused, wherever it comes from (everyone on 127.0.0.1 or behind one tunnel shares an address).
    const wait = this.limiter.failAll([
      `address ${address}`,
      presented === null ? null : `credential ${digest(presented)}`,
    ]);
    log.info('refused a request to /mcp', { address, reason });
    if (wait > 0) {
      return {
        ok: false,
        status: 429,
        message: `too many failed authentications from ${address} or with this credential; try again in ${wait} s`,
        headers: { 'Retry-After': String(wait) },
      };
    }
    return this.unauthorized(
      settings,
      base,
      presented === null ? 'invalid_request' : 'invalid_token',
      presented === null
        ? 'Unauthorized: use an Authorization: Bearer token'
        : 'Unauthorized: the token is not valid',
    );
  }

  private unauthorized(
    settings: HttpSettings,
    base: string,
    error: string | null,
    message: string,
  ): AuthOutcome {
    const headers: Record<string, string> = {};
    if (settings.oauth_enabled) {
      headers['WWW-Authenticate'] =
        `Bearer resource_metadata="${base}${PROTECTED_RESOURCE_PATH}"${error ? `, error="${error}"` : ''}`;
    }
    return { ok: false, status: 401, message, headers };
  }
}
