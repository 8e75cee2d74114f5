/** The host's state while it runs, shared by its pieces (the socket's connections, its handlers, its frontends). */
import type net from 'node:net';
import type { ActorSystem } from '../actors/runtime.js';
import type { ActivityLog } from '../store/activity-log.js';
import type { EventLoopProbe } from '../util/event-loop.js';
import type { HttpFrontend } from './http/http-frontend.js';
import type { peerCheckAvailability } from './peer-credentials.js';
import type { SessionRegistry } from './session-registry.js';
import type { HostPage } from './ui/host-page.js';

/**
 * Runs when the host quits, before the requests still in flight fail. It may return a sentence
 * for their error message ("Its running build was cancelled."), or null. The signal fires when
 * QUIT_HOOK_TIMEOUT_MS has passed: the host then goes on without waiting longer.
 */
export type QuitHook = (signal: AbortSignal) => Promise<string | null>;
/** What the host's pieces share: its state while it runs. */
export interface HostCore {
  readonly socketPath: string;
  readonly startedAt: string;
  readonly activity: ActivityLog;
  readonly registry: SessionRegistry;
  readonly peer: ReturnType<typeof peerCheckAvailability>;
  readonly system: ActorSystem;
  /** The sockets of attached sessions and CLI control connections. */
  readonly connections: Set<net.Socket>;
  readonly hooks: Set<QuitHook>;
  readonly probe: EventLoopProbe;
  /** One line for the person at the host's console (its stdout), or the log when it has none. */
  readonly notify: (line: string) => void;
  project: string | null;
  http: HttpFrontend | null;
  page: HostPage | null;
  /** Set once the host quits. */
  stopping: Promise<void> | undefined;
}

/** Tells every listener (the page, `droidbus status`) the sessions now attached. */
export function publishSessions(core: HostCore): void {
  core.system.bus.publish('host.sessions', { sessions: core.registry.list() });
}
