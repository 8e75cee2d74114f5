import { randomUUID } from 'node:crypto';
import { JwtError, checkTimes, signJwt, verifyJwt } from '../jwt.js';
import type { OAuthClientStore } from './oauth-clients.js';
import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S } from './oauth-policy.js';

/** The JWT `typ` of access tokens (RFC 9068) and of droidbus refresh tokens. */
export const ACCESS_TYP = 'at+jwt';
export const REFRESH_TYP = 'rt+jwt';

/** The resource (and `aud`) of the MCP endpoint under a base URL. */
export function resourceOf(base: string): string {
  return `${base}/mcp`;
}

/** Who a verified token speaks for. */
export interface TokenSubject {
  clientId: string;
  gid: string;
  jti: string;
}

/** The token response of /token (RFC 6749 section 5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

function subjectOf(claims: Record<string, unknown>, use: 'access' | 'refresh'): TokenSubject {
  const { client_id: clientId, gid, jti, token_use: tokenUse } = claims;
  if (tokenUse !== use) {
    throw new JwtError(`the token is not an ${use} token`);
  }
  if (typeof clientId !== 'string' || typeof gid !== 'string' || typeof jti !== 'string') {
    throw new JwtError('the token lacks its client, grant or id');
  }
  return { clientId, gid, jti };
}

/**
 * Access and refresh tokens: HS256 JWTs with `aud` = `<base>/mcp`, the client and the grant. An
 * access token is good for ACCESS_TOKEN_TTL_S while its client and grant still exist (checked on
 * every request, so revoking a client ends its tokens at once); a refresh token for
 * REFRESH_TOKEN_TTL_S, once.
 */
export class OAuthTokens {
  constructor(
    private readonly secret: Uint8Array,
    private readonly clients: OAuthClientStore,
  ) {}

  /** A fresh refresh-token id for a new grant or a rotation. */
  newJti(): string {
    return randomUUID();
  }

  /** Signs an access and a refresh token for a grant. */
  issue(base: string, clientId: string, gid: string, refreshJti: string): TokenResponse {
    const now = Math.floor(Date.now() / 1000);
    const common = { iss: base, aud: resourceOf(base), sub: clientId, client_id: clientId, gid, iat: now };
    return {
      access_token: signJwt(
        { ...common, token_use: 'access', jti: randomUUID(), exp: now + ACCESS_TOKEN_TTL_S },
        this.secret,
        ACCESS_TYP,
      ),
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_S,
      refresh_token: signJwt(
        { ...common, token_use: 'refresh', jti: refreshJti, exp: now + REFRESH_TOKEN_TTL_S },
        this.secret,
        REFRESH_TYP,
      ),
    };
  }

  /** Verifies an access token for the MCP resource at `base`; throws JwtError saying why not. */
  verifyAccess(token: string, base: string): TokenSubject {
    const claims = verifyJwt(token, this.secret, ACCESS_TYP);
    checkTimes(claims, Math.floor(Date.now() / 1000));
    if (claims['aud'] !== resourceOf(base)) {
      throw new JwtError('the token is for another resource');
    }
    const subject = subjectOf(claims, 'access');
    if (!this.clients.get(subject.clientId)) {
      throw new JwtError('the token belongs to a client that is no longer registered');
    }
    if (!this.clients.hasGrant(subject.clientId, subject.gid)) {
      throw new JwtError('the token belongs to a revoked grant');
    }
    return subject;
  }

  /** Verifies a refresh token's signature, time and audience (rotation is checked by the store). */
  verifyRefresh(token: string, base: string): TokenSubject {
    const claims = verifyJwt(token, this.secret, REFRESH_TYP);
    checkTimes(claims, Math.floor(Date.now() / 1000), 0);
    if (claims['aud'] !== resourceOf(base)) {
      throw new JwtError('the refresh token is for another resource');
    }
    return subjectOf(claims, 'refresh');
  }
}
