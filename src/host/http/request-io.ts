import type { IncomingMessage, ServerResponse } from 'node:http';

/** The client's address as the socket reports it (IPv4-mapped IPv6 written as IPv4). */
export function clientAddress(req: IncomingMessage): string {
  const raw = req.socket.remoteAddress ?? 'unknown';
  return raw.startsWith('::ffff:') && raw.includes('.') ? raw.slice(7) : raw;
}

/** Reads a request body up to `limit` bytes; 'too_large' (and the rest discarded) past it. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) {
        return;
      }
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(tooLarge ? 'too_large' : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/** Sends a JSON body. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Sends a JSON-RPC error with no id (the transport-level errors of /mcp). */
export function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

/** Sends an HTML page. */
export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string>,
): void {
  res.writeHead(status, { ...headers, 'Content-Length': Buffer.byteLength(html) });
  res.end(html);
}

/** Sends a redirect (302) that is never cached. */
export function sendRedirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { Location: location, 'Cache-Control': 'no-store', 'Content-Length': 0 });
  res.end();
}

/** The first value of a header that may repeat. */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
