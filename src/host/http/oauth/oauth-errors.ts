/**
 * An OAuth error response (RFC 6749 section 5.2, RFC 7591 section 3.2.2): `error` and
 * `error_description`, with its HTTP status. `countsAsFailure` marks a failed authentication
 * (a wrong client secret, a bad code or refresh token) for the per-address limiter.
 */
export class OAuthRequestError extends Error {
  constructor(
    readonly error: string,
    message: string,
    readonly status = 400,
    readonly countsAsFailure = false,
  ) {
    super(message);
    this.name = 'OAuthRequestError';
  }

  body(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.message };
  }
}
