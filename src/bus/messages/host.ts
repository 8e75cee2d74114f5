import { z } from 'zod';
import { defineEvent, defineRequest } from '../contract.js';

/**
 * Requests the host process answers itself (not an actor on a worker): its session list, its
 * project. A standalone frontend has no `host` and answers them INVALID.
 */

export const attachedSessionSchema = z.object({
  session_id: z.string(),
  pid: z.number().int(),
  /** The droidbus version of the session's `droidbus mcp` (from its handshake). */
  version: z.string(),
  client_name: z.string().nullable(),
  client_version: z.string().nullable(),
  /** The project the session is pinned to; null when it follows the host's project. */
  pinned_project: z.string().nullable(),
  follows_host: z.boolean(),
  /** The toolsets it asked for; null when it serves the default ones (all but the opt-in toolsets). */
  toolsets: z.array(z.string()).nullable(),
  attached_at: z.string(),
});
export type AttachedSession = z.infer<typeof attachedSessionSchema>;

export const hostInfoSchema = z.object({
  pid: z.number().int(),
  version: z.string(),
  started_at: z.string(),
  project: z.string().nullable(),
  socket: z.string(),
  /** `uid`: connections from another user are dropped by the peer's uid; `permissions`: only the socket's mode protects it. */
  peer_check: z.enum(['uid', 'permissions']),
  max_sessions: z.number().int(),
  sessions: z.array(attachedSessionSchema),
});
export type HostInfo = z.infer<typeof hostInfoSchema>;

export const hostRequests = {
  'host.info': defineRequest({
    actor: 'host',
    request: z.object({}),
    response: hostInfoSchema,
    timeoutMs: 5_000,
  }),
  /** The host's person opens another project (or closes it: null). Refused for agents. */
  'host.set_project': defineRequest({
    actor: 'host',
    request: z.object({ project: z.string().min(1).max(4096).nullable() }),
    response: z.object({ project: z.string().nullable(), previous: z.string().nullable() }),
    timeoutMs: 10_000,
  }),
  /** An attached session tells the host its client's name once MCP `initialize` named it. */
  'host.session_update': defineRequest({
    actor: 'host',
    request: z.object({
      client_name: z.string().max(200).nullable(),
      client_version: z.string().max(100).nullable(),
    }),
    response: z.object({}),
    timeoutMs: 5_000,
  }),
};

export const hostEvents = {
  /** The host's project changed (its person opened or closed one). */
  'host.project': defineEvent(z.object({ project: z.string().nullable(), previous: z.string().nullable() })),
  /** The host is quitting: in-flight requests fail next, then the connections close. */
  'host.quitting': defineEvent(z.object({ reason: z.string() })),
  /** The attached sessions changed (for the host's page). */
  'host.sessions': defineEvent(z.object({ sessions: z.array(attachedSessionSchema) })),
};
