import path from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { startActorSystem } from '../actors/runtime.js';
import type { ActorSystem } from '../actors/runtime.js';
import { AgentActionRecorder } from '../mcp/agent-actions.js';
import { attachToHost } from '../mcp/attach-client.js';
import { HostLink } from '../mcp/host-link.js';
import type { BusClient } from '../bus/client.js';
import { createMcpServer } from '../mcp/server.js';
import { createSessionState, followsHost, sessionOrigin, type SessionState } from '../mcp/session.js';
import { skillResource } from '../mcp/skill.js';
import { LineStdioTransport } from '../mcp/stdio-transport.js';
import { tapTransport, type TransportTap } from '../mcp/transport-tap.js';
import { runtimeResource } from '../mcp/runtime-stats.js';
import { ActivityLog, rotateActivityLog } from '../store/activity-log.js';
import { removeSessionRecord, writeSessionRecord } from '../store/session-records.js';
import type { SessionRecord } from '../store/session-records.js';
import { applyAdbServers } from './adb-server-args.js';
import { readSettings, updateSettings } from '../store/settings.js';
import { projectResources } from '../mcp/project-resources.js';
import { startEventLoopProbe, type EventLoopProbe } from '../util/event-loop.js';
import { logger } from '../util/log.js';
import { VERSION } from '../version.js';
import type { CliCommand } from './command.js';
import { USAGE, parseArgs, type McpArgs } from './mcp-args.js';

const log = logger('mcp');

/** The standalone reason of a session whose host went away (quit or crashed). */
export const HOST_QUIT_REASON = 'the droidbus host quit';
/** How long an --attach-only frontend lets failed calls answer before it exits. */
const EXIT_DRAIN_MS = 3_000;
/** How long calls running when the client closes stdin may take to be answered. */
const CALLS_DRAIN_MS = 30_000;
/** … trying to attach this often. */
const REATTACH_EVERY_MS = 250;
/** What an --attach-only session's calls answer while it waits for a host. */
export function hostAwayMessage(waitS: number): string {
  return `the droidbus host went away before answering; this session (--attach-only) waits up to ${waitS} s for a droidbus host to come back — call the tool again in a few seconds`;
}

/** The script this process runs, as `droidbus status` finds it again in the process table. */
function binaryPath(): string {
  return path.resolve(process.argv[1] ?? 'droidbus');
}

/** Waits for a running build of this process to end, up to the build timeout. */
async function waitForBuild(bus: BusClient): Promise<void> {
  const timeoutMs = (readSettings().mcp.build_timeout_sec + 30) * 1000;
  try {
    const r = await bus.request(
      'build.wait_idle',
      { timeout_ms: timeoutMs },
      { timeoutMs: timeoutMs + 10_000 },
    );
    if (!r.idle) {
      log.warn('the build did not end within the build timeout; stopping it', { build: r.build_id });
    }
  } catch (err) {
    log.warn('could not wait for the running build', { error: String(err) });
  }
}

/** One `droidbus mcp` session while it runs: attached through `link` or standalone on `system`. */
interface Frontend {
  readonly args: McpArgs;
  readonly session: SessionState;
  readonly activity: ActivityLog;
  readonly startedAt: string;
  system: ActorSystem | undefined;
  link: HostLink | undefined;
  /** The standalone session's record (`droidbus status` lists it). */
  record: SessionRecord | undefined;
  /** Resolves when the host goes away under --attach-only and none comes back in time. */
  readonly hostGone: Promise<'host_gone'>;
  /** The session has ended (no more attaching). */
  ended: boolean;
  resolveHostGone: () => void;
}

function saveRecord(f: Frontend): void {
  if (!f.record) {
    return;
  }
  try {
    writeSessionRecord(f.record);
  } catch (err) {
    log.warn('could not write the session record', { error: (err as Error).message });
  }
}

