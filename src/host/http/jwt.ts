import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * JWTs signed with HS256 (RFC 7519, RFC 7515 compact form), written on node:crypto. The host is
 * both the authorization server and the resource server, so one secret signs and verifies; no key
 * set is published. Verification accepts only `alg: HS256` with the expected `typ` — never `none`,
 * never another algorithm named by the token.
 */

export type JwtClaims = Record<string, unknown>;

/** Why a token was refused (never includes the token). */
export class JwtError extends Error {}

function b64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

function mac(secret: Uint8Array, signingInput: string): Buffer {
  return createHmac('sha256', secret).update(signingInput, 'ascii').digest();
}

/** Signs claims as a compact JWS with HS256 and the given `typ` header. */
export function signJwt(claims: JwtClaims, secret: Uint8Array, typ: string): string {
  const header = b64url(JSON.stringify({ alg: 'HS256', typ }));
  const payload = b64url(JSON.stringify(claims));
  const signingInput = `${header}.${payload}`;
  return `${signingInput}.${b64url(mac(secret, signingInput))}`;
}

const SEGMENT = /^[A-Za-z0-9_-]*$/;

function parseJsonSegment(segment: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    throw new JwtError(`the token's ${what} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new JwtError(`the token's ${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/**
 * Verifies a compact HS256 JWT's signature and header and returns its claims. Time, audience and
 * the other claims are the caller's to check (`checkTimes`).
 */
export function verifyJwt(token: string, secret: Uint8Array, typ: string): JwtClaims {
  if (token.length > 8192) {
    throw new JwtError('the token is too long');
  }
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => SEGMENT.test(p))) {
    throw new JwtError('the token is not a compact JWS');
  }
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = parseJsonSegment(headerPart, 'header');
  if (header['alg'] !== 'HS256') {
    throw new JwtError('the token is not signed with HS256');
  }
  if (header['typ'] !== typ) {
    throw new JwtError(`the token is not of type ${typ}`);
  }
  if ('crit' in header) {
    throw new JwtError('the token has critical header parameters this server does not know');
  }
  const expected = mac(secret, `${headerPart}.${payloadPart}`);
  const presented = Buffer.from(signaturePart, 'base64url');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
    throw new JwtError('the token signature does not verify');
  }
  return parseJsonSegment(payloadPart, 'payload');
}

/** Checks `exp` (required) and `nbf`/`iat` (not in the future beyond the leeway), in seconds. */
export function checkTimes(claims: JwtClaims, nowSeconds: number, leewaySeconds = 30): void {
  const exp = claims['exp'];
  if (typeof exp !== 'number' || !Number.isFinite(exp)) {
    throw new JwtError('the token has no expiry');
  }
  if (exp <= nowSeconds - leewaySeconds) {
    throw new JwtError('the token has expired');
  }
  for (const name of ['nbf', 'iat'] as const) {
    const t = claims[name];
    if (t !== undefined && (typeof t !== 'number' || t > nowSeconds + leewaySeconds)) {
      throw new JwtError(`the token's ${name} is in the future`);
    }
  }
}
