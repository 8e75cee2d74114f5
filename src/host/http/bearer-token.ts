import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The prefix of droidbus bearer tokens. It makes a leaked token recognizable (secret scanners,
 * the activity log's redaction) and never confusable with an OAuth access token (a JWT).
 */
export const BEARER_TOKEN_PREFIX = 'dbt_';

/** A new bearer token: 32 bytes from the CSPRNG, base64url, with the droidbus prefix. */
export function generateBearerToken(): string {
  return BEARER_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Compares a presented token with the configured one in constant time: both are hashed first so
 * the comparison runs on equal-length digests whatever the lengths, and neither the length nor
 * the first differing byte shows in the timing. An empty configured token matches nothing.
 */
export function bearerMatches(presented: string, configured: string | null): boolean {
  if (configured === null || configured.length === 0 || presented.length === 0) {
    return false;
  }
  return timingSafeEqual(digest(presented), digest(configured));
}

/** The token of an `Authorization: Bearer …` header, or null (no header, another scheme, empty). */
export function bearerFromHeader(header: string | undefined): string | null {
  if (!header) {
    return null;
  }
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return m ? m[1]! : null;
}
