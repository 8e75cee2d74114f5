import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ActorSystem } from '../../actors/runtime.js';
import type { LocalBusClient } from '../../bus/local-client.js';
import { AgentActionRecorder } from '../../mcp/agent-actions.js';
import { runtimeResource } from '../../mcp/runtime-stats.js';
import { createMcpServer } from '../../mcp/server.js';
import { createSessionState, sessionOrigin } from '../../mcp/session.js';
import type { SessionState } from '../../mcp/session.js';
import { skillResource } from '../../mcp/skill.js';
import {
  DEFAULT_TOOLSETS,
  TOOLSET_NAMES,
  ToolsetError,
  isToolset,
  parseToolsets,
} from '../../mcp/toolsets.js';
import type { Toolset } from '../../mcp/toolsets.js';
import type { ActivityLog } from '../../store/activity-log.js';
import type { EventLoopProbe } from '../../util/event-loop.js';
import { logger } from '../../util/log.js';
import { VERSION } from '../../version.js';
import type { SessionRegistry } from '../session-registry.js';
import { describePrincipal, principalPhrase, samePrincipal } from './auth-gate.js';
import type { Principal } from './auth-gate.js';
import type { HttpSettings } from './http-settings.js';
import { headerValue, readBody, sendJsonRpcError } from './request-io.js';

const log = logger('http');

/** A JSON-RPC body of /mcp is at most this big (the SDK's own default). */
const BODY_LIMIT = 4 * 1024 * 1024;
/** An HTTP session with nothing in flight for this long is closed (clients often just go away). */
export const HTTP_SESSION_IDLE_MS = 60 * 60_000;
const SWEEP_EVERY_MS = 60_000;

/** What the HTTP sessions need from the host. */
export interface HttpSessionDeps {
  system: ActorSystem;
  registry: SessionRegistry;
  publishSessions(): void;
  /** The project the host has open now. */
  project(): string | null;
  activity: ActivityLog;
  settings(): HttpSettings;
  probe: EventLoopProbe;
}

/** What a request to /mcp arrives with, once its Host, Origin and credentials passed. */
export interface McpRequestContext {
  principal: Principal;
  address: string;
  url: URL;
}

interface HttpSession {
  mcpId: string;
  state: SessionState;
  server: Server;
  transport: StreamableHTTPServerTransport;
  bus: LocalBusClient;
  principal: Principal;
  address: string;
  lastActive: number;
  /** Requests and SSE streams open now. */
  open: number;
  /** Why it is being closed by the host (idle, host quit); unset when the client ends it. */
  closeReason?: string;
  /** Its attach was recorded (it initialized); only then is its end recorded too. */
  announced: boolean;
  closed: boolean;
}

/**
 * True when the client ranks `text/event-stream` above `application/json` in its Accept header.
 * Clients must accept both; those that state no preference get plain JSON responses (simplest for
 * proxies), those that prefer SSE get a stream per request (progress notifications included).
 */
export function prefersEventStream(accept: string | undefined): boolean {
  const q = (type: string): number => {
    for (const part of (accept ?? '').split(',')) {
      const [media, ...params] = part.trim().split(';');
      if (media?.trim().toLowerCase() === type) {
        const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
        const value = qp ? Number(qp.slice(2)) : 1;
        return Number.isFinite(value) ? value : 0;
      }
    }
    return 0;
  };
  return q('text/event-stream') > q('application/json');
}

/**
 * The Streamable HTTP sessions of /mcp. Each is one `createMcpServer` over its own session state,
 * with the SDK's transport, and a bus client of the host's bus — an HTTP session is a client of the
 * bus exactly like an attached `droidbus mcp`, with its own origin and toolsets, listed in the
 * host's session registry (kind `http`). A session belongs to the principal that opened it.
 */
export class HttpSessions {
  private readonly sessions = new Map<string, HttpSession>();
  /** Device tool calls of every HTTP session go to the debug sessions of their device. */
  private readonly agentActions = new AgentActionRecorder();
  private readonly sweeper: NodeJS.Timeout;
  private closing = false;