/** Runs this session on its own actors from now on. */
function goStandalone(f: Frontend, reason: string): void {
  const system = startActorSystem();
  f.system = system;
  f.session.mode = { kind: 'standalone', standaloneReason: reason };
  f.session.bus = system.client(sessionOrigin(f.session));
  // Warm the main worker, so the next tool call does not pay for it; debug sessions listen to
  // installs and crashes: running from the start, they miss none.
  for (const kind of ['system', 'sessions']) {
    system.supervisor
      .spawn(kind)
      .catch((err: unknown) => log.warn(`could not start the ${kind} actor`, { error: String(err) }));
  }
  f.record = {
    pid: process.pid,
    session_id: f.session.sessionId,
    started_at: f.startedAt,
    project: f.session.project.root,
    reason,
    binary: binaryPath(),
    node: process.execPath,
    version: VERSION,
    client_name: f.session.clientName,
  };
  saveRecord(f);
}

/** Tells the host which client this session serves (`droidbus status` and the page show it). */
function tellHostTheClient(f: Frontend): void {
  const { session } = f;
  f.link
    ?.request('host.session_update', {
      client_name: session.clientName?.slice(0, 200) ?? null,
      client_version: session.clientVersion?.slice(0, 100) ?? null,
    })
    .catch((err: unknown) => log.debug('could not tell the host the client name', { error: String(err) }));
}

/** What this session asks a host for when it attaches. */
function attachRequest(f: Pick<Frontend, 'args' | 'session'>): Parameters<typeof attachToHost>[0] {
  const { args, session } = f;
  return {
    sessionId: session.sessionId,
    project: args.ownChoice ? args.selection.root : null,
    selectedBy: args.ownChoice,
    origin: sessionOrigin({
      ...session,
      mode: { kind: 'attached', pinnedProject: null, hostProject: null },
    }),
    ...(args.explicit ? { toolsets: args.toolsets } : {}),
  };
}

/**
 * An --attach-only session whose host went away: attaches to the next host that accepts it within
 * --host-wait seconds (a host restarted by hand or by its service manager), else ends the session.
 */
async function reattach(f: Frontend, how: 'quit' | 'gone'): Promise<void> {
  const started = Date.now();
  log.info(`the host ${how === 'quit' ? 'quit' : 'went away'}; waiting for a droidbus host to attach to`);
  let last = '';
  while (Date.now() - started < f.args.hostWaitS * 1000 && !f.ended) {
    const outcome = await attachToHost(attachRequest(f));
    if (outcome.kind === 'attached') {
      await f.link?.close().catch(() => undefined);
      useHost(f, outcome);
      if (f.session.clientName !== null) {
        tellHostTheClient(f);
      }
      const waited = Date.now() - started;
      log.info('attached to the droidbus host again', { waited_ms: waited });
      f.activity.record({
        kind: 'lifecycle',
        name: 'reattached',
        status: 'ok',
        summary: `Attached again to the droidbus host after ${(waited / 1000).toFixed(1)} s`,
      });
      return;
    }
    last = outcome.reason;
    await new Promise((r) => setTimeout(r, REATTACH_EVERY_MS));
  }
  log.warn('no droidbus host came back', { last });
  f.resolveHostGone();
}

/** Serves the session through the host that accepted it; if the host goes, standalone (or exit). */
function useHost(
  f: Frontend,
  outcome: Extract<Awaited<ReturnType<typeof attachToHost>>, { kind: 'attached' }>,
): void {
  const { session, args } = f;
  const wanted = args.ownChoice ? args.selection.root : null;
  const reply = outcome.reply;
  session.mode = {
    kind: 'attached',
    pinnedProject: wanted === null ? null : reply.project,
    hostProject: reply.project,
  };
  if (wanted === null) {
    session.project = { root: reply.project, selectedBy: reply.project ? 'host' : null };
  }
  const link = new HostLink(
    outcome.client,
    (how) => {
      if (args.attachOnly) {
        void reattach(f, how);
        return;
      }
      if (followsHost(session.mode) && session.project.root === null) {
        session.project = args.selection;
      }
      goStandalone(f, HOST_QUIT_REASON);
      f.activity.record({
        kind: 'lifecycle',
        name: 'continued_standalone',
        status: 'ok',
        summary: `Continuing standalone: ${HOST_QUIT_REASON}`,
      });
    },
    args.attachOnly ? hostAwayMessage(args.hostWaitS) : undefined,
  );
  f.link = link;
  session.bus = link;
  link.on('host.project', ({ project }) => {
    if (session.mode.kind !== 'attached') {
      return;
    }
    session.mode.hostProject = project;
    if (session.mode.pinnedProject === null) {
      session.project = { root: project, selectedBy: project ? 'host' : null };
    }
  });
}

