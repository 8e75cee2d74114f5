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
  /** `attach`: a `droidbus mcp` over the host socket; `http`: a Streamable HTTP session in the host. */
  kind: z.enum(['attach', 'http']).default('attach'),
  /** HTTP sessions: the client's address. */
  remote: z.string().nullable().default(null),
  /** HTTP sessions: how it authenticated (`bearer`, `oauth: <client name>`, `none`). */
  auth: z.string().nullable().default(null),
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
  /** The Streamable HTTP frontend (`droidbus host --http`), or null when it is off. */
  http: z.object({ url: z.string(), tls: z.boolean() }).nullable().default(null),
  /** The host's page (`droidbus ui` prints a login link), or null when it serves none. */
  page: z.object({ url: z.string() }).nullable().default(null),
});
export type HostInfo = z.infer<typeof hostInfoSchema>;

/** An OAuth authorization request waiting on its consent page for `droidbus approve CODE`. */
export const oauthPendingSchema = z.object({
  code: z.string(),
  client_id: z.string(),
  client_name: z.string(),
  redirect_host: z.string(),
  age_s: z.number(),
});

/** A droidbus process's own figures: memory, and its main thread's event-loop delay. */
export const processRuntimeSchema = z.object({
  pid: z.number().int(),
  version: z.string(),
  uptime_s: z.number(),
  rss_mb: z.number(),
  heap_used_mb: z.number(),
  /** Delay beyond the 10 ms sampling tick, since the process started. */
  event_loop: z.object({
    p50_ms: z.number(),
    p99_ms: z.number(),
    max_ms: z.number(),
    mean_ms: z.number(),
    since: z.number(),
  }),
});

/** The host process's own figures (`host.runtime`). */
export const hostRuntimeSchema = processRuntimeSchema.extend({
  /** Where the host's actors run: worker threads, or its main thread (DROIDBUS_INLINE=1). */
  actors: z.enum(['workers', 'inline']),
});
export type HostRuntime = z.infer<typeof hostRuntimeSchema>;

export const hostRequests = {
  'host.info': defineRequest({
    actor: 'host',
    request: z.object({}),
    response: hostInfoSchema,
    timeoutMs: 5_000,
  }),
  /** The host's memory and event-loop delay (the load test reads it; any connection may ask). */
  'host.runtime': defineRequest({
    actor: 'host',
    request: z.object({}),
    response: hostRuntimeSchema,
    timeoutMs: 5_000,
  }),
  /**
   * A fault drill: terminate one of the host's worker threads, as a crash would (its actors restart,
   * their in-flight requests fail naming them). Only the person's own commands (a control
   * connection) may ask. `droidbus loadtest --faults worker-kill` uses it.
   */
  'host.replace_worker': defineRequest({
    actor: 'host',
    request: z.object({
      group: z.string().regex(/^[a-z]{1,32}$/),
      index: z.number().int().min(0).max(64).default(0),
    }),
    response: z.object({ actors: z.array(z.string()) }),
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
  /** The OAuth authorization requests waiting for the user (`droidbus approve`). Refused for agents. */
  'host.oauth_pending': defineRequest({
    actor: 'host',
    request: z.object({}),
    response: z.object({ pending: z.array(oauthPendingSchema) }),
    timeoutMs: 5_000,
  }),
  /** The user approves (or denies) the waiting authorization request with this 2-digit code. */
  'host.oauth_decide': defineRequest({
    actor: 'host',
    request: z.object({ code: z.string().regex(/^\d{2}$/), approve: z.boolean() }),
    response: oauthPendingSchema.pick({ client_id: true, client_name: true, redirect_host: true }),
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
