/** Lifetimes and limits of droidbus's OAuth 2.1 authorization server. */
export const ACCESS_TOKEN_TTL_S = 24 * 3600;
export const REFRESH_TOKEN_TTL_S = 90 * 24 * 3600;
export const AUTH_CODE_TTL_MS = 60_000;
/** How long a consent page waits for `droidbus approve`. */
export const APPROVAL_TTL_MS = 5 * 60_000;
/** Consent pages waiting at once (each has its own 2-digit code). */
export const MAX_PENDING_APPROVALS = 20;
/** Registered clients kept at most. */
export const MAX_CLIENTS = 50;
/** Live grants (approved authorizations) kept per client; the oldest goes first. */
export const MAX_GRANTS_PER_CLIENT = 20;
/** A registered client that never got approved is dropped after this, when room is needed. */
export const UNUSED_CLIENT_GRACE_MS = 10 * 60_000;

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why a redirect URI is refused, or null when it is allowed. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `'${uri.slice(0, 200)}' is not an absolute URL`;
  }
  if (url.hash !== '' || uri.includes('#')) {
    return `'${uri.slice(0, 200)}' has a fragment, which redirect URIs may not have`;
  }
  if (url.username !== '' || url.password !== '') {
    return `'${uri.slice(0, 200)}' carries credentials`;
  }
  if (url.protocol === 'https:') {
    return null;
  }
  if (url.protocol === 'http:' && LOOPBACK_HOSTNAMES.has(url.hostname)) {
    return null;
  }
  return `'${uri.slice(0, 200)}' is not allowed: droidbus redirects only to https URLs and to http on a loopback address (localhost, 127.0.0.1, [::1])`;
}

/**
 * Whether a redirect URI of an authorization request matches one the client registered: exactly,
 * or, for loopback http, in everything but the port (RFC 8252 section 7.3: native apps listen on
 * an ephemeral port).
 */
export function redirectUriMatches(requested: string, registered: string): boolean {
  if (requested === registered) {
    return true;
  }
  let req: URL;
  let reg: URL;
  try {
    req = new URL(requested);
    reg = new URL(registered);
  } catch {
    return false;
  }
  return (
    req.protocol === 'http:' &&
    reg.protocol === 'http:' &&
    LOOPBACK_HOSTNAMES.has(req.hostname) &&
    req.hostname === reg.hostname &&
    req.pathname === reg.pathname &&
    req.search === reg.search &&
    req.hash === '' &&
    redirectUriProblem(requested) === null
  );
}

/** PKCE (RFC 7636): a verifier is 43-128 unreserved characters; an S256 challenge 43 base64url. */
export const CODE_VERIFIER_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/;
export const CODE_CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Removes control characters and bounds a display name a client chose. */
export function cleanDisplayName(name: unknown, fallback: string): string {
  if (typeof name !== 'string') {
    return fallback;
  }
  const clean = name
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim();
  return clean.length === 0 ? fallback : clean.slice(0, 100);
}