/** The session's MCP server: its resources, and every call and request in the activity log. */
function serverFor(f: Frontend, probe: EventLoopProbe): Server {
  const { session, activity } = f;
  // Device tool calls go to the debug sessions of their device, attached or standalone.
  const agentActions = new AgentActionRecorder();
  const server = createMcpServer({
    session,
    resources: [
      runtimeResource(probe, () => ({ agent_actions: agentActions.stats() })),
      skillResource(),
      ...projectResources(),
    ],
    onToolCall: (r) => {
      const { name, durationMs, status, summary } = r;
      activity.record({ kind: 'tool', name, durationMs, status, summary });
      agentActions.record(session, r);
    },
    onRequest: ({ kind, name, durationMs, status, summary }) =>
      activity.record({ kind, name, durationMs, status, summary }),
  });
  const onInitialized = server.oninitialized;
  server.oninitialized = () => {
    onInitialized?.();
    activity.record({
      kind: 'lifecycle',
      name: 'client_initialized',
      status: 'ok',
      summary: `Client initialized (${session.clientName ?? 'unknown client'}${session.clientVersion ? ` ${session.clientVersion}` : ''}) — ${session.mode.kind}`,
    });
    if (session.mode.kind === 'attached' && f.link && !f.link.lost) {
      tellHostTheClient(f);
    } else if (f.record) {
      f.record = { ...f.record, client_name: session.clientName };
      saveRecord(f);
    }
  };
  return server;
}

/** How a stdio session ended: the client left, a signal, or stdin/stdout broke (with why). */
type Ended = 'client' | 'signal' | { broken: string };

/**
 * Connects the server to stdio (LineStdioTransport: every bad line is answered, none ends the
 * session); resolves how the session ended.
 */
async function serveStdio(server: Server): Promise<{ closed: Promise<Ended>; tap: TransportTap }> {
  const transport = new LineStdioTransport();
  const closed = new Promise<Ended>((resolve) => {
    let done = false;
    const finish = (why: Ended) => (): void => {
      if (!done) {
        done = true;
        resolve(why);
      }
    };
    transport.onclose = finish('client');
    process.stdin.once('end', finish('client'));
    process.stdin.once('close', finish('client'));
    for (const [name, stream] of [
      ['stdin', process.stdin],
      ['stdout', process.stdout],
    ] as const) {
      stream.on('error', (err) => finish({ broken: `${name} failed: ${err.message}` })());
    }
    process.once('SIGTERM', finish('signal'));
    process.once('SIGINT', finish('signal'));
  });
  await server.connect(transport);
  return { closed, tap: tapTransport(transport) };
}

/** Ends the session: the server, the link or the actors (a client's build finished first), the log. */
async function shutdown(f: Frontend, server: Server, probe: EventLoopProbe, ended: string): Promise<void> {
  await server.close().catch(() => undefined);
  probe.stop();
  await f.link?.close().catch(() => undefined);
  const system = f.system;
  if (system) {
    if (ended === 'client' && system.supervisor.list().some((a) => a.address === 'build')) {
      // A client that goes away does not stop the build it started: it is finished and recorded
      // (up to the build timeout) before this process exits. A signal stops it instead.
      await waitForBuild(system.client({ kind: 'cli' }));
    }
    await system.shutdown('the MCP client went away');
    removeSessionRecord();
  }
  f.activity.record({ kind: 'lifecycle', name: 'server_stopped', status: 'ok', summary: 'Server stopped' });
  await f.activity.close();
}

