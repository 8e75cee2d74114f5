import { McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * The code a failed tool call is counted under. A JSON-RPC error has its own (`invalid_params`,
 * `internal_error`, `request_timeout`); a tool result with `isError` carries only its text, so the
 * text says which bus error it was, in the words src/mcp/server.ts gives each code.
 */
export function codeOfToolText(text: string): string {
  const checks: [RegExp, string][] = [
    [
      / is busy \(| is busy\b|already registered|held by (another )?(process|pid)|holds the UI Automator/i,
      'BUSY',
    ],
    [/did not finish before its deadline|took longer than/i, 'TIMEOUT'],
    [/^Cancelled:/, 'CANCELLED'],
    [/crashed while handling|replaced its worker thread/, 'CRASHED'],
    [
      /is no longer connected|went (offline|unauthorized)|Call list_devices to see which devices are online/,
      'DEVICE_OFFLINE',
    ],
    [/the screen changed since it was read/, 'SCREEN_CHANGED'],
    [/host quit|host went away/, 'UNAVAILABLE'],
    [/Try again; if it persists run run_health_check/, 'UNAVAILABLE'],
    [/another build|already running|build lock/i, 'BUILD_BUSY'],
  ];
  for (const [re, code] of checks) {
    if (re.test(text)) {
      return code;
    }
  }
  return 'TOOL_ERROR';
}

/** The code of an error a tools/call threw (a JSON-RPC error, or the transport failing). */
export function codeOfThrown(err: unknown): string {
  if (err instanceof McpError) {
    switch (err.code) {
      case -32602:
        return 'invalid_params';
      case -32603:
        return 'internal_error';
      case -32001:
        return 'request_timeout';
      case -32000:
        return 'connection_closed';
      default:
        return `jsonrpc_${err.code}`;
    }
  }
  return 'transport_error';
}
