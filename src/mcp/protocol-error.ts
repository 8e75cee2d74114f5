/**
 * JSON-RPC errors for what MCP keeps as protocol errors (an unknown tool, a malformed request, a
 * missing resource or prompt argument). The SDK's McpError writes "MCP error CODE: " into its
 * message, which the server sends as is and the client's McpError prefixes again ("MCP error
 * -32602: MCP error -32602: …"); the SDK's protocol layer only reads `code`, `message` and `data`,
 * so a plain Error carrying a code is sent with the message alone.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** -32602: the request's params are wrong (an unknown tool, a malformed call). */
export const INVALID_PARAMS = -32602;
/** -32600: the request cannot be served as asked. */
export const INVALID_REQUEST = -32600;
/** -32603: droidbus failed (a bug); never for a client's mistake. */
export const INTERNAL_ERROR = -32603;
/** -32002: the resource does not exist (the MCP spec's code). */
export const RESOURCE_NOT_FOUND = -32002;
