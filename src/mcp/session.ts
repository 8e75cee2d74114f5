import { randomUUID } from 'node:crypto';
import type { BusClient } from '../bus/client.js';
import type { Origin } from '../bus/origin.js';
import type { Toolset } from './toolsets.js';

/** How the session's project was chosen. */
export type SelectedBy = 'argument' | 'working_directory' | 'last_active_project' | 'host';

/** Whether the session's actors run in this process or in a host. */
export type SessionMode =
  | {
      kind: 'standalone';
      /** Why it runs standalone (no host, the host refused, the host quit …). */
      standaloneReason: string | null;
    }
  | {
      kind: 'attached';
      /** The project of its own, which the host had open when it attached; null: it follows the host's. */
      pinnedProject: string | null;
      /** The project the host has open now (kept current by the host's events). */
      hostProject: string | null;
    };

/** Attached without a project of its own: it follows the host's project. */
export function followsHost(mode: SessionMode): boolean {
  return mode.kind === 'attached' && mode.pinnedProject === null;
}

/** Why the session runs standalone; null when attached. */
export function standaloneReason(mode: SessionMode): string | null {
  return mode.kind === 'standalone' ? mode.standaloneReason : null;
}

/** The project an attached session is pinned to; null when it follows the host or runs standalone. */
export function pinnedProject(mode: SessionMode): string | null {
  return mode.kind === 'attached' ? mode.pinnedProject : null;
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
  /** The session's tool calls still running, by tool name (what a tool's `after` waits for). */
  readonly inflight: Map<string, Set<Promise<unknown>>>;
}

/** Creates a session's state. */
export function createSessionState(
  init: Omit<SessionState, 'sessionId' | 'clientName' | 'clientVersion' | 'inflight'>,
): SessionState {
  return { sessionId: randomUUID(), clientName: null, clientVersion: null, inflight: new Map(), ...init };
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

/**
 * The tool error of a pinned session whose project the host no longer has open (its person opened
 * another one); null when project tools may run. The host never changes its project for an agent,
 * so the message sends the agent to the user.
 */
export function pinnedProjectClosed(session: SessionState): string | null {
  const { mode } = session;
  if (mode.kind !== 'attached' || mode.pinnedProject === null) {
    return null;
  }
  const hostProject = mode.hostProject ?? null;
  if (hostProject === mode.pinnedProject) {
    return null;
  }
  const now = hostProject === null ? 'has no project open' : `now has ${hostProject} open`;
  return `The droidbus host ${now}; this session is for ${mode.pinnedProject}. Ask the user to open ${mode.pinnedProject} in the droidbus host again (droidbus host open ${JSON.stringify(mode.pinnedProject)}), or restart this MCP session without --project to follow the host's project. Device, UI, logcat and health tools keep working.`;
}
