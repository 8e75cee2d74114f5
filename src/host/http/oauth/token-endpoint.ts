import { createHash, timingSafeEqual } from 'node:crypto';
import { JwtError } from '../jwt.js';
import type { AuthCodeStore } from './auth-codes.js';
import type { OAuthClient, OAuthClientStore } from './oauth-clients.js';
import { OAuthRequestError } from './oauth-errors.js';
import { CODE_VERIFIER_PATTERN } from './oauth-policy.js';
import { resourceOf } from './oauth-tokens.js';
import type { OAuthTokens, TokenResponse } from './oauth-tokens.js';

/** What the token endpoint needs. */
export interface TokenEndpointDeps {
  clients: OAuthClientStore;
  tokens: OAuthTokens;
  codes: AuthCodeStore;
  /** A line for the activity log. */
  record(name: string, summary: string): void;
}

/** The parameters of a token request (form-encoded, or JSON), plus Basic client credentials. */
export interface TokenRequest {
  params: Record<string, string>;
  /** From `Authorization: Basic`, when sent. */
  basic: { clientId: string; secret: string } | null;
}

/** The client credentials of `Authorization: Basic` (RFC 6749 section 2.3.1: form-urlencoded parts). */
export function parseBasicAuth(header: string | undefined): { clientId: string; secret: string } | null {
  const m = header ? /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(header) : null;
  if (!m) {
    return null;
  }
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) {
    return null;
  }
  try {
    const unform = (s: string): string => decodeURIComponent(s.replace(/\+/g, ' '));
    return { clientId: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

function invalidClient(message: string): OAuthRequestError {
  return new OAuthRequestError('invalid_client', message, 401, true);
}

function invalidGrant(message: string): OAuthRequestError {
  return new OAuthRequestError('invalid_grant', message, 400, true);
}

/** The client a token request authenticates as: its registered method, and nothing else. */
function authenticateClient(deps: TokenEndpointDeps, request: TokenRequest): OAuthClient {
  const { params, basic } = request;
  const clientId = basic?.clientId ?? params['client_id'];
  if (!clientId) {
    throw invalidClient('the token request names no client_id');
  }
  if (basic && params['client_id'] !== undefined && params['client_id'] !== basic.clientId) {
    throw invalidClient('the client_id of the body and of the Authorization header differ');
  }
  const client = deps.clients.get(clientId);
  if (!client) {
    throw invalidClient('unknown client (it was never registered here, or it was revoked)');
  }
  const method = client.token_endpoint_auth_method;
  const secret =
    method === 'client_secret_basic'
      ? basic?.secret
      : method === 'client_secret_post'
        ? params['client_secret']
        : undefined;
  if (method === 'none' && (basic !== null || params['client_secret'] !== undefined)) {
    throw invalidClient('this client registered as a public client; it has no secret to send');
  }
  if (!deps.clients.secretMatches(client, secret)) {
    throw invalidClient(`client authentication failed (this client uses ${method})`);
  }
  return client;
}

function checkResource(params: Record<string, string>, base: string): void {
  const resource = params['resource'];
  if (resource !== undefined && resource !== resourceOf(base)) {
    throw new OAuthRequestError('invalid_target', `this server only issues tokens for ${resourceOf(base)}`);
  }
}

function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = createHash('sha256').update(verifier, 'ascii').digest();
  const expected = Buffer.from(challenge, 'base64url');
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** authorization_code: one code, its PKCE verifier, the same redirect URI, a new grant. */
async function exchangeCode(
  deps: TokenEndpointDeps,
  client: OAuthClient,
  params: Record<string, string>,
  base: string,
): Promise<TokenResponse> {
  const code = params['code'];
  const verifier = params['code_verifier'];
  if (!code) {
    throw new OAuthRequestError('invalid_request', 'code is missing');
  }
  if (!verifier || !CODE_VERIFIER_PATTERN.test(verifier)) {
    throw new OAuthRequestError(
      'invalid_request',
      'code_verifier is missing or malformed (PKCE is required)',
    );
  }
  const redeemed = deps.codes.redeem(code);
  if (!redeemed.ok) {
    if (redeemed.reason === 'replayed') {
      if (redeemed.gid) {
        await deps.clients.revokeGrant(redeemed.clientId, redeemed.gid);
      }
      deps.record(
        'oauth_code_replayed',
        'OAuth authorization code used twice; the access it gave is revoked',
      );
      throw invalidGrant('the authorization code was already used; the access it gave is revoked');
    }
    throw invalidGrant('the authorization code is unknown or expired (codes are valid for 60 s, once)');
  }
  const grant = redeemed.grant;
  if (grant.clientId !== client.client_id) {
    throw invalidGrant('the authorization code was issued to another client');
  }
  if (
    (grant.redirectUriGiven || params['redirect_uri'] !== undefined) &&
    params['redirect_uri'] !== grant.redirectUri
  ) {
    throw invalidGrant('redirect_uri differs from the one of the authorization request');
  }
  if (grant.resource !== resourceOf(base)) {
    throw invalidGrant('the authorization code was issued for another resource');
  }
  if (!pkceMatches(verifier, grant.codeChallenge)) {
    throw invalidGrant('code_verifier does not match the code_challenge');
  }
  const jti = deps.tokens.newJti();
  const gid = await deps.clients.addGrant(client.client_id, jti);
  if (!gid) {
    throw invalidClient('the client was revoked meanwhile');
  }
  deps.codes.recordGrant(code, gid);
  deps.record('oauth_granted', `OAuth access granted to ${client.client_name}`);
  return deps.tokens.issue(base, client.client_id, gid, jti);
}

/** refresh_token: the grant's current refresh token, replaced by a new one (rotation). */
async function refresh(
  deps: TokenEndpointDeps,
  client: OAuthClient,
  params: Record<string, string>,
  base: string,
): Promise<TokenResponse> {
  const token = params['refresh_token'];
  if (!token) {
    throw new OAuthRequestError('invalid_request', 'refresh_token is missing');
  }
  let subject;
  try {
    subject = deps.tokens.verifyRefresh(token, base);
  } catch (err) {
    if (err instanceof JwtError) {
      throw invalidGrant(`the refresh token is not valid: ${err.message}`);
    }
    throw err;
  }
  if (subject.clientId !== client.client_id) {
    throw invalidGrant('the refresh token was issued to another client');
  }
  const next = deps.tokens.newJti();
  const outcome = await deps.clients.rotateRefresh(client.client_id, subject.gid, subject.jti, next);
  if (outcome === 'reused') {
    deps.record(
      'oauth_refresh_reused',
      `OAuth refresh token of ${client.client_name} used twice; its grant is revoked`,
    );
    throw invalidGrant('the refresh token was already used; this grant is revoked — authorize again');
  }
  if (outcome === 'unknown') {
    throw invalidGrant('the grant of this refresh token was revoked — authorize again');
  }
  return deps.tokens.issue(base, client.client_id, subject.gid, next);
}

/** Answers a token request (RFC 6749 section 3.2), or throws OAuthRequestError. */
export async function handleTokenRequest(
  deps: TokenEndpointDeps,
  request: TokenRequest,
  base: string,
): Promise<TokenResponse> {
  const grantType = request.params['grant_type'];
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
    throw new OAuthRequestError(
      'unsupported_grant_type',
      'this server supports the grant types authorization_code and refresh_token',
    );
  }
  const client = authenticateClient(deps, request);
  if (!client.grant_types.includes(grantType)) {
    throw new OAuthRequestError('unauthorized_client', `this client did not register the ${grantType} grant`);
  }
  checkResource(request.params, base);
  return grantType === 'authorization_code'
    ? exchangeCode(deps, client, request.params, base)
    : refresh(deps, client, request.params, base);
}

/** The parameters of a token request: form-encoded (the standard) or JSON (lenient). */
export function parseTokenParams(body: Buffer, contentType: string | undefined): Record<string, string> {
  const text = body.toString('utf8');
  const params: Record<string, string> = {};
  if (contentType?.toLowerCase().startsWith('application/json')) {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new OAuthRequestError('invalid_request', 'the token request is not valid JSON');
    }
    if (typeof raw === 'object' && raw !== null) {
      for (const [k, v] of Object.entries(raw)) {
        if (typeof v === 'string') {
          params[k] = v;
        }
      }
    }
    return params;
  }
  for (const [k, v] of new URLSearchParams(text)) {
    if (k in params) {
      // RFC 6749 section 3.2: parameters must not be repeated.
      throw new OAuthRequestError('invalid_request', `the parameter ${k} is repeated`);
    }
    params[k] = v;
  }
  return params;
}
