import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** What the tap tells about a connected transport. */
export interface TransportTap {
  /** Requests from the client not answered yet. */
  pending(): number;
  /** How many `initialize` requests the client sent. */
  initializeCount(): number;
  /** Resolves once every request received so far is answered (or after `timeoutMs`). */
  whenIdle(timeoutMs: number): Promise<void>;
}

type Id = string | number;

function requestId(message: JSONRPCMessage): Id | undefined {
  return 'method' in message && 'id' in message ? message.id : undefined;
}

function responseId(message: JSONRPCMessage): Id | undefined {
  return ('result' in message || 'error' in message) && 'id' in message ? message.id : undefined;
}

/**
 * Watches a transport the server is connected to: which client requests are still unanswered,
 * so a frontend that must exit (the host quit under --attach-only) first lets the failed calls
 * answer. Call it after `server.connect(transport)`.
 */
export function tapTransport(transport: Transport): TransportTap {
  const open = new Set<Id>();
  let initializes = 0;
  let waiters: (() => void)[] = [];
  const settle = (): void => {
    if (open.size === 0) {
      const ready = waiters;
      waiters = [];
      ready.forEach((resolve) => resolve());
    }
  };
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const id = requestId(message);
    if (id !== undefined) {
      open.add(id);
      if ('method' in message && message.method === 'initialize') {
        initializes++;
      }
    }
    onmessage?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      const id = responseId(message);
      if (id !== undefined && open.delete(id)) {
        settle();
      }
    }
  };
  return {
    pending: () => open.size,
    initializeCount: () => initializes,
    whenIdle: (timeoutMs) =>
      new Promise<void>((resolve) => {
        if (open.size === 0) {
          resolve();
          return;
        }
        const timer = setTimeout(resolve, timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
