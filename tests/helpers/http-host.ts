/**
 * `droidbus host --http` for end-to-end tests: the built CLI as a real process, its MCP URL read
 * from what it prints, plain HTTP requests with any headers (Host included), and SDK clients.
 *
 *   const host = await startHttpHost({ env: { DROIDBUS_HOME: home.dir } });
 *   const client = await bearerClient(host.mcpUrl, token);
 */
import http from 'node:http';
import https from 'node:https';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHostProcess, waitFor } from './host.js';
import type { HostProcess } from './host.js';

export interface HttpHost extends HostProcess {
  /** `http://127.0.0.1:PORT` */
  base: string;
  /** `${base}/mcp` */
  mcpUrl: string;
  port: number;
}

/** Starts the built host with `--http ADDR` (default 127.0.0.1:0) and reads its URL. */
export async function startHttpHost(options: {
  env: Record<string, string>;
  address?: string;
  args?: string[];
}): Promise<HttpHost> {
  const host = await startHostProcess(['--http', options.address ?? '127.0.0.1:0', ...(options.args ?? [])], {
    env: options.env,
  });
  const line = await waitFor(
    () => /http: MCP at (\S+)\/mcp/.exec(host.stdout()),
    'the host to print its URL',
  );
  const base = line[1]!;
  return { ...host, base, mcpUrl: `${base}/mcp`, port: Number(new URL(base).port) };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP(S) request with exactly these headers (fetch cannot set Host). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; ca?: string } = {},
): Promise<RawResponse> {
  const target = new URL(url);
  const lib = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      {
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        agent: false,
        ...(options.ca ? { ca: options.ca } : {}),
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** An MCP initialize request body. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-e2e', version: '1' } },
});

/** The headers of an MCP POST, with a bearer token when given. */
export function mcpHeaders(token?: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
    ...extra,
  };
}

/** An SDK client connected over Streamable HTTP with a bearer token. */
export async function bearerClient(
  mcpUrl: string,
  token: string,
  name = 'droidbus-http-e2e',
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}
