import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { TOKEN_AUTH_METHODS } from './oauth-clients.js';
import type { OAuthClient, OAuthClientStore, TokenAuthMethod } from './oauth-clients.js';
import { OAuthRequestError } from './oauth-errors.js';
import { cleanDisplayName, redirectUriProblem } from './oauth-policy.js';

/**
 * Dynamic client registration (RFC 7591): the metadata is checked with the SDK's schema, then
 * against droidbus's policy — 1 to 10 redirect URIs, each https or loopback http; the
 * authorization_code and refresh_token grants only; response type code; a known token endpoint
 * auth method (RFC 7591's default, client_secret_basic, when none is named). Throws
 * OAuthRequestError (or ClientCapError from the store) when it refuses.
 */
export async function registerClient(
  store: OAuthClientStore,
  body: Buffer,
): Promise<{ client: OAuthClient; secret: string | null }> {
  let raw: unknown;
  try {
    raw = JSON.parse(body.toString('utf8'));
  } catch {
    throw new OAuthRequestError('invalid_client_metadata', 'the registration request is not JSON');
  }
  const parsed = OAuthClientMetadataSchema.safeParse(raw);
  if (!parsed.success) {
    throw new OAuthRequestError('invalid_client_metadata', parsed.error.message.slice(0, 500));
  }
  const meta = parsed.data;
  if (meta.redirect_uris.length === 0 || meta.redirect_uris.length > 10) {
    throw new OAuthRequestError('invalid_redirect_uri', 'register between 1 and 10 redirect_uris');
  }
  for (const uri of meta.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) {
      throw new OAuthRequestError('invalid_redirect_uri', problem);
    }
  }
  const method = (meta.token_endpoint_auth_method ?? 'client_secret_basic') as TokenAuthMethod;
  if (!TOKEN_AUTH_METHODS.includes(method)) {
    throw new OAuthRequestError(
      'invalid_client_metadata',
      `token_endpoint_auth_method must be one of ${TOKEN_AUTH_METHODS.join(', ')}`,
    );
  }
  const grantTypes = meta.grant_types ?? ['authorization_code', 'refresh_token'];
  if (grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
    throw new OAuthRequestError(
      'invalid_client_metadata',
      'this server supports the grant types authorization_code and refresh_token only',
    );
  }
  const responseTypes = meta.response_types ?? ['code'];
  if (responseTypes.some((r) => r !== 'code')) {
    throw new OAuthRequestError('invalid_client_metadata', 'this server supports response_type code only');
  }
  return store.register({
    client_name: cleanDisplayName(meta.client_name, 'an unnamed OAuth client'),
    redirect_uris: meta.redirect_uris,
    token_endpoint_auth_method: method,
    grant_types: grantTypes,
    response_types: responseTypes,
  });
}
