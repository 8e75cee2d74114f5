import { z } from 'zod';
import { ATTACH_VERSION, attachHelloSchema } from '../bus/attach-handshake.js';
import type { AttachAccepted, AttachRefused, ParsedAttachHello } from '../bus/attach-handshake.js';

/** What the host knows when it decides a hello. */
export interface AttachContext {
  /** The host's droidbus version. */
  version: string;
  hostPid: number;
  /** The project the host has open (canonical), or null. */
  project: string | null;
  /** Sessions attached now, and the most it serves. */
  sessionCount: number;
  maxSessions: number;
  /** The toolset names a session may ask for. */
  toolsets: readonly string[];
  /** A project path in the form the host compares (symlinks resolved). */
  canonical(project: string): string;
}

export type AttachDecision =
  { accept: true; hello: ParsedAttachHello; reply: AttachAccepted } | { accept: false; reply: AttachRefused };

/**
 * The attach rules: the attach version must be this host's; a control connection is always
 * accepted; a session is refused past the session limit, for a toolset the host does not know, or
 * for a project the host does not have open. `project: null` follows the host's project; a project
 * equal to the host's (canonical paths) pins the session to it. The host never changes its project
 * for an agent, so a mismatch is refused with the host's project named.
 */
export function decideAttach(raw: unknown, ctx: AttachContext): AttachDecision {
  const refuse = (reason: string): AttachDecision => ({
    accept: false,
    reply: { accepted: false, reason, version: ctx.version },
  });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return refuse('the handshake is not a droidbus attach request');
  }
  const claimed = raw as { attach?: unknown; version?: unknown };
  if (typeof claimed.attach !== 'number') {
    return refuse('the handshake is not a droidbus attach request (it has no attach version)');
  }
  if (claimed.attach !== ATTACH_VERSION) {
    const theirs = typeof claimed.version === 'string' ? claimed.version.slice(0, 64) : 'unknown';
    return refuse(
      `this droidbus host (version ${ctx.version}) speaks attach version ${ATTACH_VERSION}, but the connecting droidbus (version ${theirs}) speaks attach version ${claimed.attach}; run the same droidbus release for both (restart the AI client after updating)`,
    );
  }
  const parsed = attachHelloSchema.safeParse(raw);
  if (!parsed.success) {
    return refuse(`malformed handshake: ${z.prettifyError(parsed.error)}`);
  }
  const hello = parsed.data;
  const accepted: AttachAccepted = {
    accepted: true,
    version: ctx.version,
    host_pid: ctx.hostPid,
    project: ctx.project,
  };
  if (hello.role === 'control') {
    return { accept: true, hello, reply: accepted };
  }
  if (!hello.session_id) {
    return refuse('a session handshake needs its session_id');
  }
  if (ctx.sessionCount >= ctx.maxSessions) {
    return refuse(
      `the droidbus host already serves ${ctx.sessionCount} sessions, the most it takes (${ctx.maxSessions}); end another agent session, or let this one run standalone`,
    );
  }
  if (hello.toolsets !== undefined) {
    const unknown = hello.toolsets.filter((t) => !ctx.toolsets.includes(t));
    if (unknown.length > 0) {
      return refuse(
        `unknown toolset${unknown.length > 1 ? 's' : ''} ${unknown.map((t) => `'${t}'`).join(', ')} (this host knows ${ctx.toolsets.join(', ')})`,
      );
    }
    accepted.toolsets = ctx.toolsets.filter((t) => hello.toolsets!.includes(t));
  }
  if (hello.project !== null) {
    const wanted = ctx.canonical(hello.project);
    if (ctx.project === null) {
      return refuse(
        `the droidbus host has no project open, and this session is for ${wanted}; start droidbus mcp without --project (outside a Gradle project) to follow the host, or ask the user to open ${wanted} in the host`,
      );
    }
    if (wanted !== ctx.project) {
      return refuse(
        `the droidbus host has ${ctx.project} open, not ${wanted} (this session's project); the host never changes its project for an agent — ask the user to open ${wanted} in the host, or start droidbus mcp without --project to follow ${ctx.project}`,
      );
    }
    hello.project = wanted;
  }
  return { accept: true, hello, reply: accepted };
}
