import { ATTACH_VERSION, attachReplySchema } from '../bus/attach-handshake.js';
import type { AttachHello } from '../bus/attach-handshake.js';
import { connectSocketBus } from '../bus/socket-client.js';
import type { SocketBusClient } from '../bus/socket-client.js';
import { hostSocketPath } from '../store/host-socket.js';
import { VERSION } from '../version.js';

/** Why a control connection could not be made. */
export class HostUnreachableError extends Error {
  constructor(
    message: string,
    /** `absent`: no host runs; `refused`: one runs and said no; `failed`: anything else. */
    readonly kind: 'absent' | 'refused' | 'failed',
  ) {
    super(message);
    this.name = 'HostUnreachableError';
  }
}

/**
 * Opens a control connection to the running host (the person's commands: status, open, close).
 * Control connections are not agent sessions: they do not count against the session limit.
 */
export async function connectControl(
  socketPath: string = hostSocketPath(),
  timeoutMs = 2_000,
): Promise<{ client: SocketBusClient; hostVersion: string; hostPid: number }> {
  const hello: AttachHello = { attach: ATTACH_VERSION, version: VERSION, role: 'control', pid: process.pid };
  let opened;
  try {
    opened = await connectSocketBus({ path: socketPath, hello, timeoutMs, origin: { kind: 'cli' } });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') {
      throw new HostUnreachableError('no droidbus host is running', 'absent');
    }
    throw new HostUnreachableError(`could not reach the droidbus host: ${(err as Error).message}`, 'failed');
  }
  const reply = attachReplySchema.safeParse(opened.reply);
  if (!reply.success) {
    await opened.client.close();
    throw new HostUnreachableError(
      'the droidbus host sent a handshake reply this droidbus does not understand',
      'failed',
    );
  }
  if (!reply.data.accepted) {
    await opened.client.close();
    throw new HostUnreachableError(`the droidbus host refused: ${reply.data.reason}`, 'refused');
  }
  return { client: opened.client, hostVersion: reply.data.version, hostPid: reply.data.host_pid };
}

/** `pid N, droidbus V` of the host listening on `socketPath`, or null when it does not say. */
export async function whoListens(socketPath: string): Promise<string | null> {
  try {
    const { client, hostVersion, hostPid } = await connectControl(socketPath, 1_000);
    await client.close();
    return `pid ${hostPid}, droidbus ${hostVersion}`;
  } catch {
    return null;
  }
}
