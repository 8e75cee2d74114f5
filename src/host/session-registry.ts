import type { AttachedSession } from '../bus/messages/host.js';

/** The most sessions one host serves at once. */
export const MAX_ATTACHED_SESSIONS = 16;
/** The most Streamable HTTP sessions one host serves at once (counted apart from attached ones). */
export const MAX_HTTP_SESSIONS = 32;

/** The host's sessions (attached over the socket, and HTTP), in the order they started. */
export class SessionRegistry {
  private readonly sessions = new Map<string, AttachedSession>();

  constructor(
    readonly max: number = MAX_ATTACHED_SESSIONS,
    readonly maxHttp: number = MAX_HTTP_SESSIONS,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** How many sessions of a kind are registered. */
  count(kind: AttachedSession['kind']): number {
    let n = 0;
    for (const s of this.sessions.values()) {
      if (s.kind === kind) {
        n++;
      }
    }
    return n;
  }

  /** Adds a session; false when its kind is at its limit or the id is taken. */
  add(session: AttachedSession): boolean {
    const limit = session.kind === 'http' ? this.maxHttp : this.max;
    if (this.count(session.kind) >= limit || this.sessions.has(session.session_id)) {
      return false;
    }
    this.sessions.set(session.session_id, session);
    return true;
  }

  get(sessionId: string): AttachedSession | undefined {
    return this.sessions.get(sessionId);
  }

  /** Changes a session's client name and version (known once MCP `initialize` arrived). */
  update(sessionId: string, patch: Pick<AttachedSession, 'client_name' | 'client_version'>): boolean {
    const session = this.sessions.get(sessionId);
    if (!session) {
      return false;
    }
    this.sessions.set(sessionId, { ...session, ...patch });
    return true;
  }

  remove(sessionId: string): AttachedSession | undefined {
    const session = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    return session;
  }

  /** Copies of every session, oldest first. */
  list(): AttachedSession[] {
    return [...this.sessions.values()].map((s) => ({ ...s }));
  }
}
