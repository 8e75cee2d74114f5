import { randomUUID } from 'node:crypto';
import type { BusClient } from '../bus/client.js';
import type { Origin } from '../bus/origin.js';
import type { Toolset } from './toolsets.js';

/** How the session's project was chosen. */
export type SelectedBy = 'argument' | 'working_directory' | 'last_active_project' | 'host';

/** Whether the session's actors run in this process or in a host. */
export interface SessionMode {
  kind: 'standalone' | 'attached';
  /** Why it runs standalone (no host, the host refused, the host quit …); null when attached. */
  standaloneReason: string | null;
  /** Attached without a project of its own: it follows the host's project. */
  followsHost: boolean;
  /** Attached with a project of its own, which the host had open when it attached. */
  pinnedProject: string | null;
}

/** The state of one MCP session that tools read. The bus may be swapped under it (host gone). */
export interface SessionState {
  readonly sessionId: string;
  /** The client's name from `initialize` (clientInfo.name), once known. */
  clientName: string | null;
  clientVersion: string | null;
  project: { root: string | null; selectedBy: SelectedBy | null };
  mode: SessionMode;
  toolsets: Toolset[];
  /** The bus this session uses now. */
  bus: BusClient;
}

/** Creates a session's state. */
export function createSessionState(
  init: Omit<SessionState, 'sessionId' | 'clientName' | 'clientVersion'>,
): SessionState {
  return { sessionId: randomUUID(), clientName: null, clientVersion: null, ...init };
}

/** The origin this session's requests carry (recorded with builds and agent actions). */
export function sessionOrigin(session: SessionState): Origin {
  return {
    kind: 'agent',
    session_id: session.sessionId,
    client_name: session.clientName,
    standalone: session.mode.kind === 'standalone',
  };
}

/** The mode in words, as serverInfo's title and the instructions say it. */
export function describeMode(mode: SessionMode): string {
  if (mode.kind === 'attached') {
    return 'attached to the droidbus host';
  }
  return mode.standaloneReason ? `standalone: ${mode.standaloneReason}` : 'standalone';
}
