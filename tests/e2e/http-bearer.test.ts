import { readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortTempDir } from '../helpers/host.js';
import { INITIALIZE, bearerClient, mcpHeaders, rawRequest, startHttpHost } from '../helpers/http-host.js';
import type { HttpHost } from '../helpers/http-host.js';
import { runCli } from '../helpers/run-cli.js';
import { startAdbServer, type AdbServer } from '../helpers/adb-server.js';

const home = shortTempDir('db-htb-');
// Info-level logs, so a token that leaked into a log line would show up in stderr.
const env: Record<string, string> = { DROIDBUS_HOME: home.dir, DROIDBUS_LOG: 'info' };
// The host would otherwise start the machine's default adb server (port 5037), which outlives it.
let adbServer: AdbServer;
let host: HttpHost;
let token: string;
const tokensSeen: string[] = [];
const clients: Client[] = [];

function settingsFile(): string {
  return path.join(home.dir, 'settings.json');
}

/** Changes settings.json the way a person editing it would (the host reads it fresh). */
function editHttpSettings(change: (http: Record<string, unknown>) => void): void {
  const settings = JSON.parse(readFileSync(settingsFile(), 'utf8')) as { http: Record<string, unknown> };
  change(settings.http);
  writeFileSync(settingsFile(), JSON.stringify(settings, null, 2));
}

