import net from 'node:net';
import { startActorSystem } from '../actors/runtime.js';
import type { ActorSystem } from '../actors/runtime.js';
import type { SupervisorOptions } from '../actors/supervisor.js';
import { BusError } from '../bus/errors.js';
import type { AttachedSession, HostInfo } from '../bus/messages/host.js';
import type { Origin } from '../bus/origin.js';
import { serveBusConnection } from '../bus/socket-server.js';
import type { HandshakeDecision } from '../bus/socket-server.js';
import { runtimeStats } from '../mcp/runtime-stats.js';
import { TOOLSET_NAMES } from '../mcp/toolsets.js';
import { canonicalProjectRoot } from '../project/trust.js';
import { ActivityLog } from '../store/activity-log.js';
import { ensureDataDir } from '../store/data-dir.js';
import { hostSocketPath, socketPathProblem } from '../store/host-socket.js';
import { startEventLoopProbe } from '../util/event-loop.js';
import { logger } from '../util/log.js';
import { VERSION } from '../version.js';
import { decideAttach } from './handshake.js';
import { endConnection, HostStartError, listenOnSocket } from './host-listen.js';
import { HostEndpoint } from './host-endpoint.js';
import type { HostHandler } from './host-endpoint.js';
import { HttpStartError, startHttpFrontend } from './http/http-frontend.js';
import type { HttpFrontend, HttpFrontendOptions } from './http/http-frontend.js';
import { peerCheckAvailability, peerUidOf } from './peer-credentials.js';
import { resolveHostProject } from './project.js';
import { MAX_ATTACHED_SESSIONS, SessionRegistry } from './session-registry.js';
import { startHostPage } from './ui/host-page.js';
import type { HostPage } from './ui/host-page.js';
import { PageHandler } from './ui/page-handler.js';
import { pageRequestHandlers } from './ui/page-requests.js';
import type { PageOptions } from './ui/page-server.js';

const log = logger('host');

/** How long the quit hooks get (a running build is cancelled and recorded in that time). */
export const QUIT_HOOK_TIMEOUT_MS = 1_500;

/**
 * Runs when the host quits, before the requests still in flight fail. It may return a sentence
 * for their error message ("Its running build was cancelled."), or null. The signal fires when
 * QUIT_HOOK_TIMEOUT_MS has passed: the host then goes on without waiting longer.
 */
export type QuitHook = (signal: AbortSignal) => Promise<string | null>;

export interface HostOptions {
  /** The project the host opens at start (a path; made canonical), or null for none. */
  project: string | null;
  /** At most this many attached sessions (default 16). */
  maxSessions?: number;
  /** Worker-thread setup of the actor system (tests). */
  supervisor?: SupervisorOptions;
  /** Serve Streamable HTTP MCP too (`--http`); off when absent. */
  http?: HttpFrontendOptions;
  /** Lines for the host's person (an OAuth consent page waits for `droidbus approve`). */
  notify?: (line: string) => void;
  /** Serve the host's page (its own port, or under /ui of the HTTP frontend); off when absent. */
  ui?: PageOptions;
}

/** A running `droidbus host`. */
export interface Host {
  readonly socketPath: string;
  readonly system: ActorSystem;
  /** The HTTP frontend, when the host serves one. */
  readonly http: HttpFrontend | null;
  /** The host's page, when it serves one. */
  readonly page: HostPage | null;
  /** The host's state as `host.info` answers it. */
  info(): HostInfo;
  /** Opens another project (or closes it: null). Refused for agents: only the host's person may. */
  setProject(project: string | null, origin: Origin): { project: string | null; previous: string | null };
  /**
   * Adds a quit hook, run before in-flight requests fail (the build actor cancels its running
   * build here, recorded as cancelled because the host quit). Returns the function that removes it.
   */
  beforeFailingInflight(hook: QuitHook): () => void;
  /** Quits: hooks, then in-flight requests fail, sessions close, actors stop, the socket goes. */
  stop(reason?: string): Promise<void>;
  /** Resolves when the host has stopped. */
  readonly stopped: Promise<void>;
}

/**
 * Starts `droidbus host`: the bus and every actor, and the socket attached `droidbus mcp`
 * sessions reach them through. Throws HostStartError when it cannot.
 */
