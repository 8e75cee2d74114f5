import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { TOKEN_AUTH_METHODS } from './oauth-clients.js';
import { resourceOf } from './oauth-tokens.js';

/** Where the protected-resource metadata of /mcp is (RFC 9728 section 3.1: the path appended). */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource/mcp';
/** The root form some clients try first. */
export const PROTECTED_RESOURCE_ROOT_PATH = '/.well-known/oauth-protected-resource';
/** RFC 8414 authorization server metadata. */
export const AUTHORIZATION_SERVER_PATH = '/.well-known/oauth-authorization-server';

/** The endpoints of droidbus's authorization server. */
export const OAUTH_PATHS = {
  authorize: '/authorize',
  status: '/authorize/status',
  continue: '/authorize/continue',
  token: '/token',
  register: '/register',
} as const;

/** The RFC 9728 document: /mcp is protected by this host's own authorization server. */
export function protectedResourceMetadata(base: string): OAuthProtectedResourceMetadata {
  return {
    resource: resourceOf(base),
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    resource_name: 'droidbus',
  };
}

/** The RFC 8414 document: authorization code with PKCE S256 only, refresh tokens, registration. */
export function authorizationServerMetadata(base: string): OAuthMetadata {
  return {
    issuer: base,
    authorization_endpoint: `${base}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${base}${OAUTH_PATHS.token}`,
    registration_endpoint: `${base}${OAUTH_PATHS.register}`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: [...TOKEN_AUTH_METHODS],
    authorization_response_iss_parameter_supported: true,
  } as OAuthMetadata;
}
