import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { SignJWT, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortTempDir, waitFor } from '../helpers/host.js';
import { INITIALIZE, mcpHeaders, rawRequest, startHttpHost } from '../helpers/http-host.js';
import type { HttpHost } from '../helpers/http-host.js';
import { MemoryOAuthProvider, REDIRECT } from '../helpers/oauth-client.js';
import { runCli } from '../helpers/run-cli.js';

// Each group of tests gets its own host: failed authentications from 127.0.0.1 are rate-limited
// (10 a minute), and the refusal tests below fail on purpose.
let home: ReturnType<typeof shortTempDir>;
let env: Record<string, string>;
let host: HttpHost;
let clients: Client[] = [];
/** Every token the SDK clients were given, to look for in the logs. */
const issued: string[] = [];

function withOwnHost(): void {
  beforeAll(async () => {
    home = shortTempDir('db-hto-');
    env = { DROIDBUS_HOME: home.dir, DROIDBUS_LOG: 'info' };
    clients = [];
    host = await startHttpHost({ env });
  });
  afterAll(async () => {
    for (const c of clients) {
      await c.close().catch(() => undefined);
    }
    await host?.stop();
    home.remove();
  });
}

async function cli(args: string[]): Promise<string> {
  const r = await runCli(args, { env });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

/**
 * What a person does with the consent page: read its 2-digit code, approve it with the real
 * `droidbus approve`, and let the page continue to the client's redirect URI. Returns that URI.
 */
async function approveInBrowser(authorizationUrl: URL | string): Promise<URL> {
  const page = await fetch(authorizationUrl);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  const html = await page.text();
  const code = /id="approval-code">(\d{2})</.exec(html)?.[1];
  const next = /http-equiv="refresh" content="\d+;url=([^"]+)"/.exec(html)?.[1];
  expect(code).toBeDefined();
  expect(next).toBeDefined();
  const continueUrl = new URL(next!, host.base);
  // Until the user decides, the page only shows itself again.
  expect((await fetch(continueUrl, { redirect: 'manual' })).status).toBe(200);
  // The host tells its person too (its stdout is a pipe of its own: wait for the line).
  await waitFor(() => host.stdout().includes(`droidbus approve ${code}`), 'the host to print the code');
  expect(await cli(['approve'])).toContain(`${code}  `);
  expect(await cli(['approve', code!])).toMatch(/^Approved /);
  const redirect = await fetch(continueUrl, { redirect: 'manual' });
  expect(redirect.status).toBe(302);
  return new URL(redirect.headers.get('location')!);
}

/** The whole flow through the SDK client: 401, discovery, registration, PKCE, approval, token. */
async function authorizeWithSdk(name: string): Promise<{ client: Client; provider: MemoryOAuthProvider }> {
  const provider = new MemoryOAuthProvider(name);
  const first = new Client({ name, version: '1.0.0' });
  await expect(
    first.connect(new StreamableHTTPClientTransport(new URL(host.mcpUrl), { authProvider: provider })),
  ).rejects.toThrow(UnauthorizedError);
  const asked = provider.authorizationUrl!;
  expect(asked.origin + asked.pathname).toBe(`${host.base}/authorize`);
  expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
  expect(asked.searchParams.get('resource')).toBe(host.mcpUrl);
  const landed = await approveInBrowser(asked);
  expect(landed.origin + landed.pathname).toBe(REDIRECT);
  expect(landed.searchParams.get('iss')).toBe(host.base);
  const transport = new StreamableHTTPClientTransport(new URL(host.mcpUrl), { authProvider: provider });
  await transport.finishAuth(landed.searchParams.get('code')!);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(host.mcpUrl), { authProvider: provider }));
  clients.push(client);
  issued.push(provider.saved!.access_token, provider.saved!.refresh_token!);
  return { client, provider };
}

/** PKCE by hand, for the flows the test drives without the SDK. */
function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