export async function startHost(options: HostOptions): Promise<Host> {
  const dataDir = ensureDataDir();
  const socketPath = hostSocketPath(dataDir);
  const tooLong = socketPathProblem(socketPath);
  if (tooLong) {
    throw new HostStartError(tooLong, 'PATH_TOO_LONG');
  }
  let project: string | null = null;
  if (options.project !== null) {
    const resolved = resolveHostProject(options.project);
    if (typeof resolved !== 'string') {
      throw new HostStartError(resolved.problem, 'BAD_PROJECT');
    }
    project = resolved;
  }

  const startedAt = new Date().toISOString();
  const activity = new ActivityLog({ session: null });
  const registry = new SessionRegistry(options.maxSessions ?? MAX_ATTACHED_SESSIONS);
  const peer = peerCheckAvailability();
  const myUid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const connections = new Set<net.Socket>();
  const hooks = new Set<QuitHook>();
  let stopping: Promise<void> | undefined;
  /** One line for the person at the host's console (its stdout), or the log when it has none. */
  const notify = options.notify ?? ((line: string): void => log.info(line));
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));

  const server = net.createServer();
  await listenOnSocket(server, socketPath, dataDir);
  const system = startActorSystem(options.supervisor);
  // Debug sessions listen to installs and crashes: running from the start, they miss none.
  system.supervisor
    .spawn('sessions')
    .catch((err: unknown) => log.warn('could not start the sessions actor', { error: String(err) }));
  let http: HttpFrontend | null = null;
  let page: HostPage | null = null;
  // The page is one more client of the bus, asking as the host's person.
  const pageHandler = options.ui ? new PageHandler(system.client({ kind: 'host' })) : null;
  // The host's main thread serves every attached session's bus traffic: `host.runtime` reports its delay.
  const probe = startEventLoopProbe();

  const info = (): HostInfo => ({
    pid: process.pid,
    version: VERSION,
    started_at: startedAt,
    project,
    socket: socketPath,
    peer_check: peer.available ? 'uid' : 'permissions',
    max_sessions: registry.max,
    sessions: registry.list(),
    http: http ? { url: `${http.url}/mcp`, tls: http.tls !== null } : null,
    page: page ? { url: page.url } : null,
  });
  const publishSessions = (): void => system.bus.publish('host.sessions', { sessions: registry.list() });

  const setProject: Host['setProject'] = (next, origin) => {
    if (origin.kind === 'agent') {
      throw new BusError(
        'INVALID',
        'the droidbus host never changes its project for an agent; ask the user to open the project in the droidbus host',
      );
    }
    let resolved: string | null = null;
    if (next !== null) {
      const r = resolveHostProject(next);
      if (typeof r !== 'string') {
        throw new BusError('INVALID', r.problem);
      }
      resolved = r;
    }
    const previous = project;
    project = resolved;
    if (previous !== resolved) {
      log.info('the host project changed', { project: resolved, previous });
      activity.record({
        kind: 'lifecycle',
        name: 'host_project',
        status: 'ok',
        summary: resolved ? `Host opened ${resolved}` : `Host closed ${previous ?? 'its project'}`,
      });
      system.bus.publish('host.project', { project: resolved, previous });
    }
    return { project: resolved, previous };
  };

  // `droidbus approve` reaches the HTTP frontend's authorization server through these.
  const viaHttp =
    <T extends 'host.oauth_pending' | 'host.oauth_decide'>(type: T): HostHandler<T> =>
    (payload, origin) => {
      const handler = http?.hostHandlers[type] as HostHandler<T> | undefined;
      if (!handler) {
        throw new BusError(
          'UNAVAILABLE',
          'this droidbus host does not serve HTTP; start it with droidbus host --http',
        );
      }
      return handler(payload, origin);
    };
  system.bus.attach(
    new HostEndpoint(system.bus, system.supervisor, 'host', {
      ...pageRequestHandlers({
        project: () => project,
        sessions: () => registry.list(),
        pageLink: () => page?.newLoginLink() ?? null,
        publish: (topic, payload) => system.bus.publish(topic, payload),
      }),
      'host.oauth_pending': viaHttp('host.oauth_pending'),
      'host.oauth_decide': viaHttp('host.oauth_decide'),
      'host.info': () => info(),
      'host.runtime': () => ({
        ...runtimeStats(probe),
        actors: system.supervisor.inline ? ('inline' as const) : ('workers' as const),
      }),
      'host.set_project': (payload, origin) => setProject(payload.project, origin),
      'host.session_update': (payload, origin) => {
        if (origin.kind !== 'agent') {
          throw new BusError('INVALID', 'only an attached session can describe its client');
        }
        const { client_name, client_version } = payload;
        const before = registry.get(origin.session_id)?.client_name ?? null;
        if (registry.update(origin.session_id, { client_name, client_version })) {
          publishSessions();
          if (client_name !== null && client_name !== before) {
            notify(
              `session ${origin.session_id.slice(0, 8)} is ${client_name}${client_version ? ` ${client_version}` : ''}`,
            );
          }
        }
        return {};
      },
    }),
  );

  server.on('connection', (socket) => {
    if (stopping) {
      socket.destroy();
      return;
    }
    if (peer.available && myUid !== undefined) {
      const uid = peerUidOf(socket);
      if (uid !== myUid) {
        log.warn(
          uid === null
            ? 'dropped a connection whose credentials could not be read'
            : `dropped a connection from uid ${uid} (this host runs as uid ${myUid})`,
        );
        socket.destroy();
        return;
      }
    }
    connections.add(socket);
    let sessionId: string | undefined;
    serveBusConnection(socket, {
      bus: system.bus,
      handshake: (raw): HandshakeDecision => {
        if (stopping) {
          return { accept: false, reply: { accepted: false, reason: 'the droidbus host is quitting' } };
        }
        const decision = decideAttach(raw, {
          version: VERSION,
          hostPid: process.pid,
          project,
          sessionCount: registry.count('attach'),
          maxSessions: registry.max,
          toolsets: TOOLSET_NAMES,
          canonical: canonicalProjectRoot,
        });
        if (!decision.accept) {
          log.info('refused a connection', { reason: decision.reply.reason });
          return { accept: false, reply: decision.reply };
        }
        const hello = decision.hello;
        if (hello.role === 'control') {
          const cli: Origin = { kind: 'cli' };
          return { accept: true, reply: decision.reply, origin: cli, originFor: () => cli };
        }
        const id = hello.session_id!;
        const session: AttachedSession = {
          session_id: id,
          pid: hello.pid,
          version: hello.version,
          client_name: hello.client_name,
          client_version: null,
          pinned_project: hello.project,
          follows_host: hello.project === null,
          toolsets: hello.toolsets ?? null,
          attached_at: new Date().toISOString(),
          kind: 'attach',
          remote: null,
          auth: null,
        };
        if (!registry.add(session)) {
          return {
            accept: false,
            reply: {
              accepted: false,
              reason: `a session with id ${id} is already attached`,
              version: VERSION,
            },
          };
        }
        sessionId = id;
        activity.record({
          kind: 'lifecycle',
          name: 'client_attached',
          session: id,
          status: 'ok',
          summary: `Client attached (pid ${hello.pid}, droidbus ${hello.version}) — project: ${hello.project ?? `${project ?? 'none'} (follows the host)`}`,
        });
        publishSessions();
        notify(
          `agent attached: ${hello.client_name ?? 'an MCP session'} (pid ${hello.pid}, session ${id.slice(0, 8)}, ${hello.project ? `project ${hello.project}` : 'follows the host'}) — ${registry.size} attached`,
        );
        const agent: Origin = {
          kind: 'agent',
          session_id: id,
          client_name: hello.client_name,
          standalone: false,
        };
        return {
          accept: true,
          reply: decision.reply,
          origin: agent,
          originFor: (claimed) =>
            claimed.kind === 'agent' && claimed.session_id === id
              ? { ...claimed, standalone: false }
              : { ...agent, client_name: registry.get(id)?.client_name ?? null },
        };
      },
      onClose: () => {
        connections.delete(socket);
        if (sessionId) {
          const gone = registry.remove(sessionId);
          activity.record({
            kind: 'lifecycle',
            name: 'client_detached',
            session: sessionId,
            status: 'ok',
            summary: `Client detached (pid ${gone?.pid ?? '?'})`,
          });
          publishSessions();
          if (!stopping) {
            notify(
              `agent detached: ${gone?.client_name ?? 'an MCP session'} (pid ${gone?.pid ?? '?'}, session ${sessionId.slice(0, 8)}) — ${registry.size} attached`,
            );
          }
        }
      },
    });
  });

  if (options.http) {
    try {
      http = await startHttpFrontend(options.http, {
        system,
        registry,
        publishSessions,
        project: () => project,
        activity,
        notify: options.notify ?? ((line) => log.warn(line)),
        ...(pageHandler && options.ui?.mode === 'http' ? { page: pageHandler } : {}),
      });
    } catch (err) {
      server.close();
      probe.stop();
      await system.supervisor.shutdown();
      await activity.close();
      if (err instanceof HttpStartError) {
        throw new HostStartError(err.message, 'HTTP_FAILED');
      }
      throw err;
    }
  }
  if (pageHandler && options.ui) {
    try {
      page = await startHostPage(pageHandler, options.ui, http);
    } catch (err) {
      server.close();
      probe.stop();
      await http?.close();
      await system.supervisor.shutdown();
      await activity.close();
      throw new HostStartError((err as Error).message, 'PAGE_FAILED');
    }
  }

  const stop = (reason = 'the droidbus host quit'): Promise<void> => {
    stopping ??= (async () => {
      log.info('quitting', { reason, sessions: registry.size });
      notify(
        registry.size === 0
          ? 'quitting: no agent is attached'
          : `quitting: ${registry.size} attached agent${registry.size === 1 ? '' : 's'} continue${registry.size === 1 ? 's' : ''} standalone`,
      );
      // Closing the listener removes the socket file (libuv unlinks it), so a new host may start.
      server.close();
      // 1. Hooks (the build actor cancels a running build), at most QUIT_HOOK_TIMEOUT_MS.
      const notes = await runQuitHooks([...hooks]);
      // 2. Sessions learn first, so they swap to their own actors before their calls fail.
      system.bus.publish('host.quitting', { reason });
      // 3. Every request still in flight fails, saying the host quit.
      const detail = notes.length > 0 ? ` ${notes.join(' ')}` : '';
      system.bus.close(`${reason} before answering.${detail}`);
      // 4. The connections close once their last lines are out; HTTP requests in flight finish.
      await Promise.all(
        [...connections]
          .map((socket) => endConnection(socket))
          .concat(http?.close() ?? [], page?.close() ?? []),
      );
      probe.stop();
      activity.record({
        kind: 'lifecycle',
        name: 'host_stopped',
        status: 'ok',
        summary: `Host stopped (${reason})`,
      });
      await system.supervisor.shutdown();
      await activity.close();
      probe.stop();
      resolveStopped();
    })();
    return stopping;
  };

  log.info('listening', { socket: socketPath, project, peer_check: peer.available ? 'uid' : 'permissions' });
  if (!peer.available) {
    log.warn(
      `connections from other users are kept out only by the socket's 0600 mode in the 0700 data directory: ${peer.problem}`,
    );
  }
  activity.record({
    kind: 'lifecycle',
    name: 'host_started',
    status: 'ok',
    summary: `Host started (pid ${process.pid}, droidbus ${VERSION}) — project: ${project ?? 'none'}`,
  });

  return {
    socketPath,
    system,
    http,
    page,
    info,
    setProject,
    beforeFailingInflight(hook) {
      hooks.add(hook);
      return () => hooks.delete(hook);
    },
    stop,
    stopped,
  };
}

/** Runs the quit hooks in parallel for at most QUIT_HOOK_TIMEOUT_MS; returns their sentences. */
async function runQuitHooks(hooks: QuitHook[]): Promise<string[]> {
  if (hooks.length === 0) {
    return [];
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), QUIT_HOOK_TIMEOUT_MS);
  const timedOut = new Promise<null>((resolve) =>
    controller.signal.addEventListener('abort', () => resolve(null), { once: true }),
  );
  const notes: string[] = [];
  await Promise.all(
    hooks.map(async (hook) => {
      const outcome = await Promise.race([
        hook(controller.signal).catch((err: unknown) => {
          log.warn('a quit hook failed', { error: err instanceof Error ? err.message : String(err) });
          return null;
        }),
        timedOut,
      ]);
      if (typeof outcome === 'string' && outcome.length > 0) {
        notes.push(outcome);
      }
    }),
  );
  clearTimeout(timer);
  return notes;
}