async function cli(args: string[]): Promise<string> {
  const r = await runCli(args, { env });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

function initialize(tokenToSend?: string, extra: Record<string, string> = {}) {
  return rawRequest(host.mcpUrl, {
    method: 'POST',
    headers: mcpHeaders(tokenToSend, extra),
    body: INITIALIZE,
  });
}

beforeAll(async () => {
  adbServer = await startAdbServer();
  env['ANDROID_ADB_SERVER_PORT'] = String(adbServer.port);
  host = await startHttpHost({ env });
  token = (await cli(['token'])).trim();
  tokensSeen.push(token);
});
afterAll(async () => {
  for (const c of clients) {
    await c.close().catch(() => undefined);
  }
  await host?.stop();
  await adbServer?.stop();
  home.remove();
});

describe('droidbus host --http with the bearer token', () => {
  it('generates a 32-byte base64url token once, kept in settings.json with mode 0600', async () => {
    expect(token).toMatch(/^dbt_[A-Za-z0-9_-]{43}$/);
    expect((await cli(['token'])).trim()).toBe(token);
    expect(statSync(settingsFile()).mode & 0o777).toBe(0o600);
  });

  it('refuses a request without a token with 401 and points OAuth clients at the resource metadata', async () => {
    const r = await initialize();
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toBe(
      `Bearer resource_metadata="${host.base}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(JSON.parse(r.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
  });

  it('sends no WWW-Authenticate on a 401 while OAuth is off', async () => {
    await cli(['oauth', '--disable']);
    try {
      const r = await initialize();
      expect(r.status).toBe(401);
      expect(r.headers['www-authenticate']).toBeUndefined();
      // The authorization server is gone with it.
      const meta = await rawRequest(`${host.base}/.well-known/oauth-authorization-server`);
      expect(meta.status).toBe(404);
    } finally {
      await cli(['oauth', '--enable']);
    }
    expect((await initialize()).headers['www-authenticate']).toContain('resource_metadata=');
  });

  it('lists tools and calls one for an SDK client with the bearer token, as a session of the host', async () => {
    const client = await bearerClient(host.mcpUrl, token);
    clients.push(client);
    expect(client.getServerVersion()?.title).toBe('droidbus (attached to the droidbus host)');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_project_info');
    const result = await client.callTool({ name: 'get_project_info', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ mode: 'attached', follows_host: true });

    const status = JSON.parse(await cli(['status', '--json'])) as {
      host: {
        http: { url: string } | null;
        sessions: { kind: string; auth: string | null; client_name: string | null }[];
      };
    };
    expect(status.host.http?.url).toBe(host.mcpUrl);
    expect(status.host.sessions).toContainEqual(
      expect.objectContaining({ kind: 'http', auth: 'bearer', client_name: 'droidbus-http-e2e' }),
    );
    expect(await cli(['status'])).toMatch(
      /HTTP sessions \(1\):\n.*droidbus-http-e2e.*over HTTP from 127\.0\.0\.1 \(auth: bearer\)/,
    );
  });

  it('serves only the toolsets the URL names', async () => {
    const client = await bearerClient(`${host.mcpUrl}?toolsets=ui`, token, 'ui-only');
    clients.push(client);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('ui_tap');
    expect(names).not.toContain('get_project_info');
    const plain = await bearerClient(host.mcpUrl, token, 'defaults');
    const every = await bearerClient(`${host.mcpUrl}?toolsets=all`, token, 'every-toolset');
    clients.push(plain, every);
    const plainNames = (await plain.listTools()).tools.map((t) => t.name);
    expect(plainNames).toContain('get_project_info');
    expect(plainNames).not.toContain('get_memory_info');
    expect((await every.listTools()).tools.map((t) => t.name)).toContain('get_memory_info');
    // settings.json's http.toolsets, for URLs that name none: "all" is every toolset.
    editHttpSettings((h) => (h['toolsets'] = ['all']));
    try {
      const configured = await bearerClient(host.mcpUrl, token, 'configured-all');
      clients.push(configured);
      expect((await configured.listTools()).tools.map((t) => t.name)).toContain('get_memory_info');
    } finally {
      editHttpSettings((h) => (h['toolsets'] = null));
    }
    const bad = await rawRequest(`${host.mcpUrl}?toolsets=nope`, {
      method: 'POST',
      headers: mcpHeaders(token),
      body: INITIALIZE,
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("unknown toolset 'nope'");
  });

  it('answers in JSON by default and over SSE to a client that prefers it; GET opens an SSE stream; DELETE ends the session', async () => {
    const json = await initialize(token);
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toContain('application/json');
    const sse = await initialize(token, { accept: 'text/event-stream, application/json;q=0.5' });
    expect(sse.status).toBe(200);
    expect(sse.headers['content-type']).toContain('text/event-stream');
    expect(sse.body).toMatch(/^event: message\ndata: \{.*"protocolVersion"/m);

    const id = json.headers['mcp-session-id'] as string;
    const session = mcpHeaders(token, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' });
    // A GET with the session opens its server-to-client SSE stream (headers only: it stays open).
    const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const url = new URL(host.mcpUrl);
      http
        .request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'GET',
            headers: { ...session, accept: 'text/event-stream' },
          },
          resolve,
        )
        .on('error', reject)
        .end();
    });
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-type']).toContain('text/event-stream');
    stream.destroy();
    const del = await rawRequest(host.mcpUrl, { method: 'DELETE', headers: session });
    expect(del.status).toBe(200);
    const after = await rawRequest(host.mcpUrl, {
      method: 'POST',
      headers: session,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
  });

  it('refuses a wrong token', async () => {
    const r = await initialize(`dbt_${'A'.repeat(43)}`);
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toContain('error="invalid_token"');
    expect((await initialize(token.slice(0, -1))).status).toBe(401);
  });

  it('refuses everyone while the configured token is empty (bearer on fails closed)', async () => {
    editHttpSettings((h) => {
      h['bearer_token'] = '';
    });
    try {
      expect((await initialize(token)).status).toBe(401);
      expect((await initialize('')).status).toBe(401);
      const r = await rawRequest(host.mcpUrl, {
        method: 'POST',
        headers: { ...mcpHeaders(), authorization: 'Bearer ' },
        body: INITIALIZE,
      });
      expect(r.status).toBe(401);
    } finally {
      editHttpSettings((h) => {
        h['bearer_token'] = token;
      });
    }
    expect((await initialize(token)).status).toBe(200);
  });

  it('takes a rotated token at once: the new one works and the old one stops, without a restart', async () => {
    const rotated = (await cli(['token', '--rotate'])).trim();
    tokensSeen.push(rotated);
    expect(rotated).not.toBe(token);
    expect((await initialize(token)).status).toBe(401);
    const client = await bearerClient(host.mcpUrl, rotated, 'after-rotation');
    clients.push(client);
    expect((await client.callTool({ name: 'get_project_info', arguments: {} })).isError).toBeFalsy();
    token = rotated;
  });

  it('refuses a request for another Host name (DNS rebinding) and from a foreign Origin with 403', async () => {
    const evilHost = await initialize(token, { host: 'evil.example' });
    expect(evilHost.status).toBe(403);
    const evilPort = await initialize(token, { host: `127.0.0.1:${host.port + 1}` });
    expect(evilPort.status).toBe(403);
    const evilOrigin = await initialize(token, { origin: 'http://evil.example' });
    expect(evilOrigin.status).toBe(403);
    const nullOrigin = await initialize(token, { origin: 'null' });
    expect(nullOrigin.status).toBe(403);
    // Our own names pass: localhost and the page's own origin.
    const own = await initialize(token, {
      host: `localhost:${host.port}`,
      origin: `http://localhost:${host.port}`,
    });
    expect(own.status).toBe(200);
    expect(own.headers['access-control-allow-origin']).toBe(`http://localhost:${host.port}`);
  });

  it('answers to a name the user configured in http.allowed_hosts', async () => {
    expect((await initialize(token, { host: 'devbox.example' })).status).toBe(403);
    editHttpSettings((h) => {
      h['allowed_hosts'] = ['devbox.example'];
    });
    expect((await initialize(token, { host: 'devbox.example' })).status).toBe(200);
  });

  it('keeps at most 32 HTTP sessions: a new one closes the one idle longest', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 33; i++) {
      const r = await initialize(token);
      expect(r.status).toBe(200);
      ids.push(r.headers['mcp-session-id'] as string);
    }
    const status = JSON.parse(await cli(['status', '--json'])) as { host: { sessions: { kind: string }[] } };
    expect(status.host.sessions.filter((s) => s.kind === 'http')).toHaveLength(32);
    const list = (id: string) =>
      rawRequest(host.mcpUrl, {
        method: 'POST',
        headers: mcpHeaders(token, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' }),
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
    expect((await list(ids[32]!)).status).toBe(200);
    // The SDK clients above hold their SSE stream open: they are in use, never the ones closed.
    expect((await clients[clients.length - 1]!.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('slows failed authentications per address and per token: past 10 a minute a wrong one gets 429 with Retry-After, the right one still gets in', async () => {
    let limited;
    for (let i = 0; i < 12; i++) {
      const r = await initialize(`dbt_wrong-${i}`);
      if (r.status === 429) {
        limited = r;
        break;
      }
      expect(r.status).toBe(401);
    }
    expect(limited?.status).toBe(429);
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited?.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Everyone on 127.0.0.1 shares that address: a valid token is never refused by the limiter.
    expect((await initialize(token)).status).toBe(200);
    // The same wrong token from the address keeps being slowed.
    expect((await initialize('dbt_wrong-0')).status).toBe(429);
  });

  it('never writes a token to the activity log, stdout or stderr', async () => {
    // Stopped first, so every line it would ever write is in.
    await host.stop();
    const activity = readFileSync(path.join(home.dir, 'mcp-activity.jsonl'), 'utf8');
    expect(activity).toContain('HTTP client attached from 127.0.0.1 with the bearer token');
    expect(activity).toContain('Host stopped');
    expect(host.stderr()).toContain('refused a request to /mcp');
    for (const t of tokensSeen) {
      for (const text of [activity, host.stderr(), host.stdout()]) {
        expect(text).not.toContain(t.slice(4, 20));
      }
    }
  });
});
