import net from 'node:net';
import { startActorSystem } from '../actors/runtime.js';
import { setRunRole } from '../util/run-id.js';
import type { ActorSystem } from '../actors/runtime.js';
import type { SupervisorOptions } from '../actors/supervisor.js';
import { BusError } from '../bus/errors.js';
import type { HostInfo } from '../bus/messages/host.js';
import type { Origin } from '../bus/origin.js';
import { runtimeStats } from '../mcp/runtime-stats.js';
import { ActivityLog } from '../store/activity-log.js';
import { ensureDataDir } from '../store/data-dir.js';
import { forgetStreamedDevices, readStreamedDevices, writeStreamedDevices } from '../store/logcat-streams.js';
import { hostSocketPath, socketPathProblem } from '../store/host-socket.js';
import { startEventLoopProbe } from '../util/event-loop.js';
import { logger } from '../util/log.js';
import { VERSION } from '../version.js';
import { acceptConnection } from './host-connections.js';
import { publishSessions, type HostCore, type QuitHook } from './host-core.js';
import { endConnection, HostStartError, listenOnSocket } from './host-listen.js';
import { HostEndpoint } from './host-endpoint.js';
import type { HostHandler } from './host-endpoint.js';
import { HttpStartError, startHttpFrontend } from './http/http-frontend.js';
import type { HttpFrontend, HttpFrontendOptions } from './http/http-frontend.js';
import { peerCheckAvailability } from './peer-credentials.js';
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

export type { QuitHook } from './host-core.js';

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

/** The project given at start, canonical, or the HostStartError saying why it cannot be opened. */
function startProject(given: string | null): string | null {
  if (given === null) {
    return null;
  }
  const resolved = resolveHostProject(given);
  if (typeof resolved !== 'string') {
    throw new HostStartError(resolved.problem, 'BAD_PROJECT');
  }
  return resolved;
}

/** The host's state as `host.info` answers it. */
function hostInfo(core: HostCore): HostInfo {
  return {
    pid: process.pid,
    version: VERSION,
    started_at: core.startedAt,
    project: core.project,
    socket: core.socketPath,
    peer_check: core.peer.available ? 'uid' : 'permissions',
    max_sessions: core.registry.max,
    sessions: core.registry.list(),
    http: core.http ? { url: `${core.http.url}/mcp`, tls: core.http.tls !== null } : null,
    page: core.page ? { url: core.page.url } : null,
  };
}

/** Opens another project (or closes it); refused for agents. */
function setHostProject(
  core: HostCore,
  next: string | null,
  origin: Origin,
): { project: string | null; previous: string | null } {
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
  const previous = core.project;
  core.project = resolved;
  if (previous !== resolved) {
    log.info('the host project changed', { project: resolved, previous });
    core.activity.record({
      kind: 'lifecycle',
      name: 'host_project',
      status: 'ok',
      summary: resolved ? `Host opened ${resolved}` : `Host closed ${previous ?? 'its project'}`,
    });
    core.system.bus.publish('host.project', { project: resolved, previous });
  }
  return { project: resolved, previous };
}

/** The host's own bus requests: the page's, `droidbus approve`'s (through HTTP), info, runtime, project. */
function hostHandlers(core: HostCore): ConstructorParameters<typeof HostEndpoint>[3] {
  // `droidbus approve` reaches the HTTP frontend's authorization server through these.
  const viaHttp =
    <T extends 'host.oauth_pending' | 'host.oauth_decide'>(type: T): HostHandler<T> =>
    (payload, origin) => {
      const handler = core.http?.hostHandlers[type] as HostHandler<T> | undefined;
      if (!handler) {
        throw new BusError(
          'UNAVAILABLE',
          'this droidbus host does not serve HTTP; start it with droidbus host --http',
        );
      }
      return handler(payload, origin);
    };
  return {
    ...pageRequestHandlers({
      project: () => core.project,
      sessions: () => core.registry.list(),
      pageLink: () => core.page?.newLoginLink() ?? null,
      publish: (topic, payload) => core.system.bus.publish(topic, payload),
    }),
    'host.oauth_pending': viaHttp('host.oauth_pending'),
    'host.oauth_decide': viaHttp('host.oauth_decide'),
    'host.info': () => hostInfo(core),
    'host.runtime': () => ({
      ...runtimeStats(core.probe),
      actors: core.system.supervisor.inline ? ('inline' as const) : ('workers' as const),
    }),
    'host.set_project': (payload, origin) => setHostProject(core, payload.project, origin),
    'host.replace_worker': ({ group, index }, origin) => {
      if (origin.kind !== 'cli') {
        throw new BusError(
          'INVALID',
          'only the person at this machine (a droidbus command) may terminate a worker',
        );
      }
      const actors = core.system.supervisor.replaceWorker(
        group,
        index,
        `worker thread ${group}#${index} was terminated on request (a fault drill)`,
      );
      if (actors === null) {
        throw new BusError('NOT_FOUND', `no worker thread ${group}#${index} is running in this host`);
      }
      return { actors };
    },
    'host.session_update': (payload, origin) => {
      if (origin.kind !== 'agent') {
        throw new BusError('INVALID', 'only an attached session can describe its client');
      }
      const { client_name, client_version } = payload;
      const before = core.registry.get(origin.session_id)?.client_name ?? null;
      if (core.registry.update(origin.session_id, { client_name, client_version })) {
        publishSessions(core);
        if (client_name !== null && client_name !== before) {
          core.notify(
            `session ${origin.session_id.slice(0, 8)} is ${client_name}${client_version ? ` ${client_version}` : ''}`,
          );
        }
      }
      return {};
    },
  };
}

