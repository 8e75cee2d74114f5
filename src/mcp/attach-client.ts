import { existsSync } from 'node:fs';
import { ATTACH_TIMEOUT_MS, ATTACH_VERSION, attachReplySchema } from '../bus/attach-handshake.js';
import type { AttachAccepted, AttachHello } from '../bus/attach-handshake.js';
import type { Origin } from '../bus/origin.js';
import { connectSocketBus } from '../bus/socket-client.js';
import type { SocketBusClient } from '../bus/socket-client.js';
import { hostSocketPath, socketPathProblem } from '../store/host-socket.js';
import { VERSION } from '../version.js';
import type { Toolset } from './toolsets.js';

/** What this session asks the host for. */
export interface AttachRequest {
  sessionId: string;
  /** The project it wants (canonical), or null to follow the host's. */
  project: string | null;
  selectedBy: 'argument' | 'working_directory' | null;
  /** Only when the user passed --toolsets: the host must echo exactly these. */
  toolsets?: readonly Toolset[];
  /** Who the connection's requests come from. */
  origin: Origin;
  socketPath?: string;
  timeoutMs?: number;
}

export type AttachOutcome =
  | { kind: 'attached'; client: SocketBusClient; reply: AttachAccepted }
  | { kind: 'standalone'; reason: string };

/**
 * Tries to attach this `droidbus mcp` to a running host: connect to its socket, send the hello,
 * read the answer — all within ATTACH_TIMEOUT_MS. Anything short of an accepted session (no host,
 * a refusal, no answer in time, toolsets the host did not apply) comes back as the reason this
 * session runs standalone. It never starts a host.
 */
export async function attachToHost(request: AttachRequest): Promise<AttachOutcome> {
  const socketPath = request.socketPath ?? hostSocketPath();
  const timeoutMs = request.timeoutMs ?? ATTACH_TIMEOUT_MS;
  const tooLong = socketPathProblem(socketPath);
  if (tooLong) {
    return { kind: 'standalone', reason: tooLong };
  }
  if (process.platform !== 'win32' && !existsSync(socketPath)) {
    return { kind: 'standalone', reason: 'no droidbus host is running' };
  }
  const hello: AttachHello = {
    attach: ATTACH_VERSION,
    version: VERSION,
    role: 'session',
    session_id: request.sessionId,
    project: request.project,
    pid: process.pid,
    selected_by: request.project === null ? null : request.selectedBy,
    client_name: null,
    ...(request.toolsets ? { toolsets: [...request.toolsets] } : {}),
  };
  let opened: { reply: unknown; client: SocketBusClient };
  try {
    opened = await connectSocketBus({ path: socketPath, hello, timeoutMs, origin: request.origin });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') {
      return { kind: 'standalone', reason: 'no droidbus host is running' };
    }
    const message = (err as Error).message;
    return {
      kind: 'standalone',
      reason: message.includes('did not answer')
        ? `the droidbus host did not answer within ${(timeoutMs / 1000).toFixed(1)} s`
        : `could not reach the droidbus host: ${message}`,
    };
  }
  const reply = attachReplySchema.safeParse(opened.reply);
  if (!reply.success) {
    await opened.client.close();
    return {
      kind: 'standalone',
      reason: 'the droidbus host answered with a handshake this droidbus does not understand',
    };
  }
  if (!reply.data.accepted) {
    await opened.client.close();
    return { kind: 'standalone', reason: `the droidbus host refused this session: ${reply.data.reason}` };
  }
  if (request.toolsets) {
    const echoed = reply.data.toolsets;
    if (!echoed || echoed.join(',') !== request.toolsets.join(',')) {
      await opened.client.close();
      return {
        kind: 'standalone',
        reason: `the droidbus host (version ${reply.data.version}) cannot limit a session to --toolsets ${request.toolsets.join(',')}`,
      };
    }
  }
  return { kind: 'attached', client: opened.client, reply: reply.data };
}