async function register(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${host.base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function tokenRequest(params: Record<string, string>): Promise<Response> {
  return fetch(`${host.base}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
}

function initializeWith(accessToken: string) {
  return rawRequest(host.mcpUrl, { method: 'POST', headers: mcpHeaders(accessToken), body: INITIALIZE });
}

interface StoredClient {
  client_id: string;
  client_name: string;
  grants: { gid: string }[];
}

function storedClients(): StoredClient[] {
  return (
    JSON.parse(readFileSync(path.join(home.dir, 'oauth-clients.json'), 'utf8')) as { clients: StoredClient[] }
  ).clients;
}

/** The host's signing secret, as the test may read it from the data directory. */
function hostSecret(): Uint8Array {
  return Buffer.from(readFileSync(path.join(home.dir, 'oauth-secret.key'), 'utf8').trim(), 'base64url');
}

describe('droidbus host --http as an OAuth 2.1 authorization server', () => {
  withOwnHost();

  it('publishes RFC 9728 resource metadata (both forms) and RFC 8414 server metadata', async () => {
    for (const p of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const prm = (await (await fetch(`${host.base}${p}`)).json()) as Record<string, unknown>;
      expect(prm).toMatchObject({ resource: host.mcpUrl, authorization_servers: [host.base] });
    }
    const meta = (await (
      await fetch(`${host.base}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({
      issuer: host.base,
      authorization_endpoint: `${host.base}/authorize`,
      token_endpoint: `${host.base}/token`,
      registration_endpoint: `${host.base}/register`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });
  });

  it('runs the whole flow with the SDK client: discovery, registration, PKCE, number-match approval, token, a tool call', async () => {
    const { client, provider } = await authorizeWithSdk('e2e agent');
    expect(provider.saved?.token_type).toBe('Bearer');
    expect(provider.saved?.expires_in).toBe(24 * 3600);
    const result = await client.callTool({ name: 'get_project_info', arguments: {} });
    expect(result.isError).toBeFalsy();
    const status = JSON.parse(await cli(['status', '--json'])) as {
      host: { sessions: { kind: string; auth: string | null }[] };
    };
    expect(status.host.sessions).toContainEqual(
      expect.objectContaining({ kind: 'http', auth: 'oauth: e2e agent' }),
    );
    expect(await cli(['oauth', '--list-clients'])).toMatch(
      /e2e agent \(returns to 127\.0\.0\.1:9; .* 1 live grant\)/,
    );
    // Standard JWT tooling agrees with droidbus on what it signed.
    const { payload, protectedHeader } = await jwtVerify(provider.saved!.access_token, hostSecret(), {
      audience: host.mcpUrl,
      issuer: host.base,
    });
    expect(protectedHeader).toMatchObject({ alg: 'HS256', typ: 'at+jwt' });
    expect(payload['client_id']).toBe(provider.info?.client_id);
  });

  it('refreshes an access token through the SDK client, and a used refresh token is refused (and revokes the grant)', async () => {
    const { client, provider } = await authorizeWithSdk('refreshing agent');
    const before = provider.saved!;
    // The access token goes bad: the SDK client gets a 401, refreshes, and repeats the call.
    provider.saved = { ...before, access_token: 'not-a-valid-token' };
    const result = await client.callTool({ name: 'get_project_info', arguments: {} });
    expect(result.isError).toBeFalsy();
    const after = provider.saved;
    expect(after.refresh_token).toBeDefined();
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.access_token).not.toBe('not-a-valid-token');
    expect((await initializeWith(after.access_token)).status).toBe(200);

    const replay = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: before.refresh_token!,
      client_id: provider.info!.client_id,
    });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');
    // Reuse means the refresh token leaked: everything of that grant stops working.
    expect((await initializeWith(after.access_token)).status).toBe(401);
  });

  it('approves only a code that is waiting, and only through the host', async () => {
    const r = await runCli(['approve', '42'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no authorization request shows the code 42');
    const none = await runCli(['approve', '42'], { env: { DROIDBUS_HOME: path.join(home.dir, 'nowhere') } });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no droidbus host is running');
  });
  it('never writes an issued token or code to the activity log, stdout or stderr', async () => {
    await host.stop();
    const activity = readFileSync(path.join(home.dir, 'mcp-activity.jsonl'), 'utf8');
    expect(activity).toContain('OAuth access granted to e2e agent');
    expect(activity).toContain('HTTP client attached from 127.0.0.1 as the OAuth client e2e agent');
    expect(issued.length).toBeGreaterThan(0);
    for (const token of issued) {
      const signature = token.split('.')[2]!;
      for (const text of [activity, host.stderr(), host.stdout()]) {
        expect(text).not.toContain(signature);
      }
    }
  });
});