  constructor(private readonly deps: HttpSessionDeps) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Serves one request to /mcp. */
  async handle(req: IncomingMessage, res: ServerResponse, ctx: McpRequestContext): Promise<void> {
    let body: unknown;
    if (req.method === 'POST') {
      const raw = await readBody(req, BODY_LIMIT);
      if (raw === 'too_large') {
        sendJsonRpcError(
          res,
          413,
          -32000,
          `Payload Too Large: a request body is at most ${BODY_LIMIT} bytes`,
        );
        return;
      }
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        sendJsonRpcError(res, 400, -32700, 'Parse error: Invalid JSON');
        return;
      }
    } else if (req.method !== 'GET' && req.method !== 'DELETE') {
      sendJsonRpcError(res, 405, -32000, 'Method not allowed: use POST, GET or DELETE', {
        Allow: 'GET, POST, DELETE',
      });
      return;
    }
    const mcpId = headerValue(req, 'mcp-session-id');
    if (mcpId === undefined) {
      const initializing = Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
      if (req.method !== 'POST' || !initializing) {
        sendJsonRpcError(res, 400, -32000, 'Bad Request: no Mcp-Session-Id; start a session with initialize');
        return;
      }
      await this.start(req, res, body, ctx);
      return;
    }
    const session = this.sessions.get(mcpId);
    // Another principal's session looks the same as no session: its id alone gives nothing.
    if (!session || session.closed || !samePrincipal(session.principal, ctx.principal)) {
      sendJsonRpcError(res, 404, -32001, 'Session not found');
      return;
    }
    await this.serve(session, req, res, body);
  }

  /** The host opened another project: sessions follow it. */
  setHostProject(project: string | null): void {
    for (const s of this.sessions.values()) {
      s.state.mode = { kind: 'attached', pinnedProject: null, hostProject: project };
      s.state.project = { root: project, selectedBy: project ? 'host' : null };
    }
  }

  /** Closes every session (the host is quitting): their SSE streams end. */
  async closeAll(): Promise<void> {
    this.closing = true;
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((s) => this.close(s, 'the droidbus host quit')));
  }

  private async start(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    ctx: McpRequestContext,
  ): Promise<void> {
    if (this.closing) {
      sendJsonRpcError(res, 503, -32000, 'the droidbus host is quitting');
      return;
    }
    let toolsets: Toolset[];
    let explicit: Toolset[] | null = null;
    const asked = ctx.url.searchParams.get('toolsets');
    try {
      if (asked !== null) {
        explicit = parseToolsets(asked);
        toolsets = explicit;
      } else {
        const configured = this.deps.settings().toolsets;
        explicit = configured
          ? TOOLSET_NAMES.filter(
              (t) => configured.includes('all') || configured.filter(isToolset).includes(t),
            )
          : null;
        toolsets = explicit && explicit.length > 0 ? explicit : [...DEFAULT_TOOLSETS];
      }
    } catch (err) {
      if (err instanceof ToolsetError) {
        sendJsonRpcError(res, 400, -32602, `${err.message}; the toolsets are ${TOOLSET_NAMES.join(', ')}`);
        return;
      }
      throw err;
    }
    const { registry } = this.deps;
    if (registry.count('http') >= registry.maxHttp && !(await this.evictIdlest())) {
      sendJsonRpcError(
        res,
        503,
        -32000,
        `this droidbus host already serves ${registry.maxHttp} HTTP sessions; end one (DELETE /mcp) and try again`,
      );
      return;
    }
    const project = this.deps.project();
    const state = createSessionState({
      project: { root: project, selectedBy: project ? 'host' : null },
      mode: { kind: 'attached', pinnedProject: null, hostProject: project },
      toolsets,
      bus: undefined as never,
    });
    const bus = this.deps.system.client(sessionOrigin(state));
    state.bus = bus;
    const mcpId = randomUUID();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => mcpId,
      enableJsonResponse: !prefersEventStream(headerValue(req, 'accept')),
    });
    const server = this.createServer(state);
    const session: HttpSession = {
      mcpId,
      state,
      server,
      transport,
      bus,
      principal: ctx.principal,
      address: ctx.address,
      lastActive: Date.now(),
      open: 0,
      announced: false,
      closed: false,
    };
    server.onclose = () => this.forget(session, session.closeReason ?? 'the client ended the session');
    await server.connect(transport);
    const registered = registry.add({
      session_id: state.sessionId,
      pid: process.pid,
      version: VERSION,
      client_name: null,
      client_version: null,
      pinned_project: null,
      follows_host: true,
      toolsets: explicit,
      attached_at: new Date().toISOString(),
      kind: 'http',
      remote: ctx.address,
      auth: describePrincipal(ctx.principal),
    });
    if (!registered) {
      await server.close().catch(() => undefined);
      sendJsonRpcError(
        res,
        503,
        -32000,
        `this droidbus host already serves ${registry.maxHttp} HTTP sessions`,
      );
      return;
    }
    this.sessions.set(mcpId, session);
    await this.serve(session, req, res, body);
    if (transport.sessionId === undefined) {
      // The initialize request was refused by the transport (say, a bad Accept): nothing to keep.
      await this.close(session, 'it never initialized');
      return;
    }
    session.announced = true;
    this.deps.activity.record({
      kind: 'lifecycle',
      name: 'client_attached',
      session: state.sessionId,
      status: 'ok',
      summary: `HTTP client attached from ${ctx.address} ${principalPhrase(ctx.principal)} — project: ${project ?? 'none'} (follows the host)`,
    });
    this.deps.publishSessions();
  }

  private createServer(state: SessionState): Server {
    const { activity } = this.deps;
    const server = createMcpServer({
      session: state,
      resources: [
        runtimeResource(this.deps.probe, () => ({ agent_actions: this.agentActions.stats() })),
        skillResource(),
      ],
      onToolCall: (r) => {
        activity.record({
          kind: 'tool',
          session: state.sessionId,
          name: r.name,
          durationMs: r.durationMs,
          status: r.status,
          summary: r.summary,
        });
        this.agentActions.record(state, r);
      },
      onRequest: (r) =>
        activity.record({
          kind: r.kind,
          session: state.sessionId,
          name: r.name,
          durationMs: r.durationMs,
          status: r.status,
          summary: r.summary,
        }),
    });
    const onInitialized = server.oninitialized;
    server.oninitialized = () => {
      onInitialized?.();
      const client_name = state.clientName?.slice(0, 200) ?? null;
      const client_version = state.clientVersion?.slice(0, 100) ?? null;
      if (this.deps.registry.update(state.sessionId, { client_name, client_version })) {
        this.deps.publishSessions();
      }
      activity.record({
        kind: 'lifecycle',
        name: 'client_initialized',
        session: state.sessionId,
        status: 'ok',
        summary: `Client initialized (${client_name ?? 'unknown client'}${client_version ? ` ${client_version}` : ''}) — http`,
      });
    };
    return server;
  }

  private async serve(
    session: HttpSession,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
  ): Promise<void> {
    session.open++;
    session.lastActive = Date.now();
    res.once('close', () => {
      session.open--;
      session.lastActive = Date.now();
    });
    await session.transport.handleRequest(req, res, body);
  }

  /** Closes a session's transport; its server's onclose then forgets it. */
  private async close(session: HttpSession, reason: string): Promise<void> {
    if (session.closed) {
      return;
    }
    log.info('closing an HTTP session', { session: session.state.sessionId, reason });
    session.closeReason = reason;
    await session.server.close().catch(() => undefined);
    this.forget(session, reason);
  }

  private forget(session: HttpSession, reason: string): void {
    if (session.closed) {
      return;
    }
    session.closed = true;
    this.sessions.delete(session.mcpId);
    this.deps.registry.remove(session.state.sessionId);
    void session.bus.close();
    if (session.announced) {
      this.deps.activity.record({
        kind: 'lifecycle',
        name: 'client_detached',
        session: session.state.sessionId,
        status: 'ok',
        summary: `HTTP client detached (${session.address}): ${reason}`,
      });
      this.deps.publishSessions();
    }
  }

  /**
   * Makes room by closing the session that has been idle longest (many clients never send DELETE
   * and just open a new session); false when every session has something in flight.
   */
  private async evictIdlest(): Promise<boolean> {
    let idlest: HttpSession | undefined;
    for (const s of this.sessions.values()) {
      if (s.open === 0 && (!idlest || s.lastActive < idlest.lastActive)) {
        idlest = s;
      }
    }
    if (!idlest) {
      return false;
    }
    await this.close(idlest, `closed to make room for a new session (at most ${this.deps.registry.maxHttp})`);
    return true;
  }

  private sweep(): void {
    const cutoff = Date.now() - HTTP_SESSION_IDLE_MS;
    for (const s of this.sessions.values()) {
      if (s.open === 0 && s.lastActive < cutoff) {
        void this.close(s, `idle for ${Math.round(HTTP_SESSION_IDLE_MS / 60_000)} minutes`);
      }
    }
  }
}
