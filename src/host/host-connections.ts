import type net from 'node:net';
import type { AttachedSession } from '../bus/messages/host.js';
import type { Origin } from '../bus/origin.js';
import { serveBusConnection } from '../bus/socket-server.js';
import type { HandshakeDecision } from '../bus/socket-server.js';
import { TOOLSET_NAMES } from '../mcp/toolsets.js';
import { canonicalProjectRoot } from '../project/trust.js';
import { logger } from '../util/log.js';
import { VERSION } from '../version.js';
import { decideAttach } from './handshake.js';
import { publishSessions, type HostCore } from './host-core.js';
import { peerUidOf } from './peer-credentials.js';

/**
 * The host's socket connections: the peer's uid checked, the attach handshake decided (an MCP
 * session or a CLI control connection), the session registered and announced, and forgotten when
 * the connection closes.
 */

const log = logger('host');
const myUid = typeof process.getuid === 'function' ? process.getuid() : undefined;

/** True when the connection may be served: its peer runs as this host's user (when that can be read). */
function samePeer(core: HostCore, socket: net.Socket): boolean {
  if (!core.peer.available || myUid === undefined) {
    return true;
  }
  const uid = peerUidOf(socket);
  if (uid === myUid) {
    return true;
  }
  log.warn(
    uid === null
      ? 'dropped a connection whose credentials could not be read'
      : `dropped a connection from uid ${uid} (this host runs as uid ${myUid})`,
  );
  return false;
}

/** The handshake of one connection; `attached` learns the session id of an MCP session it admits. */
function handshake(core: HostCore, raw: unknown, attached: (id: string) => void): HandshakeDecision {
  if (core.stopping) {
    return { accept: false, reply: { accepted: false, reason: 'the droidbus host is quitting' } };
  }
  const { registry } = core;
  const decision = decideAttach(raw, {
    version: VERSION,
    hostPid: process.pid,
    project: core.project,
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
      reply: { accepted: false, reason: `a session with id ${id} is already attached`, version: VERSION },
    };
  }
  attached(id);
  const where = hello.project ? `project ${hello.project}` : 'follows the host';
  core.activity.record({
    kind: 'lifecycle',
    name: 'client_attached',
    session: id,
    status: 'ok',
    summary: `Client attached (pid ${hello.pid}, droidbus ${hello.version}) — project: ${hello.project ?? `${core.project ?? 'none'} (follows the host)`}`,
  });
  publishSessions(core);
  core.notify(
    `agent attached: ${hello.client_name ?? 'an MCP session'} (pid ${hello.pid}, session ${id.slice(0, 8)}, ${where}) — ${registry.size} attached`,
  );
  const agent: Origin = { kind: 'agent', session_id: id, client_name: hello.client_name, standalone: false };
  return {
    accept: true,
    reply: decision.reply,
    origin: agent,
    // The host sets a session's origin itself: a session may only speak as itself.
    originFor: (claimed) =>
      claimed.kind === 'agent' && claimed.session_id === id
        ? { ...claimed, standalone: false }
        : { ...agent, client_name: registry.get(id)?.client_name ?? null },
  };
}

/** A session's connection closed: it leaves the registry and the host's person learns it. */
function detached(core: HostCore, sessionId: string): void {
  const gone = core.registry.remove(sessionId);
  core.activity.record({
    kind: 'lifecycle',
    name: 'client_detached',
    session: sessionId,
    status: 'ok',
    summary: `Client detached (pid ${gone?.pid ?? '?'})`,
  });
  publishSessions(core);
  if (!core.stopping) {
    core.notify(
      `agent detached: ${gone?.client_name ?? 'an MCP session'} (pid ${gone?.pid ?? '?'}, session ${sessionId.slice(0, 8)}) — ${core.registry.size} attached`,
    );
  }
}

/** Serves one connection to the host's socket, or drops it (quitting, another user). */
export function acceptConnection(core: HostCore, socket: net.Socket): void {
  if (core.stopping || !samePeer(core, socket)) {
    socket.destroy();
    return;
  }
  core.connections.add(socket);
  let sessionId: string | undefined;
  serveBusConnection(socket, {
    bus: core.system.bus,
    handshake: (raw) => handshake(core, raw, (id) => (sessionId = id)),
    onClose: () => {
      core.connections.delete(socket);
      if (sessionId) {
        detached(core, sessionId);
      }
    },
  });
}