async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'number') {
    return args;
  }
  if (args.inline) {
    process.env['DROIDBUS_INLINE'] = '1';
  }
  // Standalone, this session's actors serve the adb servers settings.json names (attached: the host's).
  for (const warning of applyAdbServers(undefined, false)) {
    process.stderr.write(`droidbus mcp: ${warning}\n`);
  }
  const { toolsets, ownChoice } = args;
  const session = createSessionState({
    project: args.selection,
    mode: { kind: 'standalone', standaloneReason: null },
    toolsets,
    bus: undefined as never,
  });
  const outcome = args.inline
    ? ({ kind: 'standalone', reason: '--inline: the actors run on the main thread' } as const)
    : await attachToHost(attachRequest({ args, session }));
  if (outcome.kind === 'standalone' && args.attachOnly) {
    process.stderr.write(`droidbus mcp: cannot attach (--attach-only): ${outcome.reason}\n`);
    return 2;
  }
  let resolveHostGone!: () => void;
  const f: Frontend = {
    args,
    session,
    activity: new ActivityLog({ session: session.sessionId }),
    startedAt: new Date().toISOString(),
    system: undefined,
    link: undefined,
    record: undefined,
    hostGone: new Promise<'host_gone'>((resolve) => (resolveHostGone = () => resolve('host_gone'))),
    resolveHostGone: () => resolveHostGone(),
    ended: false,
  };
  if (outcome.kind === 'attached') {
    useHost(f, outcome);
  } else {
    goStandalone(f, outcome.reason);
    rotateActivityLog().catch((err: unknown) =>
      log.debug('could not rotate the activity log', { error: String(err) }),
    );
    f.activity.record({
      kind: 'lifecycle',
      name: 'server_started',
      status: 'ok',
      summary: `Server started (standalone: ${outcome.reason})`,
    });
  }
  if (session.project.root && ownChoice) {
    const root = session.project.root;
    updateSettings((s) => {
      s.last_active_project = root;
    }).catch((err: unknown) => log.warn('could not record the last active project', { error: String(err) }));
  }

  const probe = startEventLoopProbe();
  const server = serverFor(f, probe);
  const { closed, tap } = await serveStdio(server);
  log.info('serving MCP over stdio', { project: session.project.root, toolsets, mode: session.mode.kind });
  if (process.stdin.isTTY === true) {
    // Started by hand in a terminal: say what it is waiting for (stderr; stdout is the protocol).
    process.stderr.write(
      'droidbus mcp is waiting for an MCP client on stdin (JSON-RPC). Register it with your agent instead of running it by hand — see the README, "Register with your agent" — or press Ctrl-C to quit.\n',
    );
  }
  const ended = await Promise.race([closed, f.hostGone]);
  f.ended = true;
  let code = 0;
  if (ended === 'host_gone') {
    process.stderr.write(
      `droidbus mcp: ${HOST_QUIT_REASON} and none came back within ${args.hostWaitS} s; exiting (--attach-only)\n`,
    );
    await tap.whenIdle(EXIT_DRAIN_MS);
    code = 1;
  } else if (typeof ended === 'object') {
    process.stderr.write(`droidbus mcp: the session ended: ${ended.broken}\n`);
    code = 1;
  } else if (ended === 'client' && tap.pending() > 0) {
    // The client closed stdin with calls running (a half-close: it may still read stdout): they are
    // answered before the session ends — a build it started runs to its end anyway (up to the build
    // timeout), other calls get CALLS_DRAIN_MS; what is still running then is said.
    if (f.system?.supervisor.list().some((a) => a.address === 'build')) {
      await waitForBuild(f.system.client({ kind: 'cli' }));
    }
    await tap.whenIdle(CALLS_DRAIN_MS);
    if (tap.pending() > 0) {
      process.stderr.write(
        `droidbus mcp: the client closed stdin; ${tap.pending()} call(s) still running after ${CALLS_DRAIN_MS / 1000} s were not answered\n`,
      );
      code = 1;
    }
  }
  await shutdown(f, server, probe, typeof ended === 'object' ? 'broken' : ended);
  return code;
}

export const command: CliCommand = {
  name: 'mcp',
  summary: 'Serve MCP over stdio (attaches to a running host, else standalone).',
  usage: USAGE,
  run,
};