describe('droidbus host --http refuses codes and tokens it should not honour', () => {
  withOwnHost();

  it('refuses an authorization code used twice, and revokes what its first use gave', async () => {
    const reg = await register({
      client_name: 'by hand',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    expect(reg.status).toBe(201);
    const { client_id } = (await reg.json()) as { client_id: string };
    const { verifier, challenge } = pkce();
    const url = new URL(`${host.base}/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'xyz',
      resource: host.mcpUrl,
    })) {
      url.searchParams.set(k, v);
    }
    const landed = await approveInBrowser(url);
    expect(landed.searchParams.get('state')).toBe('xyz');
    const code = landed.searchParams.get('code')!;
    const params = {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id,
    };
    const wrongVerifier = await tokenRequest({ ...params, code_verifier: pkce().verifier });
    expect(wrongVerifier.status).toBe(400);
    // The failed attempt burned the code: codes are single-use whatever happens.
    const first = await tokenRequest(params);
    expect(first.status).toBe(400);
    expect(((await first.json()) as { error: string }).error).toBe('invalid_grant');

    const again = await approveInBrowser(url);
    const fresh = { ...params, code: again.searchParams.get('code')! };
    const ok = await tokenRequest(fresh);
    expect(ok.status).toBe(200);
    const tokens = (await ok.json()) as OAuthTokens;
    expect((await initializeWith(tokens.access_token)).status).toBe(200);
    const replayed = await tokenRequest(fresh);
    expect(replayed.status).toBe(400);
    expect(((await replayed.json()) as { error_description: string }).error_description).toContain(
      'already used',
    );
    expect((await initializeWith(tokens.access_token)).status).toBe(401);
  });

  it('stops a revoked client at once: droidbus oauth --revoke-client ends its tokens', async () => {
    const { client, provider } = await authorizeWithSdk('to be revoked');
    const id = provider.info!.client_id;
    const access = provider.saved!.access_token;
    expect((await initializeWith(access)).status).toBe(200);
    expect(await cli(['oauth', '--revoke-client', id])).toContain('Removed to be revoked');
    expect((await initializeWith(access)).status).toBe(401);
    // Its live session goes too: the next call is refused, and refreshing fails (unknown client).
    await expect(client.callTool({ name: 'get_project_info', arguments: {} })).rejects.toThrow();
    expect(await cli(['oauth', '--list-clients'])).not.toContain('to be revoked');
  });
});

describe('droidbus host --http checks every token and request it gets', () => {
  withOwnHost();

  it('accepts a token it signed for /mcp, and refuses one for another audience, an expired one and a forged one', async () => {
    const { provider } = await authorizeWithSdk('audience check');
    const stored = storedClients().find((c) => c.client_id === provider.info!.client_id)!;
    const gid = stored.grants[0]!.gid;
    const now = Math.floor(Date.now() / 1000);
    const sign = (claims: Record<string, unknown>, typ = 'at+jwt', secret = hostSecret()) =>
      new SignJWT({ client_id: stored.client_id, gid, token_use: 'access', jti: 'test', ...claims })
        .setProtectedHeader({ alg: 'HS256', typ })
        .setIssuer(host.base)
        .setSubject(stored.client_id)
        .setIssuedAt(now - 10)
        .sign(secret);
    const good = await sign({ aud: host.mcpUrl, exp: now + 600 });
    expect((await initializeWith(good)).status).toBe(200);
    const wrongAud = await sign({ aud: 'https://evil.example/mcp', exp: now + 600 });
    expect((await initializeWith(wrongAud)).status).toBe(401);
    const expired = await sign({ aud: host.mcpUrl, exp: now - 3600 });
    expect((await initializeWith(expired)).status).toBe(401);
    const plainJwt = await sign({ aud: host.mcpUrl, exp: now + 600 }, 'JWT');
    expect((await initializeWith(plainJwt)).status).toBe(401);
    const otherSecret = await sign({ aud: host.mcpUrl, exp: now + 600 }, 'at+jwt', randomBytes(32));
    expect((await initializeWith(otherSecret)).status).toBe(401);
    const refreshAsAccess = await sign({ aud: host.mcpUrl, exp: now + 600, token_use: 'refresh' });
    expect((await initializeWith(refreshAsAccess)).status).toBe(401);
  });

  it('registers only redirect URIs on https or loopback http', async () => {
    for (const bad of [
      'http://evil.example/cb',
      'myapp://callback',
      'https://ok.example/cb#frag',
      'javascript:alert(1)',
    ]) {
      const r = await register({
        client_name: 'bad',
        redirect_uris: [bad],
        token_endpoint_auth_method: 'none',
      });
      expect(r.status, bad).toBe(400);
      expect(((await r.json()) as { error: string }).error).toMatch(
        /invalid_redirect_uri|invalid_client_metadata/,
      );
    }
    const good = await register({
      client_name: 'good',
      redirect_uris: ['https://app.example/cb', 'http://localhost:43123/cb', 'http://[::1]:5000/x'],
      token_endpoint_auth_method: 'none',
    });
    expect(good.status).toBe(201);
  });

  it('requires PKCE with S256 and the right resource on the authorization request', async () => {
    const reg = await register({
      client_name: 'pkce',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    const { client_id } = (await reg.json()) as { client_id: string };
    const ask = async (extra: Record<string, string>): Promise<URL> => {
      const url = new URL(`${host.base}/authorize`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id,
        redirect_uri: REDIRECT,
        ...extra,
      }).toString();
      const r = await fetch(url, { redirect: 'manual' });
      expect(r.status).toBe(302);
      return new URL(r.headers.get('location')!);
    };
    const challenge = pkce().challenge;
    expect((await ask({})).searchParams.get('error')).toBe('invalid_request');
    expect(
      (await ask({ code_challenge: challenge, code_challenge_method: 'plain' })).searchParams.get('error'),
    ).toBe('invalid_request');
    expect(
      (
        await ask({
          code_challenge: challenge,
          code_challenge_method: 'S256',
          resource: 'https://evil.example/mcp',
        })
      ).searchParams.get('error'),
    ).toBe('invalid_target');
    // A redirect URI the client did not register gets no redirect at all.
    const url = new URL(`${host.base}/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: 'https://evil.example/cb',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(400);
  });
});