/** Starts the HTTP frontend and the page when asked; on failure undoes what the host started. */
async function startFrontends(core: HostCore, server: net.Server, options: HostOptions): Promise<void> {
  // The page is one more client of the bus, asking as the host's person.
  const pageHandler = options.ui ? new PageHandler(core.system.client({ kind: 'host' })) : null;
  const undo = async (): Promise<void> => {
    server.close();
    core.probe.stop();
    await core.http?.close();
    await core.system.supervisor.shutdown();
    await core.activity.close();
  };
  if (options.http) {
    try {
      core.http = await startHttpFrontend(options.http, {
        system: core.system,
        registry: core.registry,
        publishSessions: () => publishSessions(core),
        project: () => core.project,
        activity: core.activity,
        notify: options.notify ?? ((line) => log.warn(line)),
        ...(pageHandler && options.ui?.mode === 'http' ? { page: pageHandler } : {}),
      });
    } catch (err) {
      await undo();
      if (err instanceof HttpStartError) {
        throw new HostStartError(err.message, 'HTTP_FAILED');
      }
      throw err;
    }
  }
  if (pageHandler && options.ui) {
    try {
      core.page = await startHostPage(pageHandler, options.ui, core.http);
    } catch (err) {
      await undo();
      throw new HostStartError((err as Error).message, 'PAGE_FAILED');
    }
  }
}

/** Quits once: hooks, then in-flight requests fail, sessions close, actors stop, the socket goes. */
function stopHost(core: HostCore, server: net.Server, reason: string, stopped: () => void): Promise<void> {
  core.stopping ??= (async () => {
    const { registry, system } = core;
    log.info('quitting', { reason, sessions: registry.size });
    core.notify(
      registry.size === 0
        ? 'quitting: no agent is attached'
        : `quitting: ${registry.size} attached agent${registry.size === 1 ? '' : 's'} continue${registry.size === 1 ? 's' : ''} standalone`,
    );
    // Closing the listener removes the socket file (libuv unlinks it), so a new host may start.
    server.close();
    // 1. Hooks (the build actor cancels a running build), at most QUIT_HOOK_TIMEOUT_MS.
    const notes = await runQuitHooks([...core.hooks]);
    // 2. Sessions learn first, so they swap to their own actors before their calls fail.
    system.bus.publish('host.quitting', { reason });
    // 3. Every request still in flight fails, saying the host quit.
    const detail = notes.length > 0 ? ` ${notes.join(' ')}` : '';
    system.bus.close(`${reason} before answering.${detail}`);
    // Streams stopped by quitting stay stopped: the next host does not stream them again.
    await system.stopKeepingStreams();
    await forgetStreamedDevices().catch((err: unknown) =>
      log.warn('could not forget the streamed devices', { error: String(err) }),
    );
    // 4. The connections close once their last lines are out; HTTP requests in flight finish.
    await Promise.all(
      [...core.connections]
        .map((socket) => endConnection(socket))
        .concat(core.http?.close() ?? [], core.page?.close() ?? []),
    );
    core.probe.stop();
    core.activity.record({
      kind: 'lifecycle',
      name: 'host_stopped',
      status: 'ok',
      summary: `Host stopped (${reason})`,
    });
    await system.supervisor.shutdown();
    await core.activity.close();
    stopped();
  })();
  return core.stopping;
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
  const project = startProject(options.project);
  const server = net.createServer();
  await listenOnSocket(server, socketPath, dataDir);
  setRunRole('host'); // before any worker starts: they inherit it (the logcat journal a dead host left is ours)
  const system = startActorSystem(options.supervisor, {
    initial: readStreamedDevices(),
    save: writeStreamedDevices,
  });
  // Debug sessions listen to installs and crashes: running from the start, they miss none.
  system.supervisor
    .spawn('sessions')
    .catch((err: unknown) => log.warn('could not start the sessions actor', { error: String(err) }));
  const core: HostCore = {
    socketPath,
    startedAt: new Date().toISOString(),
    activity: new ActivityLog({ session: null }),
    registry: new SessionRegistry(options.maxSessions ?? MAX_ATTACHED_SESSIONS),
    peer: peerCheckAvailability(),
    system,
    connections: new Set(),
    hooks: new Set(),
    // The host's main thread serves every attached session's bus traffic: `host.runtime` reports its delay.
    probe: startEventLoopProbe(),
    notify: options.notify ?? ((line: string): void => log.info(line)),
    project,
    http: null,
    page: null,
    stopping: undefined,
  };
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  system.bus.attach(new HostEndpoint(system.bus, system.supervisor, 'host', hostHandlers(core)));
  server.on('connection', (socket) => acceptConnection(core, socket));
  await startFrontends(core, server, options);

  log.info('listening', {
    socket: socketPath,
    project,
    peer_check: core.peer.available ? 'uid' : 'permissions',
  });
  if (!core.peer.available) {
    log.warn(
      `connections from other users are kept out only by the socket's 0600 mode in the 0700 data directory: ${core.peer.problem}`,
    );
  }
  core.activity.record({
    kind: 'lifecycle',
    name: 'host_started',
    status: 'ok',
    summary: `Host started (pid ${process.pid}, droidbus ${VERSION}) — project: ${project ?? 'none'}`,
  });

  return {
    socketPath,
    system,
    http: core.http,
    page: core.page,
    info: () => hostInfo(core),
    setProject: (next, origin) => setHostProject(core, next, origin),
    beforeFailingInflight(hook) {
      core.hooks.add(hook);
      return () => core.hooks.delete(hook);
    },
    stop: (reason = 'the droidbus host quit') => stopHost(core, server, reason, resolveStopped),
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
